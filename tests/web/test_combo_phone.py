"""The Castle Combo game-over page on a 360 px phone (issue 52: it was 464 px wide): the end
scores, the history and each player's best arrangement fit the screen, nothing on the page
scrolls sideways, not even inside itself (a table wider than its box)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser

from tests.web.conftest import LiveServer
from tests.web.test_browser import PHONE, SHOTS, chromium_browser  # noqa: F401 (a fixture)

WIDE = """() => {
  const wide = [];
  for (const e of document.querySelectorAll('body *')) {
    const box = e.getBoundingClientRect();
    if (box.right > innerWidth + 1 || e.scrollWidth > e.clientWidth + 1)
      wide.push(`${e.tagName}.${e.className}: ${Math.round(box.right)}, ${e.scrollWidth}`);
  }
  return [Math.max(document.documentElement.scrollWidth, innerWidth), wide.slice(0, 5)];
}"""


def test_the_combo_game_over_fits_360_px(chromium_browser: Browser,  # noqa: F811
                                         folder: Path) -> None:
    from service.combo import ComboGame

    with ComboGame.editing(folder / "combo.json") as game:
        while not game.game_over:
            game.step(game.legal_actions()[-1])
        game.save()
    with LiveServer(folder) as server:
        context = chromium_browser.new_context(
            **{**PHONE, "viewport": {"width": 360, "height": 740}})
        page = context.new_page()
        page.goto(server.url + "/g/combo.json")
        for button in page.get_by_role("button", name=re.compile("^Best arrangement")).all():
            button.click()
        page.locator(".arranged").nth(1).wait_for(timeout=60_000)
        width, wide = page.evaluate(WIDE)
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "phone360-combo-game-over-words.png"), full_page=True)
        context.close()
    assert width <= 360 and not wide, wide
