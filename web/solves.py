"""The one pool every solve a request starts runs in (the advice panel's, a best tower, a best
arrangement, the towers of a festival a step holds): `slots` threads and a queue of `queue`
more, per server; one beyond that is refused at once (503, "busy") instead of being one more
thread. Issue 53: advice ran a thread per game, and a guest asking advice on 20 games at once
grew the server from 68 to 511 MB and made a step on another game take 3.3 s.

Each solve runs under its own cancel token (`planner.stopping`), which the pool keeps while it
runs: `stop()`, when the server stops, cancels every one of them (a CP-SAT search ends within
milliseconds, `stop_search`), drops the queued ones and waits for its threads, so that no solve
is still inside a solver when the process exits (a C++ thread killed there aborted the whole
process: "terminate called without an active exception", exit 134).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor, wait
from typing import Any, TypeVar

from fastapi import HTTPException

from service.cancel import CancelToken, cancel_scope

T = TypeVar("T")
# how long a stopping server waits for its cancelled solves (each ends within milliseconds of
# its cancel; this bounds a stop, `castell serve`'s 2 s, if one did not)
STOP_WAIT_S = 1.0
BUSY = "busy: the server is answering other questions; try again in a moment"


class SolvePool:
    """At most `slots` solves at once, `queue` more waiting their turn; beyond: 503."""

    def __init__(self, slots: int = 2, queue: int = 4) -> None:
        self._executor = ThreadPoolExecutor(max(1, slots), thread_name_prefix="solve")
        self._limit = max(1, slots) + max(0, queue)
        self._lock = threading.Lock()
        self._tokens: dict[int, CancelToken] = {}  # the solves taken, running or queued
        self._futures: set[Future[Any]] = set()
        # the steps in hand, in their requests' threads (`watched`): not bounded here (a step
        # is the players'; the solves it takes are), but cancelled and waited for at the stop
        self._watched: dict[int, CancelToken] = {}
        self._idle = threading.Condition(self._lock)
        self._stopped = False

    @property
    def taken(self) -> int:
        """Solves running or queued now."""
        with self._lock:
            return len(self._tokens)

    def submit(self, work: Callable[[], T], token: CancelToken | None = None) -> Future[T]:
        """Run `work` under `token` (a new one by default) in the pool; 503 when it is full,
        or the server is stopping."""
        token = CancelToken() if token is None else token
        with self._lock:
            if self._stopped or len(self._tokens) >= self._limit:
                raise HTTPException(503, BUSY)
            self._tokens[id(token)] = token

        def run() -> T:
            try:
                with cancel_scope(token):
                    return work()
            finally:
                self._release(token)

        try:
            future = self._executor.submit(run)
        except RuntimeError:  # shut down between the check and here: the server is stopping
            self._release(token)
            raise HTTPException(503, BUSY) from None
        with self._lock:
            self._futures.add(future)
        future.add_done_callback(lambda done: self._done(done, token))
        return future

    def run(self, work: Callable[[], T]) -> T:
        """`work`'s answer, solved in the pool (a request that waits for its answer)."""
        try:
            return self.submit(work).result()
        except CancelledError:  # dropped from the queue: the server is stopping
            raise HTTPException(503, BUSY) from None

    @contextlib.contextmanager
    def watched(self) -> Iterator[CancelToken]:
        """A step in hand, in the request's own thread: it runs under a token of its own that
        the server's stop cancels, and the stop waits for it (503 once the server is stopping);
        the solves it takes go through `run`, each a place in the pool."""
        token = CancelToken()
        with self._lock:
            if self._stopped:
                raise HTTPException(503, BUSY)
            self._watched[id(token)] = token
        try:
            with cancel_scope(token):
                yield token
        finally:
            with self._lock:
                del self._watched[id(token)]
                self._idle.notify_all()

    def _release(self, token: CancelToken) -> None:
        with self._lock:
            self._tokens.pop(id(token), None)

    def _done(self, future: Future[T], token: CancelToken) -> None:
        # a queued solve dropped by `stop()` never ran `run`: its place is given back here
        with self._lock:
            self._tokens.pop(id(token), None)
            self._futures.discard(future)

    def cancel_all(self) -> None:
        """Stop every solve taken (running ones end with their best so far) and take no new
        one: the first thing a stopping server does, from its signal handler."""
        with self._lock:
            self._stopped = True
            tokens = [*self._tokens.values(), *self._watched.values()]
        for token in tokens:
            token.cancel()

    def stop(self, timeout: float | None = STOP_WAIT_S) -> bool:
        """`cancel_all`, drop the queued solves, and wait for the running ones to end (at
        most `timeout` seconds: a cancelled solve ends within milliseconds; False: one did
        not)."""
        self.cancel_all()
        with self._lock:
            futures = list(self._futures)
        for future in futures:
            future.cancel()  # the queued ones: they never start
        started = time.monotonic()
        _, running = wait(futures, timeout=timeout)
        self._executor.shutdown(wait=False, cancel_futures=True)
        left = None if timeout is None else max(0.0, timeout - (time.monotonic() - started))
        with self._lock:
            self._idle.wait_for(lambda: not self._watched, timeout=left)
            return not running and not self._watched
