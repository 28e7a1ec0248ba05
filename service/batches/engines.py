"""Where a batch's chunks run: this process (`--workers 1`), a local process pool
(`--workers N`), or a Dask cluster (`--dask tcp://host:port`, or `--dask local:N` for a
`LocalCluster` of N worker processes started here). Each is a `concurrent.futures.Executor`,
so the runner is one loop whatever the engine; Dask is an optional extra, imported only when
asked for.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any

from models.errors import SpecError

INSTALL_DASK = ("Dask is an optional extra: pip install -e \".[dask]\" "
                "(or pip install \"dask[distributed]\")")
MAX_LOCAL_WORKERS = 256


@dataclass
class Engine:
    """An executor, how many chunks to keep in flight on it, and how to stop it at once."""

    executor: Executor
    slots: int  # chunks in flight: enough to keep every worker busy, few to redo on a stop
    name: str
    stop: Callable[[], None] = field(default=lambda: None)
    # a local pool whose worker died is broken for good: `renew` replaces it, and the runner
    # submits its chunks again (Dask retries a dead worker's chunks itself)
    broken: tuple[type[BaseException], ...] = ()
    renew: Callable[[], None] = field(default=lambda: None)


class InProcess(Executor):
    """Runs each call at once in this process (one worker: no pickling, no start-up)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as error:  # a KeyboardInterrupt is the caller's, not the chunk's
            future.set_exception(error)
        return future


@contextlib.contextmanager
def open_engine(workers: int = 1, dask: str | None = None) -> Iterator[Engine]:
    """The engine for `--workers N` or `--dask ADDRESS` (ADDRESS wins), closed at the end;
    on a failure or Ctrl-C its workers are stopped at once, not waited for."""
    if dask is not None:
        with _dask(dask) as engine:
            yield engine
        return
    if workers == 1:
        yield Engine(InProcess(), 1, "this process")
        return
    pool, started = _pool(workers)
    engine = Engine(pool, 2 * workers, f"{workers} local processes",
                    broken=(BrokenProcessPool,))

    def stop() -> None:
        _kill(engine.executor, started)

    def renew() -> None:
        nonlocal started
        stop()
        engine.executor, started = _pool(workers)

    engine.stop, engine.renew = stop, renew
    try:
        yield engine
    except BaseException:
        engine.stop()
        raise
    finally:
        engine.executor.shutdown(wait=True, cancel_futures=True)


class _Recording(BaseContext):
    """The platform's own way to start processes (its default start method), keeping each
    process it starts: a pool given it as its `mp_context` starts its workers through it, so
    they can be ended at once without reading the pool's private attributes."""

    def __init__(self) -> None:
        self._made = multiprocessing.get_context()
        self._name = self._made.get_start_method()
        self.started: list[BaseProcess] = []

    # named as a context's API names it (`multiprocessing.get_context().Process`)
    def Process(self, *args: Any, **kwargs: Any) -> BaseProcess:
        process: BaseProcess = self._made.Process(*args, **kwargs)
        self.started.append(process)
        process.start = partial(_start_masked, process.start)  # type: ignore[method-assign]
        return process


STOPS = {signal.SIGINT, signal.SIGTERM}


def _start_masked(start: Callable[[], None]) -> None:
    """Start a worker with Ctrl-C and SIGTERM held back until its initializer has set its own
    handlers (`_ignore_ctrl_c`): forked with the parent's handlers, a worker that a Ctrl-C
    reached before its initializer ran raised in it ("Exception in initializer", with both
    cores busy) or, for SIGTERM, outlived the stop. The parent's held signals arrive as soon
    as the worker is started."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        with _handlers_deferred():
            start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


@contextlib.contextmanager
def _handlers_deferred() -> Iterator[None]:
    """The parent's own handlers of Ctrl-C and SIGTERM run after the block, not inside it.
    Blocking the signals holds them off this thread only: another thread of the process
    takes one, and Python then runs its handler in this thread at once. Raised between the
    fork and the start's end, its KeyboardInterrupt left a forked worker its process object
    never learnt the pid of: the stop could not end it, and it outlived the command, waiting
    for work (with both cores busy, a Castle Combo tournament's Ctrl-C test)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread runs handlers
        return
    arrived: list[int] = []
    previous = {stop: signal.signal(stop, lambda number, _: arrived.append(number))
                for stop in STOPS}
    try:
        yield
    finally:
        for stop, handler in previous.items():
            if handler is not None:  # None: not set from Python, nothing to put back
                signal.signal(stop, handler)
        for number in arrived:  # as they would have run, now that the worker is known
            handler = previous[signal.Signals(number)]
            if callable(handler):
                handler(number, None)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(number)


def _pool(workers: int) -> tuple[ProcessPoolExecutor, list[BaseProcess]]:
    """A pool of `workers` processes, and the processes it starts (filled as it starts them)."""
    context = _Recording()
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_ctrl_c)
    return pool, context.started


KILL_AFTER_S = 0.5  # how long a terminated worker has to end before SIGKILL


def _kill(pool: Executor, workers: list[BaseProcess]) -> None:
    """End a pool's `workers` now (the executor's own shutdown waits for the running chunks),
    then shut it without waiting."""
    for process in list(workers):
        # ended already, closed, or not started yet
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.terminate()
    for process in list(workers):
        # a worker SIGTERM reached before its initializer set SIGTERM back to its default
        # runs the handler it was forked with and lives on (with both cores busy CI saw one
        # outlive the stop): SIGKILL, which no handler holds off
        with contextlib.suppress(OSError, ValueError, AttributeError, AssertionError):
            process.join(KILL_AFTER_S)
            if process.exitcode is None:
                process.kill()
    pool.shutdown(wait=False, cancel_futures=True)


def _ignore_ctrl_c() -> None:
    # Ctrl-C reaches the whole process group: the workers leave it to the parent, which
    # stops them (no worker prints a traceback); the parent's SIGTERM handler (the CLI's) is
    # not theirs: terminate() ends them quietly
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)  # held back since the fork


def _local_workers(address: str) -> int | None:
    """N for 'local:N', None for a scheduler address; a bad address refused."""
    if address.startswith("local:"):
        text = address.removeprefix("local:")
        if not text.isdigit() or not 1 <= int(text) <= MAX_LOCAL_WORKERS:
            raise SpecError(f"local:N takes N in 1..{MAX_LOCAL_WORKERS}, got '{address}'",
                            field="dask")
        return int(text)
    if not address.startswith(("tcp://", "tls://", "ucx://", "inproc://")):
        raise SpecError(f"a scheduler address (tcp://HOST:PORT) or local:N, not '{address}'",
                        field="dask")
    return None


@contextlib.contextmanager
def _dask(address: str) -> Iterator[Engine]:
    local = _local_workers(address)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise SpecError(INSTALL_DASK, field="dask") from None
    with contextlib.ExitStack() as stack:
        if local is not None:
            cluster = stack.enter_context(LocalCluster(
                n_workers=local, threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address=None, silence_logs=logging.ERROR))  # type: ignore[no-untyped-call]
            client = stack.enter_context(Client(cluster))  # type: ignore[no-untyped-call]
        else:
            try:
                client = stack.enter_context(
                    Client(address, timeout="10s"))  # type: ignore[no-untyped-call]
            except (OSError, TimeoutError) as error:
                raise SpecError(f"cannot reach the Dask scheduler at {address}: {error}"
                                ) from None
        threads = sum(w.get("nthreads", 1)
                      for w in client.scheduler_info()["workers"].values()) or 1
        executor = client.get_executor(pure=False)  # each chunk runs, none is cached away
        # the worker processes of a cluster started here, to end at once on a stop (a close
        # waits for the running chunks); a remote cluster's are its own: their chunks are
        # cancelled, and the one running on each worker finishes there, unused
        mine = list(client.run(os.getpid).values()) if local is not None else []

        def stop() -> None:
            executor.shutdown(wait=False)
            for pid in mine:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)

        yield Engine(executor, 2 * threads, f"Dask at {client.scheduler.address}", stop)
