"""Board first, phone first (issue 52): on a 360x740 phone each seat's first screen, without
scrolling, holds the board and the turn bar: the player to move sees a step control and "What
should I do?" at once, in both games. The Castell map's tap targets are a thumb wide (44 px)
and apart, no pawn lies under a label, "end the turn" stays clear of "Type a step", and no
page state of a short game of either game scrolls sideways at 360 or 390 px, its folds open or
closed. Screenshots at 360x740 go to tests/web/screenshots/ (git-ignored)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.web.conftest import LiveServer, seat_keys
from tests.web.test_browser import (  # noqa: F401 (chromium_browser: a fixture)
    LAYOUT,
    LIVE_MS,
    PHONE,
    SHOTS,
    chromium_browser,
)

SMALL = {**PHONE, "viewport": {"width": 360, "height": 740}}

SIDEWAYS = "() => [document.documentElement.scrollWidth, innerWidth]"
OPEN_ALL = "() => document.querySelectorAll('details').forEach(d => { d.open = true; })"
BOXES = """sel => [...document.querySelectorAll(sel)].map(e => {
  const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"""


def _apart(a: list[float], b: list[float], gap: float = 0) -> bool:
    return a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1] or b[3] + gap <= a[1]


@pytest.fixture
def lan(folder: Path) -> Iterator[LiveServer]:
    from web.security import Access

    with LiveServer(folder, Access.lan()) as server:
        yield server


def _seated(browser: Browser, server: LiveServer, game: str, player: str
            ) -> tuple[BrowserContext, Page]:
    context = browser.new_context(**SMALL)
    page = context.new_page()
    key = seat_keys(server.app, game)[player]
    page.goto(f"{server.url}/g/{game}/seat?key={key}")
    expect(page.locator("p.me")).to_contain_text(f"You play {player}")
    return context, page


def _first_screen(page: Page, label: str) -> None:
    """The player to move's step control and advice button, on the first screen."""
    page.evaluate("() => window.scrollTo(0, 0)")
    advice = page.get_by_role("button", name="What should I do?")
    step = page.locator("#turn form.control button[name=step], .map [role=button], "
                        "button.place-card").first  # the first in the page's order
    expect(advice).to_be_in_viewport(ratio=1)
    expect(step).to_be_in_viewport(ratio=1)
    assert page.evaluate("() => scrollY") == 0
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"first360-{label}.png"))


def _tap_until_moved(page: Page, button: str, status: str, taps: int = 3) -> None:
    """Tap `button` until the status moves on. A tap can land while the page redraws the
    game (its own step's answer, then the live update of the same revision), on a button
    being replaced: lost, as a player's tap would be, who taps again. A second tap of a step
    that did land is refused as stale (each form carries its revision), so it never plays
    twice (CI, both cores busy: the status stayed for 30 s after one tap)."""
    for tap in range(taps):
        page.get_by_role("button", name=button, exact=True).click()
        try:
            expect(page.get_by_role("status")).not_to_have_text(status, timeout=LIVE_MS // 3)
            return
        except AssertionError:
            if tap == taps - 1:
                raise


def test_castell_seats_see_the_board_and_their_turn_first(chromium_browser: Browser,  # noqa: F811
                                                          lan: LiveServer) -> None:
    pages = {p: _seated(chromium_browser, lan, "castell.json", p) for p in ("Anna", "Biel")}
    status = pages["Anna"][1].get_by_role("status").inner_text()
    for turn in range(4):  # two rounds' first turns: a move, a recruit, the end
        mover = pages[status.split(" to play")[0]][1]
        expect(mover.get_by_role("status")).to_have_text(status, timeout=LIVE_MS)
        expect(mover.locator("#turn.controls"), f"turn {turn}: {status}").to_have_count(1)
        _first_screen(mover, f"castell-turn{turn}")
        expect(mover.locator(".map")).to_be_in_viewport(ratio=1)  # the whole board
        mover.locator(".map [role=button]").first.click()  # a move, by the map
        expect(mover.locator("#turn form.control button[value^='recruit ']").first
               ).to_be_visible(timeout=LIVE_MS)
        _first_screen(mover, f"castell-turn{turn}-moved")
        _tap_until_moved(mover, "end the turn", status)
        status = mover.get_by_role("status").inner_text()  # the step's own answer: current
    for context, _ in pages.values():
        context.close()


def test_combo_seats_see_the_rows_and_their_turn_first(chromium_browser: Browser,  # noqa: F811
                                                       lan: LiveServer) -> None:
    pages = {p: _seated(chromium_browser, lan, "combo.json", p) for p in ("Ana", "Ben")}
    status = pages["Ana"][1].get_by_role("status").inner_text()
    for turn in range(4):
        mover = pages[status.split(" to play")[0]][1]
        expect(mover.get_by_role("status")).to_have_text(status, timeout=LIVE_MS)
        _first_screen(mover, f"combo-turn{turn}")
        before = mover.locator("#game").get_attribute("data-revision")
        mover.locator("button.place-card").first.click()  # tap a card, then a cell
        mover.locator(".pcell.legal button").first.click()
        expect(mover.locator("#game")).not_to_have_attribute("data-revision", before or "",
                                                             timeout=LIVE_MS)
        status = mover.get_by_role("status").inner_text()
    for context, _ in pages.values():
        context.close()


def test_the_map_targets_are_a_thumb_wide_apart_and_clear_of_labels(
        chromium_browser: Browser, live: LiveServer) -> None:  # noqa: F811
    for width in (360, 390):
        context = chromium_browser.new_context(**{**SMALL, "viewport": {"width": width,
                                                                        "height": 740}})
        page = context.new_page()
        for game in ("castell.json", "round3.json"):
            page.goto(f"{live.url}/g/{game}")
            targets = page.evaluate(BOXES, ".map [role=button]")
            assert targets
            for box in targets:
                assert box[2] - box[0] >= 44 and box[3] - box[1] >= 44, (game, width, box)
            for i, a in enumerate(targets):
                assert all(_apart(a, b) for b in targets[i + 1:]), (game, width)
            plates = page.evaluate(BOXES, ".map .label .plate")
            for pawn in page.evaluate(BOXES, ".map .pawn circle"):
                assert all(_apart(pawn, p) for p in plates), (game, width, pawn)
        context.close()


def test_end_the_turn_stays_clear_of_typing_a_step(chromium_browser: Browser,  # noqa: F811
                                                   live: LiveServer) -> None:
    context = chromium_browser.new_context(**SMALL)
    page = context.new_page()
    page.goto(f"{live.url}/g/round3.json")
    _first_screen(page, "castell-round3")  # three pawns, a festival this round
    expect(page.locator(".map")).to_be_in_viewport(ratio=1)
    end = page.get_by_role("button", name="end the turn", exact=True).bounding_box()
    typed = page.locator("summary", has_text="Type a step").bounding_box()
    assert end and typed
    assert end["height"] >= 44 and typed["height"] >= 44
    apart = [end["x"], end["y"], end["x"] + end["width"], end["y"] + end["height"]]
    other = [typed["x"], typed["y"], typed["x"] + typed["width"], typed["y"] + typed["height"]]
    assert _apart(apart, other, gap=8)
    context.close()


def test_no_page_state_scrolls_sideways(chromium_browser: Browser,  # noqa: F811
                                        folder: Path) -> None:
    """A short game of each, every state, its folds closed then all open, at 360 and 390 px:
    the page is never wider than the screen, and what the folds hold has no text under 12 px
    and no target under 44 px."""
    from service.castell import Game
    from service.combo import ComboGame

    with LiveServer(folder) as server:
        contexts = [chromium_browser.new_context(**{**PHONE, "viewport": {"width": w,
                                                                          "height": 740}})
                    for w in (360, 390)]
        pages = [c.new_page() for c in contexts]

        def check(game: str, label: str) -> None:
            for page in pages:
                page.goto(f"{server.url}/g/{game}")
                for state in ("folded", "open"):
                    if state == "open":
                        page.evaluate(OPEN_ALL)
                    wide, screen = page.evaluate(SIDEWAYS)
                    assert wide <= screen, f"{label} ({state}) at {screen} px: {wide} wide"
                    found = page.evaluate(LAYOUT)  # what the folds hold: no tiny text nor target
                    assert not found["small"] and not found["low"], (label, state, found)

        for steps in (0, 1, 2, 6, 30, 200):  # moved, recruited, rounds on, the end
            with Game.editing(folder / "castell.json") as game:
                for _ in range(steps):
                    if game.state.game_over:
                        break
                    game.step(game.legal_actions()[0])
                game.save()
            check("castell.json", f"castell after {steps} more steps")
        for steps in (0, 1, 5, 100):
            with ComboGame.editing(folder / "combo.json") as combo:
                for _ in range(steps):
                    if combo.game_over:
                        break
                    combo.step(combo.legal_actions()[0])
                combo.save()
            check("combo.json", f"combo after {steps} more steps")
        for context in contexts:
            context.close()


def test_a_fold_stays_open_across_a_live_redraw(chromium_browser: Browser,  # noqa: F811
                                                live: LiveServer) -> None:
    """The player opened the history; a rival's step redraws the page (a live update): the
    history is still open, the folds the player left shut still shut."""
    contexts = [chromium_browser.new_context(**SMALL) for _ in range(2)]
    mine, rival = (c.new_page() for c in contexts)
    for page in (mine, rival):
        page.goto(f"{live.url}/g/round3.json")
    mine.locator("#fold-history > summary").click()
    expect(mine.locator("#fold-history")).to_have_attribute("open", "")
    before = mine.locator("#game").get_attribute("data-revision") or ""
    rival.get_by_role("button", name="end the turn", exact=True).click()
    expect(mine.locator("#game")).not_to_have_attribute("data-revision", before,
                                                        timeout=LIVE_MS)
    expect(mine.locator("#fold-history")).to_have_attribute("open", "")
    expect(mine.locator("#fold-history li").first).to_be_visible()
    expect(mine.locator("#fold-wheel")).not_to_have_attribute("open", "")
    for context in contexts:
        context.close()


def test_a_fold_closed_at_a_redraw_is_filled_when_opened(chromium_browser: Browser,  # noqa: F811
                                                         live: LiveServer) -> None:
    """After a live redraw a closed fold is its title alone (the page said none was open);
    opened, the page fetches the game again and the fold shows its content."""
    contexts = [chromium_browser.new_context(**SMALL) for _ in range(2)]
    mine, rival = (c.new_page() for c in contexts)
    for page in (mine, rival):
        page.goto(f"{live.url}/g/round3.json")
    before = mine.locator("#game").get_attribute("data-revision") or ""
    rival.get_by_role("button", name="end the turn", exact=True).click()
    expect(mine.locator("#game")).not_to_have_attribute("data-revision", before,
                                                        timeout=LIVE_MS)
    expect(mine.locator("#fold-wheel")).to_have_attribute("data-unfilled", "")
    expect(mine.locator("#fold-wheel ul.wheel")).to_have_count(0)
    mine.locator("#fold-wheel > summary").click()
    expect(mine.locator("#fold-wheel ul.wheel").first).to_be_visible(timeout=LIVE_MS)
    expect(mine.locator("#fold-wheel")).to_have_attribute("open", "")
    for context in contexts:
        context.close()
