"""Private advice in a real browser (issue 52): on a --lan server, the seat to move asks "What
should I do?" and plays its plan one tap a step to its turn's "end", and no further; the rival's
phone and the spectator's never show the plan, and the rival's cancel of it is refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.conftest import LiveServer, new_castell
from tests.web.test_browser import LIVE_MS, Table, chromium_browser, history, seat
from web.seat_store import Seat
from web.security import Access

pytest.importorskip("playwright")
from playwright.sync_api import Browser, Page, expect

__all__ = ["chromium_browser"]  # the module's browser fixture, shared
GAME = "three.json"
PLAYERS = ["Anna", "Biel", "Carla"]
ANSWER_MS = 60_000  # a hang guard for the plan's answer (the page gives it 8 s)


@pytest.fixture
def lan_table(chromium_browser: Browser, folder: Path) -> Iterator[Table]:
    new_castell(folder, GAME, ",".join(PLAYERS))  # Anna to move
    with LiveServer(folder, Access.lan()) as server:
        screens = Table(chromium_browser, server)
        try:
            yield screens
        finally:
            screens.close()


def _none_of_it(page: Page) -> None:
    expect(page.locator("#advice")).to_be_empty()
    expect(page.get_by_text("Plan for Anna")).to_have_count(0)


def test_the_seats_plan_is_its_own_and_ends_with_its_turn(lan_table: Table) -> None:
    table = lan_table
    anna, biel, watcher = table.open(f"/g/{GAME}")
    seat(table, anna, GAME, PLAYERS, "Anna")  # to move
    seat(table, biel, GAME, PLAYERS, "Biel")
    access: Access = table.server.app.state.access
    watcher.goto(f"{table.server.url}/join?token={access.token}")
    watcher.goto(f"{table.server.url}/g/{GAME}")
    anna.get_by_role("button", name="What should I do?").click()
    expect(anna.locator("#advice li.next code")).to_be_visible(timeout=ANSWER_MS)
    expect(biel.get_by_role("button", name="What should I do?")).to_have_count(0)
    for page in (biel, watcher):
        _none_of_it(page)
    # the rival's cancel, sent from its own page, is refused and leaves the plan
    job = table.server.app.state.jobs.get(GAME, Seat("Anna"))
    status = biel.evaluate(
        "id => fetch('/g/three.json/advice/cancel', {method: 'POST', body: "
        "new URLSearchParams({job: id})}).then(r => r.status)", job.id)
    assert status == 403 and not job.cancelled
    done: list[str] = []
    while anna.locator("#advice li.next button").count():
        assert len(done) < 12, "the plan's steps go on past its turn's end"
        step = anna.locator("#advice li.next code").inner_text()
        anna.locator("#advice li.next button").click()
        done.append(step)
        expect(anna.locator("#advice li.done")).to_have_count(len(done), timeout=LIVE_MS)
        expect(history(biel).locator("li").first).to_contain_text(step, timeout=LIVE_MS)
        for page in (biel, watcher):
            _none_of_it(page)
    assert done and done[-1] == "end" and "end" not in done[:-1]
    expect(anna.locator("#advice")).to_contain_text("plan is done: ask again on your next turn")
    expect(anna.locator("#advice button")).to_have_count(0)  # nothing more of the plan
    table.shoot("advice-private-turn-end")
