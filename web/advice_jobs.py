"""Advice in the background: one job per game at a time, each under its own cancel token (a
new step on the game, a new question or the cancel button stops it; nothing else)."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from models.errors import CastellError
from service.cancel import CancelToken, cancel_scope

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
    """The advice job of each game (by name)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: dict[str, Job] = {}

    def start(self, name: str, revision: int, work: Callable[[], Any]) -> Job:
        """Run `work` in a thread under a new token, cancelling the game's previous job."""
        job = Job(revision)
        with self._lock:
            old = self._jobs.get(name)
            self._jobs[name] = job
        if old is not None:
            old.token.cancel()

        def run() -> None:
            try:
                with cancel_scope(job.token):
                    job.result = work()
            except CastellError as error:
                job.error = str(error)
            finally:
                job.done.set()

        threading.Thread(target=run, name=f"advice-{name}-{job.id}", daemon=True).start()
        return job

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
