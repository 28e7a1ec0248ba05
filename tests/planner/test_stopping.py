"""planner.stopping: a stop request ends a running CP-SAT solve (from another thread, as the
CLI's SIGINT watcher does) and every solve started after it; reset() clears it."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator

import pytest
from ortools.sat.python import cp_model

from planner import stopping


@pytest.fixture(autouse=True)
def clean() -> Iterator[None]:
    stopping.reset()
    yield
    stopping.reset()


def hard_model() -> cp_model.CpModel:
    """A Golomb ruler of 12 marks: minutes to prove, a solution at once."""
    model = cp_model.CpModel()
    marks = [model.new_int_var(0, 200, f"m{i}") for i in range(12)]
    model.add(marks[0] == 0)
    for a, b in itertools.pairwise(marks):
        model.add(a < b)
    diffs = []
    for i in range(12):
        for j in range(i + 1, 12):
            d = model.new_int_var(0, 200, "")
            model.add(d == marks[j] - marks[i])
            diffs.append(d)
    model.add_all_different(diffs)
    model.minimize(marks[-1])
    return model


def solver(limit: float = 60.0) -> cp_model.CpSolver:
    s = cp_model.CpSolver()
    s.parameters.max_time_in_seconds = limit
    s.parameters.num_workers = 1
    return s


def test_a_request_stops_a_running_solve() -> None:
    threading.Timer(0.5, stopping.request_stop).start()
    started = time.perf_counter()
    code = stopping.solve_stoppable(solver(), hard_model())
    assert time.perf_counter() - started < 10  # against a 60 s limit
    assert code in (cp_model.FEASIBLE, cp_model.UNKNOWN)
    assert stopping.stop_requested()


def test_a_solve_after_the_request_gets_no_time() -> None:
    stopping.request_stop()
    s = solver()
    code = stopping.solve_stoppable(s, hard_model())
    assert code in (cp_model.FEASIBLE, cp_model.UNKNOWN)
    assert s.parameters.max_time_in_seconds == 0.0


def test_a_solve_that_must_finish_is_not_stopped() -> None:
    stopping.request_stop()
    model = cp_model.CpModel()
    x = model.new_int_var(0, 5, "x")
    model.maximize(x)
    s = solver()
    assert stopping.solve_stoppable(s, model, stoppable=False) == cp_model.OPTIMAL
    assert s.value(x) == 5


def test_reset_clears_the_request() -> None:
    stopping.request_stop()
    stopping.reset()
    assert not stopping.stop_requested()
