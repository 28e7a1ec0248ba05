"""Stopping every running solve when the user asks (Ctrl-C), from any thread.

The CLI edge calls `request_stop()` from a watcher thread the moment SIGINT arrives; each CP-SAT
solve runs through `solve_stoppable`, which registers its solver so that `stop_search()` ends
it within a few milliseconds (CP-SAT then returns the best solution found so far, as at a time
limit), and a solve started after the request gets no time at all. The Python search engines
poll `stop_requested()`. Nothing here imports ortools: the edge may import it at no cost.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Generator, Sequence
from typing import Any, Protocol, TypeVar

Job = TypeVar("Job")
Made = TypeVar("Made")


class _Stoppable(Protocol):
    def stop_search(self) -> None: ...


# re-entrant: the SIGINT handler runs in the main thread, possibly while it holds the lock
_lock = threading.RLock()
_active: list[_Stoppable] = []
_requested = threading.Event()


def request_stop() -> None:
    """Stop every running solve and every later one (until `reset()`)."""
    _requested.set()
    with _lock:
        running = list(_active)
    for solver in running:
        solver.stop_search()


def stop_requested() -> bool:
    return _requested.is_set()


def reset() -> None:
    _requested.clear()


def solve_stoppable(solver: Any, model: Any, *, stoppable: bool = True) -> Any:
    """`solver.solve(model)`, ended early by `request_stop()`; CP-SAT's own SIGINT handler
    is turned off (it would swallow the signal, so the edge could not tell a stop from a
    time limit). `stoppable=False` for a solve that must finish (a re-solve with every
    variable fixed, to read back a solution already found)."""
    solver.parameters.catch_sigint_signal = False
    if not stoppable:
        return solver.solve(model)
    if _requested.is_set():
        solver.parameters.max_time_in_seconds = 0.0
    with _lock:
        _active.append(solver)
    try:
        return solver.solve(model)
    finally:
        with _lock:
            _active.remove(solver)


def stop_active() -> None:
    """Stop the solves running now (the watcher repeats this: a solve that was registered but
    had not yet started its search when the request came ignores the first stop)."""
    if not _requested.is_set():
        return
    with _lock:
        running = list(_active)
    for solver in running:
        solver.stop_search()


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
    # Ctrl-C reaches the whole process group: the workers leave it to the parent
    signal.signal(signal.SIGINT, signal.SIG_IGN)
