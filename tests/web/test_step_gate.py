"""A step waits for its game's lock in the event loop, not in a worker thread
(`web.step_gate`): a lock held by another process never keeps a read of another game waiting.
No verdict depends on the machine's speed: the lock is held until the test has seen what it
asserts (HANG: a hang guard only)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from filelock import FileLock

from service.store import lock_path
from tests.web.conftest import LOCAL
from web.app import create_app
from web.library import Library
from web.settings import WebSettings
from web.step_gate import StepGate

HANG = 60.0


async def _until(check: object, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + HANG
    while not check():  # type: ignore[operator]
        assert loop.time() < deadline, what
        await asyncio.sleep(0.01)


def test_steps_waiting_on_a_held_lock_leave_the_server_free(folder: Path) -> None:
    """Regression (issue 53): with round3.json's lock held by another process, 45 steps on it
    filled the 40 worker threads and `GET /api/g/ok.json` waited 4-5 s. Now at most
    `step_waiters` steps of the game wait, in the event loop; the others are 503 at once; a
    read of another game is answered while they wait; once the lock is free the waiting
    steps are played (one of them; the others find the game moved on)."""
    settings = WebSettings(step_lock_wait=HANG * 2, step_waiters=4)
    app = create_app(Library(folder), settings=settings)
    gate: StepGate = app.state.step_gate
    game = folder / "round3.json"

    async def scenario() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=LOCAL) as client:
            state = (await client.get("/api/g/round3.json")).json()
            form = {"step": state["legal"][0], "revision": state["revision"]}
            lock_path(game).parent.mkdir(exist_ok=True)
            held = FileLock(lock_path(game))
            held.acquire()
            try:
                steps = [asyncio.create_task(client.post("/g/round3.json/step", data=form))
                         for _ in range(45)]
                await _until(lambda: sum(s.done() for s in steps) == 41, "41 refused")
                await _until(lambda: gate.in_hand(game) == 4, "4 waiting")
                read = await asyncio.wait_for(client.get("/api/g/castell.json"), HANG)
                assert read.status_code == 200
                waiting = [s for s in steps if not s.done()]
                assert len(waiting) == 4  # still waiting for the lock after the read
            finally:
                held.release()
            answers = await asyncio.wait_for(asyncio.gather(*steps), HANG)
        codes = sorted(a.status_code for a in answers)
        refused = [a for a in answers if a.status_code == 503]
        assert len(refused) == 41 and all("busy" in a.text for a in refused)
        assert codes.count(303) == 1 and codes.count(409) == 3

    asyncio.run(scenario())
    assert gate.in_hand(game) == 0


def test_a_step_gives_up_on_a_lock_held_too_long(client_with: object, folder: Path) -> None:
    """Held past `step_lock_wait`: 503 "busy", nothing written."""
    client = client_with(step_lock_wait=0.0)  # type: ignore[operator]
    state = client.get("/api/g/round3.json").json()
    lock_path(folder / "round3.json").parent.mkdir(exist_ok=True)
    with FileLock(lock_path(folder / "round3.json")):
        step = client.post("/g/round3.json/step", data={"step": state["legal"][0],
                                                       "revision": state["revision"]})
    assert step.status_code == 503 and "busy" in step.text
    assert client.get("/api/g/round3.json").json()["revision"] == state["revision"]


def test_a_step_waits_for_the_lock_once_in_all(client_with: object, folder: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (issue 53's residue): a step waited `step_lock_wait` in the event loop, then
    up to 5 s more (a constant of its own) for the file's lock in its thread. Now the thread
    waits only for what is left of the one budget: with a budget of 0 the gate lets a step
    through a free lock at once, and its thread waits no more (a lock taken again meanwhile
    is 503 at once); with a budget, the thread's wait is within it."""
    import web.play

    waits: list[float] = []
    real = web.play.play_steps

    def play_steps(*args: Any, wait: float, **kwargs: Any) -> Any:
        waits.append(wait)
        return real(*args, wait=wait, **kwargs)

    monkeypatch.setattr(web.play, "play_steps", play_steps)
    for budget in (0.0, HANG):
        client = client_with(step_lock_wait=budget)  # type: ignore[operator]
        state = client.get("/api/g/round3.json").json()
        step = client.post("/g/round3.json/step", data={"step": state["legal"][0],
                                                       "revision": state["revision"]},
                           follow_redirects=False)
        assert step.status_code == 303, step.text
        assert 0.0 <= waits[-1] <= budget
    assert waits[0] == 0.0
