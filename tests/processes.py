"""A process's children and whether a process has ended, read from /proc (Linux), for the
tests that check no worker or forked plan outlives what started it."""

from __future__ import annotations

import time
from pathlib import Path


def children(pid: int, within: float = 0.0) -> list[int]:
    """The process's children now (a zombie, ended but not reaped, counts: it is still a
    child), waiting up to `within` seconds for the first to appear."""
    deadline = time.monotonic() + within
    while True:
        found = []
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                found += [int(c) for c in (task / "children").read_text().split()]
            except FileNotFoundError:  # a thread that ended while we looked
                continue
        if found or time.monotonic() >= deadline:
            return found
        time.sleep(0.1)


def gone(pid: int, within: float) -> bool:
    """Whether the process ends (or is a zombie) within `within` seconds (a hang guard)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        status = Path(f"/proc/{pid}/status")
        if not status.exists() or "State:\tZ" in status.read_text():
            return True
        time.sleep(0.05)
    return False
