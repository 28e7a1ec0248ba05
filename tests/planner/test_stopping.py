"""planner.stopping: cancelling a token ends a running CP-SAT solve under it (from another
thread, as the CLI's SIGINT watcher does) and every solve started after it under that token;
a solve under another token, or none, runs on."""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Iterator

import pytest
from ortools.sat.python import cp_model

from planner import stopping
from tests.processes import children


@pytest.fixture()
def token() -> Iterator[stopping.CancelToken]:
    with stopping.cancel_scope(stopping.CancelToken()) as made:
        yield made


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


# seconds: a hang guard, half the 60 s limit a solve the cancel missed would run to (how fast
# a cancel lands is measured in benchmarks, never here: the verdict is not the machine's speed)
HANG = 30.0


def test_a_cancel_stops_a_running_solve(token: stopping.CancelToken) -> None:
    threading.Timer(0.5, token.cancel).start()
    started = time.monotonic()
    code = stopping.solve_stoppable(solver(), hard_model())
    assert time.monotonic() - started < HANG  # against a 60 s limit
    assert code in (cp_model.FEASIBLE, cp_model.UNKNOWN)
    assert stopping.stop_requested()


def test_a_solve_after_the_cancel_gets_no_time(token: stopping.CancelToken) -> None:
    token.cancel()
    s = solver()
    code = stopping.solve_stoppable(s, hard_model())
    assert code in (cp_model.FEASIBLE, cp_model.UNKNOWN)
    assert s.parameters.max_time_in_seconds == 0.0


def test_a_solve_that_must_finish_is_not_stopped(token: stopping.CancelToken) -> None:
    token.cancel()
    model = cp_model.CpModel()
    x = model.new_int_var(0, 5, "x")
    model.maximize(x)
    s = solver()
    assert stopping.solve_stoppable(s, model, stoppable=False) == cp_model.OPTIMAL
    assert s.value(x) == 5


def test_cancelling_one_token_leaves_another_requests_solve_alone() -> None:
    """Two requests in two threads, each under its own token: cancelling the first stops only
    its solve; the second runs to its own (short) limit."""
    first, second = stopping.CancelToken(), stopping.CancelToken()
    codes: dict[str, int] = {}
    times: dict[str, float] = {}

    def run(name: str, token: stopping.CancelToken, limit: float) -> None:
        with stopping.cancel_scope(token):
            began = time.monotonic()
            codes[name] = stopping.solve_stoppable(solver(limit), hard_model())
            times[name] = time.monotonic() - began
            assert stopping.stop_requested() == token.cancelled

    threads = [threading.Thread(target=run, args=("first", first, 60.0)),
               threading.Thread(target=run, args=("second", second, 2.0))]
    for thread in threads:
        thread.start()
    threading.Timer(0.3, first.cancel).start()
    for thread in threads:
        thread.join()
    assert first.cancelled and not second.cancelled
    assert times["first"] < HANG  # against its 60 s limit
    # it used its own (wall-clock) limit, which no machine shortens: the cancel missed it
    assert times["second"] >= 1.5


def test_no_token_no_stop() -> None:
    assert stopping.current_token() is None
    assert not stopping.stop_requested()


def test_a_grace_runs_past_the_deadline_for_its_own_seconds_only() -> None:
    with stopping.time_limited(0.0):
        assert stopping.stop_requested() and stopping.time_left(5.0) == 0.0
        with stopping.grace(2.0):
            assert not stopping.stop_requested()
            assert 1.0 < stopping.time_left(5.0) <= 2.0  # its own seconds, not the 5 asked
        assert stopping.stop_requested()  # the deadline is the request's again after it
    with stopping.time_limited(60.0), stopping.grace(0.0):
        assert stopping.stop_requested()  # a grace is a deadline of its own too


def test_a_cancel_stops_the_grace_too(token: stopping.CancelToken) -> None:
    with stopping.grace(60.0):
        assert not stopping.cancel_requested()
        token.cancel()
        assert stopping.cancel_requested() and stopping.stop_requested()
        s = solver()
        assert s.status_name(stopping.solve_stoppable(s, hard_model())) == "UNKNOWN"


def test_a_deadline_is_not_a_cancel() -> None:
    with stopping.time_limited(0.0):
        assert stopping.stop_requested() and not stopping.cancel_requested()


def test_jobs_in_threads_keep_their_order_and_the_request_s_token(
        token: stopping.CancelToken) -> None:
    seen: list[tuple[int, bool, str]] = []

    def job(n: int) -> int:
        seen.append((n, stopping.current_token() is token, threading.current_thread().name))
        return n * n

    assert stopping.in_threads(job, [3, 1, 2], threads=2) == [9, 1, 4]
    assert all(same for _, same, _ in seen)  # each job runs under the request's token
    assert any(name.startswith("plan") for _, _, name in seen)  # not in this thread
    seen.clear()
    assert stopping.in_threads(job, [3, 1], threads=1) == [9, 1]
    assert {name for _, _, name in seen} == {threading.current_thread().name}


def test_a_cancel_stops_every_thread_s_solve_and_a_job_s_failure_is_raised(
        token: stopping.CancelToken) -> None:
    def solve(n: int) -> str:
        s = solver()
        return s.status_name(stopping.solve_stoppable(s, hard_model()))

    threading.Timer(0.5, token.cancel).start()
    started = time.monotonic()
    stopped = stopping.in_threads(solve, [1, 2], threads=2)
    assert len(stopped) == 2 and set(stopped) <= {"FEASIBLE", "UNKNOWN"}
    assert time.monotonic() - started < HANG  # both stopped, against a 60 s limit

    def fail(n: int) -> int:
        if n == 2:
            raise LookupError("job 2")
        return n

    with pytest.raises(LookupError, match="job 2"):
        stopping.in_threads(fail, [1, 2, 3], threads=2)


def test_jobs_in_processes_give_what_threads_give_each_job_but_the_first_elsewhere(
        token: stopping.CancelToken) -> None:

    def job(n: int) -> tuple[int, int, bool]:
        return n * n, os.getpid(), stopping.current_token() is not None

    before = set(children(os.getpid()))
    done = stopping.in_processes(job, [3, 1, 2], processes=2, stopped=None, grace_s=HANG)
    assert [d[0] for d in done] == [9, 1, 4]  # in the jobs' order
    assert done[0][1] == done[2][1] == os.getpid() != done[1][1]  # job 1 in a child
    assert all(d[2] for d in done)  # under the request's token (its copy, in the child)
    assert set(children(os.getpid())) == before  # the child reaped
    alone = stopping.in_processes(job, [5], processes=2, stopped=None, grace_s=HANG)
    assert alone[0][1] == os.getpid()
    # off the main thread (a server's request), no fork: threads of this process
    off: list[list[tuple[int, int, bool]]] = []
    worker = threading.Thread(target=lambda: off.append(
        stopping.in_processes(job, [3, 1], processes=2, stopped=None, grace_s=HANG)))
    worker.start()
    worker.join(HANG)
    assert [d[1] for d in off[0]] == [os.getpid(), os.getpid()]


def test_a_cancel_ends_a_forked_job_at_once_and_a_child_s_failure_is_raised(
        token: stopping.CancelToken) -> None:
    def solve(n: int) -> str:
        s = solver()
        return s.status_name(stopping.solve_stoppable(s, hard_model()))

    before = set(children(os.getpid()))
    threading.Timer(0.5, token.cancel).start()
    started = time.monotonic()
    done = stopping.in_processes(solve, [1, 2], processes=2, stopped="ended", grace_s=HANG)
    assert time.monotonic() - started < HANG  # against a 60 s limit
    assert done[0] in ("FEASIBLE", "UNKNOWN") and done[1] == "ended"  # the child killed
    assert set(children(os.getpid())) == before

    def fail(n: int) -> int:
        if n == 2:
            raise LookupError("job 2")
        return n

    with (stopping.cancel_scope(stopping.CancelToken()),
          pytest.raises(stopping.ForkedJobFailed, match="LookupError: job 2")):
        stopping.in_processes(fail, [1, 2], processes=2, stopped=None, grace_s=HANG)
    assert set(children(os.getpid())) == before


def test_a_forked_job_past_its_request_s_deadline_by_the_grace_is_ended() -> None:
    """A child that does not stop at the request's deadline (here: it sleeps) is killed once
    the deadline has passed by the grace, its result `stopped`; none is left."""
    from planner.clock import Clock

    def job(n: int) -> int:
        if n == 2:
            time.sleep(HANG * 2)  # deaf to the deadline
        return n

    before = set(children(os.getpid()))
    started = time.monotonic()
    with stopping.cancel_scope(stopping.CancelToken(Clock.start(0.2))):
        done = stopping.in_processes(job, [1, 2], processes=2, stopped="ended", grace_s=0.3)
    assert done == [1, "ended"]
    assert time.monotonic() - started < HANG  # not the child's sleep
    assert set(children(os.getpid())) == before
