"""Advice is a seat's own (issue 52): the advice one seat asked for is drawn on its page only,
never on a rival's, a spectator's or their live fragment; only that seat cancels it (a rival's
cancel is 403 `not_your_advice`), a seat asks on its own turn only, a page that watches asks
nothing; the server answers a bounded number of questions at once (503, one line)."""

from __future__ import annotations

import html
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from service.handles import load_handle
from tests.web.conftest import LOCAL, seat_keys
from web.advice_jobs import Jobs
from web.app import create_app
from web.library import Library
from web.seat_store import KEEPER, Seat
from web.security import Access
from web.settings import WebSettings

HANG = 60.0  # a hang guard, never a timing: each wait ends on the answer it waits for
GAME = "combo.json"
LOADER = f'hx-get="/g/{GAME}/advice"'  # the fragment's loader of its seat's own advice


class Table:
    """A LAN server with a screen per seat (the player to move, a rival) and a spectator's."""

    def __init__(self, folder: Path, stack: ExitStack) -> None:
        access = Access.lan()
        self.app = create_app(Library(folder), access, f"{LOCAL}/join?token=x",
                              WebSettings(advice_time_limit=1.0))
        game = load_handle(folder / GAME, "combo")
        self.mover = game.to_play() or ""
        self.rival = next(p for p in game.player_names() if p != self.mover)
        keys = seat_keys(self.app, GAME)
        self.screens: dict[str, TestClient] = {}
        for who in (self.mover, self.rival, "spectator"):
            screen = stack.enter_context(TestClient(self.app, base_url=LOCAL))
            if who == "spectator":
                screen.cookies.set("castell_token", access.token or "")
            else:
                screen.get(f"/g/{GAME}/seat", params={"key": keys[who]})
            self.screens[who] = screen

    @property
    def jobs(self) -> Jobs:
        jobs: Jobs = self.app.state.jobs
        return jobs

    def revision(self) -> int:
        return int(self.screens["spectator"].get(f"/api/g/{GAME}").json()["revision"])


@pytest.fixture
def table(folder: Path) -> Iterator[Table]:
    with ExitStack() as stack:
        yield Table(folder, stack)


def _answered(screen: TestClient) -> str:
    deadline = time.monotonic() + HANG
    while "Thinking" in (answer := screen.get(f"/g/{GAME}/advice").text):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    return answer


def _sees_none(screen: TestClient, player: str) -> None:
    """Nothing of `player`'s advice on this screen: its page, its live fragment, its panel."""
    for path in (f"/g/{GAME}", f"/g/{GAME}/game", f"/g/{GAME}/advice"):
        text = screen.get(path).text
        assert LOADER not in text and f"Best actions for {player}" not in text, path
        assert "Cancel advice" not in text and "Thinking" not in text, path


def test_a_seats_advice_is_on_its_own_page_only(table: Table) -> None:
    mover = table.screens[table.mover]
    asked = mover.post(f"/g/{GAME}/advice", data={"revision": table.revision()})
    assert asked.status_code == 200
    answer = _answered(mover)
    assert f"Best actions for {table.mover}" in answer and "Do this step" in answer
    assert LOADER in mover.get(f"/g/{GAME}/game").text  # its own fragment brings it back
    for other in (table.rival, "spectator"):
        _sees_none(table.screens[other], table.mover)


def test_a_rivals_cancel_is_refused_and_leaves_the_advice(table: Table) -> None:
    """Regression (issue 52): any page with the join link cancelled (and started) another
    seat's advice, 200."""
    mover, rival = table.screens[table.mover], table.screens[table.rival]
    mover.post(f"/g/{GAME}/advice", data={"revision": table.revision()})
    _answered(mover)
    job = table.jobs.get(GAME, Seat(table.mover))
    assert job is not None
    refused = rival.post(f"/g/{GAME}/advice/cancel", data={"job": job.id})
    assert refused.status_code == 403 and refused.headers["x-castell-code"] == "not_your_advice"
    assert "another seat's" in html.unescape(refused.text)
    # the rival's cancel of its own (none) touches nobody else's
    assert rival.post(f"/g/{GAME}/advice/cancel").status_code == 200
    assert not job.cancelled and table.jobs.get(GAME, Seat(table.mover)) is job
    started = rival.post(f"/g/{GAME}/advice", data={"revision": table.revision()})
    assert started.status_code == 403 and started.headers["x-castell-code"] == "wrong_player"
    watcher = table.screens["spectator"]
    for path, data in ((f"/g/{GAME}/advice", {"revision": table.revision()}),
                       (f"/g/{GAME}/advice/cancel", {"job": job.id})):
        watching = watcher.post(path, data=data)
        assert watching.status_code == 403 and watching.headers["x-castell-code"] == "watching"
    assert f"Best actions for {table.mover}" in mover.get(f"/g/{GAME}/advice").text
    # the seat that asked cancels its own
    assert mover.post(f"/g/{GAME}/advice/cancel", data={"job": job.id}).status_code == 200
    assert job.cancelled


def test_the_api_shows_nothing_of_a_face_down_card(table: Table, folder: Path) -> None:
    """Regression (issue 52): `/api/g/NAME` printed a face-down card's id in its history."""
    mover = table.screens[table.mover]
    state = mover.get(f"/api/g/{GAME}").json()
    flip = next(step for step in state["legal"] if step.startswith("flip "))
    card = flip.split()[1]
    assert mover.post(f"/g/{GAME}/step", data={"revision": state["revision"], "step": flip},
                      follow_redirects=False).status_code == 303
    for screen in table.screens.values():
        history = screen.get(f"/api/g/{GAME}").json()["history"]
        assert history[-1] == "took a card face down" and card not in " ".join(history)
    # the one rule, the page's: the card is its owner's to see
    game = load_handle(folder / GAME, "combo")
    assert game.history_lines(table.mover)[-1] == flip
    assert game.history_lines(table.rival)[-1] == game.history_lines(None)[-1] == \
        "took a card face down"


def test_advice_beyond_the_servers_bound_is_503(
        client_with: Callable[..., TestClient]) -> None:
    """At most `advice_jobs` questions answer at once server-wide (one per seat: a seat's
    next question replaces its own, and is no more); one more is 503 with one line."""
    client = client_with(advice_jobs=1, advice_time_limit=1.0)
    jobs: Jobs = client.app.state.jobs  # type: ignore[attr-defined]
    go = threading.Event()
    held = jobs.start("round3.json", Seat("Anna"), 0, go.wait)  # another seat's question
    try:
        busy = client.post(f"/g/{GAME}/advice", data={"revision": 0})
        assert busy.status_code == 503
        assert busy.text.startswith("busy:") and "\n" not in busy.text.strip()
        assert jobs.get(GAME, KEEPER) is None  # nothing started
    finally:
        go.set()
    assert held.done.wait(HANG)
    assert client.post(f"/g/{GAME}/advice", data={"revision": 0}).status_code == 200
    # the same seat again: its earlier question is replaced, not counted
    first = jobs.get(GAME, KEEPER)
    assert client.post(f"/g/{GAME}/advice", data={"revision": 0}).status_code == 200
    second = jobs.get(GAME, KEEPER)
    assert first is not None and second is not None and second is not first
    assert first.cancelled and second.done.wait(HANG)
