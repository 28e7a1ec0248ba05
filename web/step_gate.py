"""A step waits for its game's lock without a worker thread: the lock held elsewhere (another
process's write, a stuck `castell play`), it waits here in the event loop, looking every few
milliseconds, and gets a thread only once the lock is free; after `wait` seconds it is 503
"busy". At most `waiters` steps of one game are in hand at once (waiting here or running):
one more is 503 at once. The `wait` is the step's whole budget: what is left of it when the
lock is free is the most its thread waits for the lock in turn (`time_left`: a lock taken
again between the look here and the thread, by another writer or a step of the same game let
through with it), so a step never waits twice. Issue 53: with a game's lock held by another
process, 45 steps on it filled the server's 40 worker threads, and a read of another game
waited 4-5 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated

from fastapi import Depends, HTTPException, Request

from service.store import lock_is_free, lock_path
from web.served import game_file

LOOK_S = 0.02  # how often a waiting step looks at the lock again


class StepGate:
    def __init__(self, wait: float = 5.0, waiters: int = 4) -> None:
        self.wait = wait
        self.waiters = max(1, waiters)
        self._lock = threading.Lock()
        self._in_hand: Counter[Path] = Counter()  # by lock file: a game's steps in hand

    def in_hand(self, path: Path) -> int:
        with self._lock:
            return self._in_hand[lock_path(path)]

    @contextlib.asynccontextmanager
    async def turn(self, path: Path) -> AsyncIterator[float]:
        """Until the game's lock is free (503 after `wait` s, or at once with `waiters` steps
        of the game already in hand); the step runs inside, given its budget's deadline (an
        instant of `time.monotonic`)."""
        key = lock_path(path)
        with self._lock:
            if self._in_hand[key] >= self.waiters:
                raise HTTPException(503, f"busy: {self.waiters} steps of this game are "
                                         "waiting already; try again in a moment")
            self._in_hand[key] += 1
        try:
            deadline = time.monotonic() + self.wait
            while not lock_is_free(path):
                if time.monotonic() >= deadline:
                    raise HTTPException(503, f"{path.name}: busy: another writer has held it "
                                             f"for {self.wait:g} s; try again")
                await asyncio.sleep(LOOK_S)
            yield deadline
        finally:
            with self._lock:
                self._in_hand[key] -= 1
                if not self._in_hand[key]:
                    del self._in_hand[key]


async def step_turn(request: Request, name: str) -> AsyncIterator[None]:
    """A step route's dependency: its game's turn at the lock (`StepGate.turn`); what is left
    of its wait is the request's (`time_left`)."""
    path, _ = game_file(request, name)
    gate: StepGate = request.app.state.step_gate
    async with gate.turn(path) as deadline:
        request.state.step_deadline = deadline
        yield


def time_left(request: Request) -> float:
    """The seconds left of a step's wait for its game's lock (`StepGate.turn`'s budget); a
    request that came through no turn has the whole budget."""
    deadline: float | None = getattr(request.state, "step_deadline", None)
    gate: StepGate = request.app.state.step_gate
    return gate.wait if deadline is None else max(0.0, deadline - time.monotonic())


# a step route's parameter, after its seat (`web.viewing.Changer`): the seat is checked first,
# so a request that may not step never takes a place among the game's waiting steps
StepTurn = Annotated[None, Depends(step_turn)]
