"""The local engine's stop (`service.batches.engines`): a Ctrl-C or SIGTERM ends a pool's
workers at once, the chunks they run unfinished, through the pool's public API only. No
verdict depends on the machine's speed: the chunk runs until the test has seen it begin
(HANG: a hang guard only)."""

from __future__ import annotations

import multiprocessing
import os
import select
import signal
import threading
import time
from concurrent.futures import wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from service.batches.engines import _start_masked, open_engine
from tests.cli.test_framework import faults

HANG = 60.0
ENGINES = Path(__file__).resolve().parents[2] / "service" / "batches" / "engines.py"


def _hang(marker: str) -> None:
    Path(marker).touch()
    time.sleep(HANG)  # ended by the stop, never waited for


def test_a_stopped_pool_ends_its_workers_at_once(tmp_path: Path) -> None:
    marker = tmp_path / "running"
    before = set(multiprocessing.active_children())
    with open_engine(2) as engine:
        running = engine.executor.submit(_hang, str(marker))
        deadline = time.monotonic() + HANG
        while not marker.exists():
            assert time.monotonic() < deadline, "the chunk never began"
            time.sleep(0.01)
        workers = set(multiprocessing.active_children()) - before
        assert workers  # the pool's, started for its first chunk
        engine.stop()
        for worker in workers:
            deadline = time.monotonic() + HANG
            while not _ended(worker.pid):
                assert time.monotonic() < deadline, "a worker outlived the stop"
                time.sleep(0.01)
    # the pool's own thread marks the chunk ended once it sees its worker gone, a moment
    # after the stop returns (CI, both cores busy, once found it still running): wait for it
    # (a hang guard only); the chunk ended unfinished, its pool broken
    wait([running], timeout=HANG)
    assert running.done()
    assert isinstance(running.exception(), BrokenProcessPool)


def _ended(pid: int | None) -> bool:
    """Whether the process `pid` has ended: gone, or dead and not yet reaped. Not by its
    `exitcode`: under xdist an earlier test's child watcher may reap it first, and then its
    `join` returns at once with no exit code (CI saw "a worker outlived the stop" so)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def test_the_engines_read_no_private_attribute_of_the_pool() -> None:
    """Regression (issue 53's residue): `_kill` read `ProcessPoolExecutor._processes`; the
    pool's workers are now the ones its own `mp_context` started, recorded as they start."""
    assert not faults(ENGINES.read_text(encoding="utf-8"))


class _Stopped(Exception):
    """The test's own Ctrl-C handler's (pytest's workers may ignore SIGINT)."""


def _stopped(number: int, frame: object) -> None:
    raise _Stopped


def test_a_stop_while_a_worker_starts_is_raised_once_it_has_started() -> None:
    # Regression: blocked in this thread, a Ctrl-C is taken by another thread, and Python
    # runs its handler in this one at once: raised between the fork and the start's end, it
    # left a worker no stop could end. The handler now runs when the start is done.
    reader, writer = os.pipe()
    os.set_blocking(writer, False)
    wakeup = signal.set_wakeup_fd(writer)  # written to the moment the signal arrives
    handler = signal.signal(signal.SIGINT, _stopped)
    ends = threading.Event()
    other = threading.Thread(target=ends.wait, args=(HANG,), daemon=True)  # it takes it
    other.start()
    started: list[bool] = []

    def start() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        assert select.select([reader], [], [], HANG)[0], "the signal never arrived"
        started.append(True)  # the handler would have raised before this line

    try:
        with pytest.raises(_Stopped):
            _start_masked(start)
    finally:
        signal.signal(signal.SIGINT, handler)
        signal.set_wakeup_fd(wakeup)
        ends.set()
        os.close(reader)
        os.close(writer)
    assert started == [True]
