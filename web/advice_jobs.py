"""Advice in the background: one job per game at a time, each under its own cancel token (a
new step on the game, a new question or the cancel button stops it; so does the server's stop),
solved in the server's one pool of solves (`web.solves`: beyond its slots and queue, 503). The
jobs kept are bounded (`kept`, the most recently asked): an answer is not kept forever by a
server that served many games."""

from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from models.errors import CastellError
from service.cancel import CancelToken
from web.solves import SolvePool

_ids = itertools.count(1)


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
    """The advice job of each game (by name), at most `kept` of them (the games asked last;
    a running one is never dropped)."""

    def __init__(self, pool: SolvePool, kept: int = 32) -> None:
        self._lock = threading.Lock()
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._pool = pool
        self._kept = max(1, kept)

    def start(self, name: str, revision: int, work: Callable[[], Any]) -> Job:
        """Run `work` in the pool under a new token, cancelling the game's previous job (503
        when the pool is full: the previous job is then left as it was)."""
        job = Job(revision)

        def run() -> None:
            try:
                job.result = work()
            except CastellError as error:
                job.error = str(error)

        future: Future[None] = self._pool.submit(run, job.token)
        # done also when it never ran (dropped from the queue at the server's stop)
        future.add_done_callback(lambda _: job.done.set())
        with self._lock:
            old = self._jobs.pop(name, None)
            self._jobs[name] = job
            self._forget()
        if old is not None:
            old.token.cancel()
        return job

    def _forget(self) -> None:
        """Drop the oldest finished jobs beyond `kept` (their answers with them)."""
        for name in list(self._jobs):
            if len(self._jobs) <= self._kept:
                return
            if self._jobs[name].done.is_set():
                del self._jobs[name]

    def get(self, name: str) -> Job | None:
        with self._lock:
            return self._jobs.get(name)

    def follow(self, name: str, job_id: int, index: int, before: int, after: int) -> bool:
        """Step `index` of job `job_id`'s plan was played at revision `before`, making
        `after`: the plan goes on from the next step (False: no such plan any more)."""
        with self._lock:
            job = self._jobs.get(name)
            if job is None or job.id != job_id or not job.done.is_set() or \
                    job.revision != before or job.followed != index:
                return False
            job.followed, job.revision = index + 1, after
            return True

    def cancel(self, name: str) -> None:
        with self._lock:
            job = self._jobs.get(name)
        if job is not None:
            job.token.cancel()
