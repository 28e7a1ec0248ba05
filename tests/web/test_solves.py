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
from service.castell import Game
from tests.web.conftest import LOCAL, new_castell
from web.advice_jobs import Jobs
from web.app import create_app
from web.library import Library
from web.seat_store import KEEPER
from web.settings import WebSettings
from web.solves import BUSY, SolvePool

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


def test_a_step_in_its_requests_own_thread_is_cancelled_and_waited_for_at_the_stop() -> None:
    """A step runs in its request's own thread (not bounded by the pool; its solves are):
    the stop cancels it too, and waits for it."""
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


def _end_until_busy(client: TestClient, folder: Path) -> tuple[int, str]:
    """`end` steps on round3.json until one is refused (the one that holds the round's
    festivals): its status and text; the game as it was before it."""
    for _ in range(8):  # the round's last end holds the festivals
        revision = Game.load(folder / "round3.json").revision
        answer = client.post("/g/round3.json/step", data={"revision": revision, "step": "end"},
                             follow_redirects=False)
        if answer.status_code != 303:
            assert Game.load(folder / "round3.json").revision == revision  # nothing written
            return answer.status_code, answer.text
    raise AssertionError("no step was refused")


def test_a_steps_festival_towers_take_places_in_the_pool(client_with: object, folder: Path,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """Regression (issue 53's residue): the step that ends a round solved its festival towers
    in the request's own thread, outside the pool. Now each takes a place in it: with the
    pool full, that step is 503 "busy" with one line and nothing is written (the steps before
    it, which solve nothing, are played); with a place free, each tower is solved in the
    pool's threads and the round ends."""
    import planner.tower

    real, threads = planner.tower.solve, []

    def solve(*args: object, **kwargs: object) -> object:
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(planner.tower, "solve", solve)
    client: TestClient = client_with(solve_slots=1, solve_queue=0)  # type: ignore[operator]
    pool: SolvePool = client.app.state.solves  # type: ignore[attr-defined]
    go = threading.Event()
    held = pool.submit(go.wait)
    try:
        status, text = _end_until_busy(client, folder)
    finally:
        go.set()
    assert held.result(HANG)
    assert status == 503 and BUSY in text and "\n" not in text.strip()  # the pool's line
    assert not threads and Game.load(folder / "round3.json").state.round == 3
    answer = client.post("/g/round3.json/step", data={
        "revision": Game.load(folder / "round3.json").revision, "step": "end"},
        follow_redirects=False)
    assert answer.status_code == 303, answer.text
    assert Game.load(folder / "round3.json").state.round == 4
    assert threads and all(name.startswith("solve") for name in threads)
    assert pool.taken == 0


def test_a_steps_festival_time_limit_is_the_servers_setting(client_with: object,
                                                           folder: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """Each festival tower a step solves gets `WebSettings.festival_time_limit` (it was a
    module constant): a tower that needs more is not resolved, the 503 names the setting's
    seconds, and nothing is written."""
    import planner.tower
    from planner.tower import SolveResult, Status

    given: list[float] = []

    def solve(*args: object, time_limit: float = 10.0, **kwargs: object) -> SolveResult:
        given.append(time_limit)
        return SolveResult(Status.UNKNOWN, None, None, None, None, time_limit, "dp")

    monkeypatch.setattr(planner.tower, "solve", solve)
    client: TestClient = client_with(festival_time_limit=7.5)  # type: ignore[operator]
    status, text = _end_until_busy(client, folder)
    assert status == 503 and "the page gives each tower 7.5 s" in text
    assert given and set(given) == {7.5}


def test_a_steps_festival_solve_is_cancelled_at_the_stop(client_with: object, folder: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """The festival towers a step solves, now in the pool, are cancelled when the server
    stops, as they were in the step's own thread: the step is refused (nothing written) and
    the stop does not wait for a solve that would run on."""
    import planner.tower
    from planner.stopping import stop_requested
    from planner.tower import SolveResult, Status

    inside = threading.Event()

    def solve(*args: object, time_limit: float = 10.0, **kwargs: object) -> SolveResult:
        inside.set()
        while not stop_requested():  # a solver polls its token
            threading.Event().wait(0.01)
        return SolveResult(Status.UNKNOWN, None, None, None, None, time_limit, "dp")

    monkeypatch.setattr(planner.tower, "solve", solve)
    client: TestClient = client_with(festival_time_limit=HANG * 10)  # type: ignore[operator]
    pool: SolvePool = client.app.state.solves  # type: ignore[attr-defined]
    answers: list[tuple[int, str]] = []
    stepping = threading.Thread(target=lambda: answers.append(_end_until_busy(client, folder)))
    stepping.start()
    assert inside.wait(HANG), "no festival was solved"
    assert pool.stop(timeout=HANG)
    stepping.join(HANG)
    [(status, text)] = answers
    assert status == 503 and "not proven" in text
    assert Game.load(folder / "round3.json").state.round == 3
