"""A bounded load on one game: clients that each send steps and undos with the revision they
last saw, and a terminal `castell play` loop (the game handle, as the CLI runs it), counted so
that the history can be checked exact afterwards. Shared by the load test and the benchmark."""

from __future__ import annotations

import random
import statistics
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from models.errors import Refused
from service.castell import Game


@dataclass
class Tally:
    steps: int = 0  # accepted steps (not undos)
    undos: int = 0  # accepted undos
    statuses: dict[int, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)  # seconds, accepted or refused
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, status: int, undo: bool, seconds: float) -> None:
        with self.lock:
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self.latencies.append(seconds)
            if status == 303:
                if undo:
                    self.undos += 1
                else:
                    self.steps += 1

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0

    @property
    def p50(self) -> float:
        return statistics.median(self.latencies) if self.latencies else 0.0


def client_loop(url: str, name: str, requests: int, seed: int, tally: Tally) -> None:
    pick = random.Random(seed)
    with httpx.Client(base_url=url, timeout=60) as http:
        state = http.get(f"/api/g/{name}").json()
        for _ in range(requests):
            undo = bool(state["history"]) and pick.random() < 0.4
            moves = [s for s in state["legal"] if s != "end"] or state["legal"]
            step = "undo" if undo or not moves else pick.choice(moves)
            started = time.perf_counter()
            answer = http.post(f"/g/{name}/step", data={"revision": state["revision"],
                                                        "step": step})
            tally.add(answer.status_code, step == "undo", time.perf_counter() - started)
            state = http.get(f"/api/g/{name}").json()


def terminal_loop(path: Path, rounds: int, tally: Tally) -> None:
    """`castell play FILE STEP` as the CLI runs it: the handle under the lock, then save."""
    for i in range(rounds):
        undo = i % 2 == 1
        try:
            with Game.editing(path) as game:
                if undo and game.state.history and game.state.history.entries:
                    game.step("undo")
                else:
                    undo = False
                    legal = [a for a in game.legal_actions()]
                    if not legal:
                        continue
                    game.step(legal[0])
                game.save()
            tally.add(303, undo, 0.0)
        except Refused:
            tally.add(422, undo, 0.0)


def run_load(url: str, path: Path, clients: int, requests: int, terminal: int = 10
             ) -> tuple[Tally, Tally, float]:
    """The web tally, the terminal's, and the wall time."""
    web, term = Tally(), Tally()
    threads = [threading.Thread(target=client_loop, args=(url, path.name, requests, i, web))
               for i in range(clients)]
    threads.append(threading.Thread(target=terminal_loop, args=(path, terminal, term)))
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return web, term, time.perf_counter() - started


def play_to_round(path: Path, round_: int) -> None:
    """Real turns on the game in `path` (a move, a recruit, a training, a special action when
    there is one, the end) until `round_`: a history about as long as a table's."""
    with Game.editing(path) as game:
        while game.state.round < round_ and not game.state.game_over:
            for kind in ("move ", "recruit ", "train ", "special "):
                step = next((s for s in game.legal_steps() if s.startswith(kind)), None)
                if step is not None:
                    game.step(step)
            if game.state.turn.free_special:  # a special tile trained: its free action
                game.step(next(s for s in game.legal_steps() if s.startswith("special ")))
            game.step("end")
        game.save()
