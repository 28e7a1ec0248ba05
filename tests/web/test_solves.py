"""The server's one pool of solves (`web.solves`) and the advice jobs in it
(`web.advice_jobs`): bounded, refusing at once beyond its queue, cancelling and waiting for
its solves when the server stops, and keeping a bounded number of answers. No verdict depends
on the machine's speed: the solves here wait for an event the test sets (HANG: a hang guard)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from fastapi import HTTPException
from fastapi.testclient import TestClient

from service.cancel import CancelToken
from tests.web.conftest import LOCAL, new_castell
from web.advice_jobs import Jobs
from web.app import create_app
from web.library import Library
from web.seat_store import KEEPER
from web.settings import WebSettings
from web.solves import SolvePool

HANG = 60.0


def test_beyond_its_slots_and_queue_a_solve_is_busy_at_once() -> None:
    pool = SolvePool(slots=1, queue=1)
    go = threading.Event()
    first, second = pool.submit(go.wait), pool.submit(go.wait)
    with pytest.raises(HTTPException) as refused:
        pool.submit(go.wait)
    assert refused.value.status_code == 503 and refused.value.detail.startswith("busy:")
    go.set()
    assert first.result(HANG) and second.result(HANG)
    assert pool.run(lambda: 7) == 7  # places given back
    pool.stop()


def test_stopping_cancels_the_running_solves_drops_the_queued_and_waits() -> None:
    pool = SolvePool(slots=1, queue=2)
    token, started, seen = CancelToken(), threading.Event(), []

    def solve() -> str:
        started.set()
        while not token.cancelled:  # a solver polls its token (`stop_requested`)
            threading.Event().wait(0.01)
        seen.append("cancelled")
        return "best so far"

    running = pool.submit(solve, token)
    queued = pool.submit(lambda: seen.append("ran"))
    assert started.wait(HANG)
    stopper = threading.Thread(target=pool.stop)
    stopper.start()
    stopper.join(HANG)
    assert not stopper.is_alive(), "stop() did not return"
    assert running.result(0) == "best so far"  # ended before stop() returned
    assert queued.cancelled() and seen == ["cancelled"]
    assert pool.taken == 0
    with pytest.raises(HTTPException):  # a stopped pool takes nothing more
        pool.submit(lambda: None)


def test_advice_on_twenty_games_at_once_is_bounded(tmp_path: Path) -> None:
    """Regression (issue 53): advice ran a thread per game; 20 games asked at once all got
    200, and the server grew from 68 to 511 MB. Now each advice job takes a place in the one
    pool: with its places taken, every one of the 20 is 503 "busy", and none starts a thread."""
    games = tmp_path / "games"
    games.mkdir()
    names = [new_castell(games, f"g{i:02d}.json", seed=i + 1).name for i in range(20)]
    settings = WebSettings(solve_slots=2, solve_queue=3)
    with TestClient(create_app(Library(games), settings=settings), base_url=LOCAL) as client:
        pool: SolvePool = client.app.state.solves  # type: ignore[attr-defined]
        go = threading.Event()
        held = [pool.submit(go.wait) for _ in range(5)]  # other questions, in the pool
        try:
            _all_busy(client, names)
        finally:
            go.set()
        for future in held:
            future.result(HANG)
        assert client.post(f"/g/{names[0]}/advice", data={"revision": 0}).status_code == 200
        client.post(f"/g/{names[0]}/advice/cancel")


def _all_busy(client: TestClient, names: list[str]) -> None:
    """With the pool's places taken: advice on each game, and a best tower, are 503 at once,
    and none of them takes a place."""
    pool: SolvePool = client.app.state.solves  # type: ignore[attr-defined]
    asked = [client.post(f"/g/{name}/advice", data={"revision": 0}) for name in names]
    assert [a.status_code for a in asked] == [503] * len(names)
    assert all(a.text.startswith("busy:") for a in asked)
    busy = client.get(f"/g/{names[0]}/best-tower", params={"player": "Anna"})
    assert busy.status_code == 503  # a best tower takes a place in the same pool
    assert pool.taken == 5


def test_the_advice_answers_kept_are_bounded() -> None:
    """Each game's last answer is kept for its page, but not every game's forever: beyond
    `kept`, the oldest finished ones are forgotten (a running one never is)."""
    pool = SolvePool(slots=1, queue=4)
    jobs = Jobs(pool, kept=2)
    go = threading.Event()
    running = jobs.start("a", KEEPER, 0, go.wait)
    # the one slot is held by "a": the others wait in the queue, none answered yet
    queued = [jobs.start(name, KEEPER, 0, lambda: "answer") for name in ("b", "c", "d")]
    assert not any(job.done.is_set() for job in queued)
    go.set()
    assert running.done.wait(HANG)
    assert all(job.done.wait(HANG) for job in queued)
    assert jobs.start("e", KEEPER, 0, lambda: "answer").done.wait(HANG)
    kept = [name for name in "abcde" if jobs.get(name, KEEPER) is not None]
    assert len(kept) == 2 and kept[-1] == "e"
    pool.stop()


def test_a_queued_advice_dropped_at_the_stop_is_done() -> None:
    pool = SolvePool(slots=1, queue=1)
    jobs = Jobs(pool)
    go = threading.Event()
    pool.submit(go.wait)
    queued = jobs.start("a", KEEPER, 0, lambda: "answer")
    stopper = threading.Thread(target=pool.stop)
    stopper.start()
    go.set()
    stopper.join(HANG)
    assert queued.done.wait(HANG)


def test_a_solve_in_a_requests_own_thread_is_cancelled_and_waited_for_at_the_stop() -> None:
    """A step's festival towers are solved in the step's own thread (not bounded by the
    pool): the stop cancels them too, and waits for them."""
    pool = SolvePool()
    inside, seen = threading.Event(), []

    def step() -> None:
        with pool.watched() as token:
            inside.set()
            while not token.cancelled:
                threading.Event().wait(0.01)
            seen.append("cancelled")

    stepping = threading.Thread(target=step)
    stepping.start()
    assert inside.wait(HANG)
    assert pool.stop(timeout=HANG)
    assert seen == ["cancelled"]  # before stop() returned
    stepping.join(HANG)
    with pytest.raises(HTTPException), pool.watched():
        pass
