"""planner.clock: one question's deadline and work in one object, read by the cancel token and
the turn planner's stages, on one time source."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest

from planner import stopping
from planner.clock import Clock, now

ROOT = Path(__file__).resolve().parents[2]


def test_a_clock_is_its_seconds_from_its_start() -> None:
    clock = Clock(seconds=5.0, started=100.0, work=2.0)
    assert clock.deadline == 105.0 and clock.work == 2.0
    past = Clock(seconds=5.0, started=now() - 10.0)
    assert past.expired and past.left() == 0.0 and past.elapsed() >= 10.0
    before = now()
    fresh = Clock.start(60.0)
    after = now()
    # bounded by instants read around it, not by how fast the next statement comes
    assert before <= fresh.started <= after and fresh.work is None
    assert not fresh.expired and fresh.left() <= 60.0 and fresh.deadline == fresh.started + 60.0
    assert 0.0 <= fresh.elapsed() <= now() - before


def test_until_counts_from_now_to_a_deadline() -> None:
    deadline = now() + 30.0
    clock = Clock.until(deadline, work=1.5)
    assert clock.deadline == pytest.approx(deadline) and clock.seconds <= 30.0
    assert clock.work == 1.5
    assert Clock.until(now() - 5.0).seconds == 0.0  # passed: none left, never negative


def test_the_work_is_the_clocks_own_else_what_its_seconds_buy() -> None:
    assert Clock.start(10.0).units(0.15) == pytest.approx(1.5)
    assert Clock.start(10.0, work=4.0).units(0.15) == 4.0


def test_sooner_is_the_clock_that_ends_first() -> None:
    early, late = Clock(10.0, 100.0), Clock(10.0, 200.0)
    assert early.sooner(late) is early and late.sooner(early) is early
    assert late.sooner(None) is late


def test_a_tokens_clock_is_its_own_or_its_parents_whichever_ends_first() -> None:
    assert stopping.CancelToken().clock is None and stopping.CancelToken().time_left() is None
    request = Clock.start(100.0)
    with stopping.cancel_scope(stopping.CancelToken(request)):
        assert stopping.current_clock() is request
        with stopping.time_limited(5.0) as part:
            clock = stopping.current_clock()
            assert clock is not None and clock.seconds == 5.0 and part.deadline == clock.deadline
        with stopping.time_limited(500.0):
            assert stopping.current_clock() is request  # a part never outlasts its request
        with stopping.grace(500.0):
            clock = stopping.current_clock()
            assert clock is not None and clock.seconds == 500.0  # a grace may (the replay)
    with stopping.time_limited(math.inf) as unbounded:
        assert unbounded.time_left() == math.inf


def test_limit_keeps_the_earlier_deadline() -> None:
    token = stopping.CancelToken(Clock.start(10.0))
    token.limit(100.0)
    left = token.time_left()
    assert left is not None and left <= 10.0
    token.limit(1.0)
    left = token.time_left()
    assert left is not None and left <= 1.0


# a measurement, not a deadline: a bot's wall time per move, reported by the tournaments
MEASURED = {"planner/castell/bots.py"}


def test_planner_reads_one_time_source() -> None:
    """No deadline in `planner` is an instant of another clock than `planner.clock.now`
    (time.process_time, a CPU-time measurement, is not a clock of deadlines)."""
    others = {"monotonic", "perf_counter", "time", "monotonic_ns", "perf_counter_ns"}
    found = []
    for path in sorted((ROOT / "planner").rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        if where == "planner/clock.py" or where in MEASURED:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr in others
                    and isinstance(node.value, ast.Name) and node.value.id == "time"):
                found.append(f"{where}:{node.lineno} time.{node.attr}")
    assert not found, "use planner.clock.now:\n" + "\n".join(found)
