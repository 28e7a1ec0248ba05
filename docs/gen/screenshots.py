"""The table page's screenshots in the docs (`docs/img/phone/`): each state of a short game of
each game as a 360x740 phone's first screen shows it (issue 52).

Run: python docs/gen/screenshots.py   (needs Debian's chromium: apt-get install chromium)

Castell: a new 3-player game, round 3 with a festival this round (examples/game/round3.json),
round 5 (a festival at the map's top: its label above its region), the game over (the whole
page). Castle Combo: a new game, half-way, the game over (the whole page). At the
phone's own pixels (not doubled), to keep the docs light.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from service.castell import Game  # noqa: E402
from service.combo import ComboGame  # noqa: E402
from tests.web.conftest import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    ROUND3,
    LiveServer,
    new_castell,
    new_combo,
)
from tests.web.load import play_to_round  # noqa: E402

OUT = ROOT / "docs" / "img" / "phone"


def _games(folder: Path) -> None:
    new_castell(folder, "castell-new.json", "Anna,Biel,Carla")
    shutil.copy(ROUND3, folder / "castell-round3.json")
    play_to_round(new_castell(folder, "castell-round5.json", "Anna,Biel,Carla"), 5)
    over = new_castell(folder, "castell-over.json", "Anna,Biel,Carla")
    play_to_round(over, 99)
    new_combo(folder, "combo-new.json", "Ana,Ben")
    for name, steps in (("combo-half.json", 12), ("combo-over.json", None)):
        new_combo(folder, name, "Ana,Ben")
        with ComboGame.editing(folder / name) as game:
            while not game.game_over and (steps is None or len(game.state.history) < steps):
                game.step(game.legal_actions()[-1])
            game.save()
    assert Game.load(over).game_over


def _shot(page: Page, url: str, name: str, whole: bool = False) -> None:
    page.goto(url)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=whole)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        _games(folder)
        with LiveServer(folder) as server, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 360, "height": 740},
                                    has_touch=True, is_mobile=True)
            for name in ("castell-new", "castell-round3", "castell-round5", "combo-new",
                         "combo-half"):
                _shot(page, f"{server.url}/g/{name}.json", name)
            for name in ("castell-over", "combo-over"):
                _shot(page, f"{server.url}/g/{name}.json", name, whole=True)
            browser.close()
    for made in sorted(OUT.iterdir()):
        print(f"{made.relative_to(ROOT)}: {made.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
