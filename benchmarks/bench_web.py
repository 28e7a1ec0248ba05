"""`castell serve`: step latency with 1 and 20 clients, SSE fan-out delay to 10 pages, the
step and the other screens at rounds 1, 5 and 10, first page weight, time to first advice.

Run: python benchmarks/bench_web.py [--steps 100] [--clients 20] [--requests 100]
                                    [--round-steps 40] [--folds history,score] [--out FILE]

* by round: a 3-player game played to rounds 1, 5 and 10 (real turns: a move, a recruit, the
  end), with 3 and 10 other screens open (each an event stream that re-fetches the game's
  fragment on every change, as the page does); one screen taps `--round-steps` steps (htmx:
  the step, its save, its fragment), moves and undos at a table's pace: the server's step
  time (its `Server-Timing`; goal p95 <= 30 ms), the time to the tapping screen's answer,
  and the time from the tap to each other screen's fragment (goal p95 <= 150 ms). Each
  screen's requests name the folds open on it, as the page's script does (`--folds`; none by
  default, the first screen's state; `all`: the requests name none, and every fold is drawn).

* step latency, 1 client: `--steps` requests over HTTP to a uvicorn server on 127.0.0.1, a move
  and its undo in turn, each with the revision it knows: the plain form post (303, the step
  and its save) and the htmx post (the step, its save and the re-rendered game); against the
  reference, the same step through the game handle in this process (`Game.editing`, step,
  save: what `castell play` runs, without its start-up). Solvers excluded: moves and undos.
* 20 clients: `--clients` threads each sending `--requests` steps and undos with the revision
  they last saw, plus a terminal `castell play` loop (the handle) on the same file: statuses,
  p50/p95 of every request, and whether the history is exact (accepted steps = revision).
* SSE fan-out: 10 event streams open on one game; a step written through the handle; the
  delay until each stream has its `changed` event (median and worst over 5 steps).
* first page weight: the Castell page of examples/game/round3.json with the map and what it
  loads (htmx, its SSE extension, the style sheet), raw and gzipped.
* time to first advice: "What should I do?" on round3.json (a mid-game state, the planner's
  page time limit) and on a new Castle Combo game (its page time limit), until the answer
  is shown.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.castell import Game  # noqa: E402
from tests.web.conftest import LiveServer, free_port, new_castell, new_combo  # noqa: E402
from tests.web.load import play_to_round, run_load  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(values: list[float]) -> dict[str, float]:
    return {"p50_ms": round(statistics.median(values) * 1000, 1),
            "p95_ms": round(pct(values, 0.95) * 1000, 1)}


def one_client(url: str, name: str, steps: int, htmx: bool) -> list[float]:
    times = []
    with httpx.Client(base_url=url, timeout=60) as http:
        state = http.get(f"/api/g/{name}").json()
        move = next(s for s in state["legal"] if s.startswith("move "))
        revision = state["revision"]
        for i in range(steps):
            step = move if i % 2 == 0 else "undo"
            started = time.perf_counter()
            answer = http.post(f"/g/{name}/step", data={"revision": revision, "step": step},
                               headers={"hx-request": "true"} if htmx else {})
            times.append(time.perf_counter() - started)
            assert answer.status_code in (200, 303), answer.text
            revision += 1
    return times


def reference(path: Path, steps: int) -> list[float]:
    game = Game.load(path)
    move = next(a for a in game.legal_actions() if a.type == "move")
    times = []
    for i in range(steps):
        started = time.perf_counter()
        with Game.editing(path) as editing:
            editing.step("undo" if i % 2 else move)
            editing.save()
        times.append(time.perf_counter() - started)
    return times


def _listen(url: str, name: str, since: int, ready: threading.Barrier, got: list[float],
            lock: threading.Lock) -> None:
    with httpx.Client(base_url=url, timeout=10) as http, \
            http.stream("GET", f"/g/{name}/events?since={since}") as stream:
        lines = stream.iter_lines()
        next(lines)  # ": listening"
        ready.wait()
        for line in lines:
            if line.startswith("event: changed"):
                with lock:
                    got.append(time.perf_counter())
                return


def fan_out(url: str, path: Path, pages: int = 10, rounds: int = 5) -> list[float]:
    delays: list[float] = []
    for _ in range(rounds):
        since = Game.load(path).revision
        got: list[float] = []
        ready = threading.Barrier(pages + 1)
        lock = threading.Lock()
        threads = [threading.Thread(target=_listen,
                                    args=(url, path.name, since, ready, got, lock))
                   for _ in range(pages)]
        for t in threads:
            t.start()
        ready.wait()
        time.sleep(0.2)
        started = time.perf_counter()
        with Game.editing(path) as game:
            game.step(game.legal_actions()[0] if not game.state.history else "undo")
            game.save()
        for t in threads:
            t.join(10)
        delays += [g - started for g in got]
    return delays


QUIET_S = 3.0


def said(folds: str) -> dict[str, str]:
    """The header a page's requests carry with the folds `folds` ("a,b") open on its screen
    (`static/folds.js`); `all`: none, as a request that does not say (every fold drawn)."""
    if folds == "all":
        return {}
    return {"X-Folds": " ".join(f"fold-{fold}" for fold in folds.split(",") if fold)}


class Screen(threading.Thread):
    """A page open on the game: its event stream, and on each change the fragment re-fetched
    (as htmx does); when each revision's fragment arrived."""

    def __init__(self, url: str, name: str, since: int, ready: threading.Barrier,
                 folds: str = ""):
        super().__init__(daemon=True)
        self.url, self.name, self.since, self.ready = url, name, since, ready
        self.headers = {"hx-request": "true", **said(folds)}
        self.arrived: dict[int, float] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        # a stream quiet for QUIET_S: the taps are over (one comes every 0.3 s), and the page
        # closes (left open until the stream's heartbeat, each phase's screens were still
        # listening, on another game, during the next phase)
        timeout = httpx.Timeout(30, read=QUIET_S)
        with httpx.Client(base_url=self.url, timeout=timeout) as http, \
                http.stream("GET", f"/g/{self.name}/events?since={self.since}") as stream:
            lines = stream.iter_lines()
            next(lines)  # ": listening"
            self.ready.wait()
            with contextlib.suppress(httpx.ReadTimeout):
                for line in lines:
                    if self.stop.is_set():
                        return
                    if line.startswith("data: "):
                        revision = int(line[6:])
                        http.get(f"/g/{self.name}/game", headers=self.headers, timeout=30)
                        self.arrived[revision] = time.perf_counter()


@contextlib.contextmanager
def served(folder: Path) -> Iterator[str]:
    """`castell serve --dir folder` on a free port of 127.0.0.1, until the block ends."""
    port = free_port()
    castell = Path(sys.executable).parent / "castell"
    server = subprocess.Popen([str(castell), "serve", "--dir", str(folder), "--port",
                               str(port)], stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(url + "/", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        server.wait(10)


def by_round(url: str, path: Path, pages: int, steps: int, folds: str = ""
             ) -> dict[str, object]:
    """One screen taps (an htmx step: the step, its save, its fragment), `pages` other
    screens follow; moves and their undos (no solver): the server's own time for the step (its
    `Server-Timing`), the time to the tapping screen's answer, and the time from the tap to
    each other screen's fragment."""
    since = Game.load(path).revision
    ready = threading.Barrier(pages + 1)
    screens = [Screen(url, path.name, since, ready, folds) for _ in range(pages)]
    for screen in screens:
        screen.start()
    ready.wait()
    taps: dict[int, float] = {}
    server: list[float] = []  # the server's own time (its Server-Timing)
    tapped: list[float] = []  # the tapping screen's, to the answer
    with httpx.Client(base_url=url, timeout=30) as http:
        for index in range(steps):
            state = http.get(f"/api/g/{path.name}").json()
            step = "undo" if index % 2 else next(s for s in state["legal"]
                                                 if s.startswith("move "))
            started = time.perf_counter()
            answer = http.post(f"/g/{path.name}/step",
                               headers={"hx-request": "true", **said(folds)},
                               data={"revision": state["revision"], "step": step})
            tapped.append(time.perf_counter() - started)
            server.append(float(answer.headers["server-timing"].split("dur=")[1]) / 1000)
            assert answer.status_code == 200, answer.text
            taps[state["revision"] + 1] = started
            time.sleep(0.3)  # a table's pace: the screens settle between taps
    for screen in screens:
        screen.stop.set()
    for screen in screens:  # each page closed before the next phase opens its own
        screen.join(QUIET_S + 30)
    others = [screen.arrived[r] - t for screen in screens for r, t in taps.items()
              if r in screen.arrived]
    return {"history": len(Game.load(path).history_lines()), "server_step": ms(server),
            "tap_to_own_screen": ms(tapped),
            "other_screens": {**ms(others), "fragments": len(others),
                              "expected": pages * steps}}


def weight(url: str) -> dict[str, float]:
    with httpx.Client(base_url=url) as http:
        html = http.get("/g/round3.json").content
        parts = [html] + [http.get(p).content for p in (
            "/static/vendor/htmx.min.js", "/static/vendor/htmx-ext-sse.min.js",
            "/static/app.css")]
    return {"html_kb": round(len(html) / 1024, 1),
            "total_kb": round(sum(map(len, parts)) / 1024, 1),
            "total_gzip_kb": round(sum(len(gzip.compress(p)) for p in parts) / 1024, 1)}


def first_advice(url: str, name: str) -> float:
    with httpx.Client(base_url=url, timeout=60) as http:
        revision = http.get(f"/api/g/{name}").json()["revision"]
        started = time.perf_counter()
        http.post(f"/g/{name}/advice", data={"revision": revision})
        while "Thinking" in http.get(f"/g/{name}/advice").text:
            time.sleep(0.05)
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--round-steps", type=int, default=40)
    parser.add_argument("--folds", default="",
                        help="the folds open on every screen (a,b; 'all': every fold drawn)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        shutil.copy(ROOT / "examples" / "game" / "round3.json", folder / "round3.json")
        new_castell(folder, "one.json")
        new_castell(folder, "many.json")
        new_castell(folder, "ref.json")
        new_castell(folder, "sse.json")
        combo = new_combo(folder, "combo.json")
        with LiveServer(folder) as server:
            one_client(server.url, "one.json", 10, False)  # warm-up
            figures: dict[str, object] = {
                "reference_handle": ms(reference(folder / "ref.json", args.steps)),
                "one_client_plain": ms(one_client(server.url, "one.json", args.steps, False)),
                "one_client_htmx": ms(one_client(server.url, "one.json", args.steps, True)),
            }
            web, term, wall = run_load(server.url, folder / "many.json", args.clients,
                                       args.requests, terminal=20)
            game = Game.load(folder / "many.json")
            history = game.state.history.entries if game.state.history else []
            figures["many_clients"] = {
                "clients": args.clients, "requests_each": args.requests, **ms(web.latencies),
                "statuses": web.statuses, "wall_s": round(wall, 1),
                "history_exact": game.revision == web.steps + web.undos + term.steps
                + term.undos and len(history) == web.steps + term.steps - web.undos - term.undos}
            delays = fan_out(server.url, folder / "sse.json")
            figures["sse_fan_out_10_pages"] = {"events": len(delays), **ms(delays),
                                               "max_ms": round(max(delays) * 1000, 1)}
            figures["first_page_weight"] = weight(server.url)
            figures["first_advice_s"] = {
                "castell_round3": round(first_advice(server.url, "round3.json"), 2),
                "combo": round(first_advice(server.url, combo.name), 2)}
        # the server in a process of its own (`castell serve`), as at the table: the screens'
        # client threads here do not share its interpreter
        rounds = folder / "rounds"
        rounds.mkdir()
        for round_ in (1, 5, 10):
            for pages in (3, 10):
                play_to_round(new_castell(rounds, f"r{round_}p{pages}.json", "Anna,Biel,Carla"),
                              round_)
        with served(rounds) as url:
            for round_ in (1, 5, 10):
                for pages in (3, 10):
                    figures[f"round_{round_}_{pages}_pages"] = by_round(
                        url, rounds / f"r{round_}p{pages}.json", pages, args.round_steps,
                        args.folds)
    figures["open_folds"] = args.folds or "none"
    ref = figures["reference_handle"]["p50_ms"]  # type: ignore[index]
    figures["ratio_plain_over_handle_p50"] = round(
        figures["one_client_plain"]["p50_ms"] / ref, 2)  # type: ignore[index]
    text = json.dumps(figures, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
