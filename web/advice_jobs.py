"""Advice in the background, a seat's own: one job per (game, seat) at a time, each under its own
cancel token (a step on the game, the seat's next question or its cancel button stops it; so
does the server's stop), solved in the server's one pool of solves (`web.solves`). Only the
seat that asked sees its job (`owner_of`: a player's seat, or the scorekeeper's role): a rival's
page, a spectator's and the live fragment never carry it (issue 52: the whole plan and forecast
were drawn on every screen, and any page could cancel another seat's advice).

The server bounds them: one job per seat (its next question replaces it), at most `running`
jobs answering or waiting server-wide (below the pool's places, so that a best tower still finds
one), and beyond that 503 with one line; the jobs kept are bounded too (`kept`, the most recently
asked): an answer is not kept forever by a server that served many games."""

from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from fastapi import HTTPException

from models.errors import CastellError
from service.cancel import CancelToken
from web.seat_store import KEEPER, Seat, Viewer
from web.solves import BUSY, SolvePool

_ids = itertools.count(1)
Key = tuple[str, Seat]  # a game's name, and the seat that asked


def owner_of(me: Viewer) -> Seat | None:
    """Whose advice a page asks for and sees: its seat (a player's, or the scorekeeper's role);
    a page without a seat on an open table keeps the score, so the scorekeeper's; None: a page
    that watches (it has no advice)."""
    if me.held is not None:
        return me.held
    return KEEPER if me.scorekeeper else None


@dataclass
class Job:
    """One question being answered: `result` once done, `error` the message when refused."""

    revision: int
    token: CancelToken = field(default_factory=CancelToken)
    id: int = field(default_factory=lambda: next(_ids))
    started: float = field(default_factory=time.monotonic)
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: str | None = None
    # the plan's steps played through its panel, one tap each; `revision` follows them (a
    # step from anywhere else leaves the plan behind a revision: the panel says so)
    followed: int = 0

    @property
    def cancelled(self) -> bool:
        return self.token.cancelled

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started


class Jobs:
    """The advice job of each seat of each game, at most `running` of them unanswered at once,
    at most `kept` kept (the ones asked last; a running one is never dropped)."""

    def __init__(self, pool: SolvePool, kept: int = 32, running: int = 4) -> None:
        self._lock = threading.Lock()
        self._jobs: OrderedDict[Key, Job] = OrderedDict()
        self._pool = pool
        self._kept = max(1, kept)
        self._running = max(1, running)

    def start(self, name: str, seat: Seat, revision: int, work: Callable[[], Any]) -> Job:
        """Run `work` in the pool under a new token for `seat` of the game `name`, cancelling
        that seat's previous job (503 when the server answers `running` other questions, or the
        pool is full: the previous job is then left as it was)."""
        job = Job(revision)

        def run() -> None:
            try:
                job.result = work()
            except CastellError as error:
                job.error = str(error)

        with self._lock:  # the count and the start as one: two questions at once take two
            answering = sum(1 for key, other in self._jobs.items()
                            if key != (name, seat) and not other.done.is_set())
            if answering >= self._running:
                raise HTTPException(503, BUSY)
            future: Future[None] = self._pool.submit(run, job.token)
            old = self._jobs.pop((name, seat), None)
            self._jobs[(name, seat)] = job
            self._forget()
        # done also when it never ran (dropped from the queue at the server's stop)
        future.add_done_callback(lambda _: job.done.set())
        if old is not None:
            old.token.cancel()
        return job

    def _forget(self) -> None:
        """Drop the oldest finished jobs beyond `kept` (their answers with them)."""
        for key in list(self._jobs):
            if len(self._jobs) <= self._kept:
                return
            if self._jobs[key].done.is_set():
                del self._jobs[key]

    def get(self, name: str, seat: Seat | None) -> Job | None:
        """`seat`'s job on the game `name` (None: a page that watches has none)."""
        if seat is None:
            return None
        with self._lock:
            return self._jobs.get((name, seat))

    def whose(self, name: str, job_id: int) -> Seat | None:
        """The seat whose job on the game `name` is `job_id` (None: no such job now)."""
        with self._lock:
            return next((seat for (game, seat), job in self._jobs.items()
                         if game == name and job.id == job_id), None)

    def follow(self, name: str, seat: Seat | None, job_id: int, index: int, before: int,
               after: int) -> bool:
        """Step `index` of `seat`'s job `job_id` was played at revision `before`, making
        `after`: the plan goes on from the next step (False: no such plan any more)."""
        with self._lock:
            job = None if seat is None else self._jobs.get((name, seat))
            if job is None or job.id != job_id or not job.done.is_set() or \
                    job.revision != before or job.followed != index:
                return False
            job.followed, job.revision = index + 1, after
            return True

    def cancel(self, name: str, seat: Seat | None) -> None:
        """Stop `seat`'s job on the game `name` (its best so far is kept)."""
        job = self.get(name, seat)
        if job is not None:
            job.token.cancel()

    def cancel_game(self, name: str, seat: Seat | None = None) -> None:
        """A step moved the game on: every job of the game `name` is stale, and stops (all but
        `seat`'s, whose plan the step followed)."""
        with self._lock:
            jobs = [job for (game, owner), job in self._jobs.items()
                    if game == name and owner != seat]
        for job in jobs:
            job.token.cancel()
