"""Stopping a request's solves when its user asks (Ctrl-C, a page's cancel), from any thread.

Each request runs under its own `CancelToken` (`cancel_scope`); the CLI edge cancels it from a
watcher thread the moment SIGINT arrives, a server when a client cancels or sends a new step.
Each CP-SAT solve runs through `solve_stoppable`, which registers its solver with the token of
its context so that `stop_search()` ends it within a few milliseconds, and a solve started
after the cancel gets no time at all. The Python search engines poll `stop_requested()`.
A token's time limit is a `planner.clock.Clock` (the one clock: its deadline an instant of
`planner.clock.now`), the request's own or a part's (`time_limited`, `grace`).
Nothing here imports ortools: the edge may import it at no cost.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import pickle
import select
import signal
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from typing import Any, Protocol, TypeVar

from planner.clock import Clock, now

Job = TypeVar("Job")
Made = TypeVar("Made")


class _Stoppable(Protocol):
    def stop_search(self) -> None: ...


class CancelToken:
    """One request's stop: `cancel()` ends the solves running under this token within a few
    milliseconds (CP-SAT returns its best solution so far, as at a time limit) and gives any
    later one no time. Each command (a CLI run, a web request) has its own: cancelling one
    never stops another. `clock` (None: no time limit) bounds the whole request: each solve
    gets at most what is left of it, so a command's stages, re-solves and why-nots share its
    one time limit (a deadline passed is a time limit, not a cancel)."""

    def __init__(self, clock: Clock | None = None, parent: CancelToken | None = None,
                 *, parent_deadline: bool = True) -> None:
        # re-entrant: the CLI's SIGINT handler runs in the main thread, maybe inside `solve`
        self._lock = threading.RLock()
        self._active: list[_Stoppable] = []
        self._cancelled = threading.Event()
        self._clock = clock
        # a part of a request (`time_limited`): cancelled with it, within its deadline too,
        # its solves registered with it as well (the CLI's watcher stops the request's)
        self._parent = parent
        # False: the parent's cancel stops this token's solves, its deadline does not
        # (`grace`: this token's own deadline is then the only one)
        self._parent_deadline = parent_deadline

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set() or (self._parent is not None and self._parent.cancelled)

    @property
    def clock(self) -> Clock | None:
        """The clock that ends this token's solves first: its own, or its parent's (None: no
        time limit)."""
        above = (None if self._parent is None or not self._parent_deadline
                 else self._parent.clock)
        return above if self._clock is None else self._clock.sooner(above)

    @property
    def deadline(self) -> float | None:
        """The clock's deadline (a `planner.clock.now()` instant; None: no time limit)."""
        clock = self.clock
        return None if clock is None else clock.deadline

    def limit(self, seconds: float) -> None:
        """The request may take `seconds` from now; an earlier deadline stays."""
        self._clock = Clock.start(seconds).sooner(self._clock)

    def time_left(self) -> float | None:
        """Seconds left before the deadline (0 when passed; None: no deadline)."""
        clock = self.clock
        return None if clock is None else clock.left()

    @property
    def expired(self) -> bool:
        left = self.time_left()
        return left is not None and left <= 0.0

    def cancel(self) -> None:
        self._cancelled.set()
        self.stop_active()

    def stop_active(self) -> None:
        """Stop the solves running now (a watcher may repeat this: a solve that was registered
        but had not yet started its search when the stop came ignores the first one)."""
        if not self.cancelled:
            return
        with self._lock:
            running = list(self._active)
        for solver in running:
            solver.stop_search()

    def _add(self, solver: _Stoppable) -> None:
        with self._lock:
            self._active.append(solver)
        if self._parent is not None:
            self._parent._add(solver)

    def _remove(self, solver: _Stoppable) -> None:
        with self._lock:
            self._active.remove(solver)
        if self._parent is not None:
            self._parent._remove(solver)


# The token of the work running in this context (a thread, an async task): set by
# `cancel_scope`, read by every solve below it, so the solvers need no extra argument and two
# requests in two threads never see each other's token.
_current: ContextVar[CancelToken | None] = ContextVar("castell_cancel_token", default=None)


@contextlib.contextmanager
def cancel_scope(token: CancelToken) -> Iterator[CancelToken]:
    """Every solve inside this block stops when `token` is cancelled."""
    reset = _current.set(token)
    try:
        yield token
    finally:
        _current.reset(reset)


def current_token() -> CancelToken | None:
    return _current.get()


def current_clock() -> Clock | None:
    """The clock of the work running here (its request's or part's; None: no time limit)."""
    token = _current.get()
    return None if token is None else token.clock


@contextlib.contextmanager
def time_limited(seconds: float) -> Iterator[CancelToken]:
    """Every solve inside this block ends within `seconds` from now (and within the request's
    own deadline, and at its cancel): one time limit for all of a command's solves, however
    many stages and re-solves it takes. A block of its own per question, so that one batch
    line's limit never bounds the next line's."""
    token = CancelToken(Clock.start(seconds), parent=_current.get())
    with cancel_scope(token):
        yield token


@contextlib.contextmanager
def grace(seconds: float) -> Iterator[CancelToken]:
    """The solves inside this block may run `seconds` from now, even past the request's own
    deadline, and stop at its cancel: for checking a plan already found (its replay through
    the referee) when the search took the whole limit. A clock must not turn a plan in hand
    into no plan; the limit is then overrun by at most `seconds`."""
    token = CancelToken(Clock.start(seconds), parent=_current.get(), parent_deadline=False)
    with cancel_scope(token):
        yield token


def cancel_requested() -> bool:
    """The work running here was cancelled (a Ctrl-C, a client's cancel; not a deadline)."""
    token = _current.get()
    return token is not None and token.cancelled


def stop_requested() -> bool:
    """The work running here was cancelled, or its request's deadline passed (the Python
    search engines poll this)."""
    token = _current.get()
    return token is not None and (token.cancelled or token.expired)


def time_left(limit: float) -> float:
    """`limit` seconds, or less: what is left of this context's deadline (0 when cancelled)."""
    token = _current.get()
    if token is None:
        return limit
    if token.cancelled:
        return 0.0
    left = token.time_left()
    return limit if left is None else min(limit, left)


def solve_stoppable(solver: Any, model: Any, *, stoppable: bool = True) -> Any:
    """`solver.solve(model)`, ended early when this context's token is cancelled, and within
    what is left of its deadline; CP-SAT's own SIGINT handler is turned off (it would swallow
    the signal, so the edge could not tell a stop from a time limit). `stoppable=False` for a
    solve that must finish (a re-solve with every variable fixed, to read back a solution
    already found)."""
    solver.parameters.catch_sigint_signal = False
    token = _current.get()
    if not stoppable or token is None:
        return solver.solve(model)
    left = time_left(solver.parameters.max_time_in_seconds)
    if left < solver.parameters.max_time_in_seconds:
        solver.parameters.max_time_in_seconds = left
    token._add(solver)
    try:
        return solver.solve(model)
    finally:
        token._remove(solver)


def in_threads(function: Callable[[Job], Made], jobs: Sequence[Job], threads: int
               ) -> list[Made]:
    """`function` over `jobs` in up to `threads` threads of this process, the results in the
    jobs' order; each job runs in a copy of this context, so its solves stop with this
    request's token and within its deadline. For solves that release the GIL (CP-SAT's search
    does): independent jobs, each deterministic, give the same results as one after the
    other. A job's exception is raised here, after the others have ended (a cancel or the
    clock ends them within their own limits)."""
    if threads <= 1 or len(jobs) <= 1:
        return [function(job) for job in jobs]
    with ThreadPoolExecutor(min(threads, len(jobs)), thread_name_prefix="plan") as pool:
        futures = [pool.submit(contextvars.copy_context().run, function, job) for job in jobs]
        return [future.result() for future in futures]


# how often a waiting parent looks at its request's cancel (a poll, not a tuning: no result
# depends on it)
_POLL_S = 0.05


class ForkedJobFailed(RuntimeError):
    """A job of `in_processes` raised in its forked child (a bug: the message is the child's
    exception, as the same job in a thread would have raised it)."""


def in_processes(function: Callable[[Job], Made], jobs: Sequence[Job], processes: int,
                 stopped: Made, grace_s: float) -> list[Made]:
    """`function` over `jobs`, the first in this process and up to `processes - 1` others
    each in a child forked from it (the rest here too), the results in the jobs' order. The
    jobs' Python (model building, the referee, the bots) runs side by side on the cores,
    where threads take turns under the GIL; each job is deterministic on its own, so the
    results are `in_threads`' and one after the other's. A child is this process's copy at
    the fork: it works to the request's deadline (the clock is the machine's) and sends its
    result back pickled. A cancel of the request, or its deadline passed by `grace_s` seconds,
    ends a child at once (SIGKILL: it holds nothing to clean up) and its job's result is
    `stopped` (a cancel or the clock decides nothing else); with no request (no token) the
    parent waits for the child, as a thread's job would run to its end. Ctrl-C reaches the
    children too: they ignore it, the parent stops them. Where `os.fork` is missing, or off
    the main thread (a child sets its signals, which only the main thread may), `in_threads`."""
    if (processes <= 1 or len(jobs) <= 1 or not hasattr(os, "fork")
            or threading.current_thread() is not threading.main_thread()):
        return in_threads(function, jobs, processes)
    forked = [_fork(function, job) for job in jobs[1:processes]]
    try:
        mine = [function(job) for job in (jobs[0], *jobs[processes:])]
    except BaseException:
        for pid, read in forked:
            _end(pid, read, kill=True)
        raise
    theirs = [_collect(pid, read, stopped, grace_s) for pid, read in forked]
    return [mine[0], *theirs, *mine[1:]]


def _fork(function: Callable[[Job], Made], job: Job) -> tuple[int, int]:
    """A child that runs `function(job)` and writes its pickled outcome to a pipe: (its pid,
    the pipe's reading end)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid:
        os.close(write)
        return pid, read
    try:  # the child: never returns, never runs the parent's clean-up
        os.close(read)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops it
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        try:
            outcome: tuple[bool, Any] = (True, function(job))
        except BaseException as error:  # sent to the parent, raised there
            outcome = (False, f"{type(error).__name__}: {error}")
        with os.fdopen(write, "wb") as pipe:
            pipe.write(pickle.dumps(outcome))
    finally:
        os._exit(0)


def _collect(pid: int, read: int, stopped: Made, grace_s: float) -> Made:
    """The forked job's result, or `stopped` when the request is cancelled (or its deadline
    passed by `grace_s` seconds) before it comes."""
    token = _current.get()
    chunks: list[bytes] = []
    try:
        while True:
            ready, _, _ = select.select([read], [], [], _POLL_S)
            if ready:
                chunk = os.read(read, 1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
            elif token is not None and (token.cancelled or _overdue(token, grace_s)):
                _end(pid, read, kill=True)
                return stopped
    except BaseException:  # Ctrl-C while waiting: the child must not outlive the command
        _end(pid, read, kill=True)
        raise
    _end(pid, read, kill=False)
    if not chunks:
        raise ForkedJobFailed("a planning process ended without its result")
    done, value = pickle.loads(b"".join(chunks))
    if not done:
        raise ForkedJobFailed(f"a planning process failed: {value}")
    result: Made = value
    return result


def _overdue(token: CancelToken, grace_s: float) -> bool:
    """The request's deadline passed more than `grace_s` seconds ago."""
    deadline = token.deadline
    return deadline is not None and now() - deadline > grace_s


def _end(pid: int, read: int, kill: bool) -> None:
    """Close the pipe and reap the child (killed first when `kill`)."""
    if kill:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.close(read)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def in_workers(function: Callable[[Job], Made], jobs: Sequence[Job], workers: int,
               chunksize: int = 1) -> Generator[Made, None, None]:
    """`function` over `jobs` in `workers` processes, the results in the jobs' order. The
    workers ignore Ctrl-C (the parent stops them: no worker prints a traceback); on Ctrl-C or
    any failure, or when the caller closes the iterator, `terminate()` ends them at once
    (multiprocessing.Pool, not ProcessPoolExecutor: the executor's exit waits for the chunks
    running, minutes of advisor games, and its threads race with killed workers)."""
    import multiprocessing  # deferred: most commands never start a worker

    pool = multiprocessing.Pool(workers, initializer=_ignore_ctrl_c)
    try:
        yield from pool.imap(function, jobs, chunksize=chunksize)
        pool.close()
    except BaseException:  # Ctrl-C, a failure, or the caller closing the iterator
        pool.terminate()  # no worker outlives the command
        raise
    finally:
        pool.join()


def _ignore_ctrl_c() -> None:
    # Ctrl-C reaches the whole process group: the workers leave it to the parent; and the
    # parent's SIGTERM handler (the CLI's) is not theirs: terminate() ends them quietly
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
