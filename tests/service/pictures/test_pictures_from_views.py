"""Both games' pictures are drawn from the game's one view (not from the state): what the
view says is what the picture shows."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from models.combo import Take, legal_actions, load_deck, new_game
from service.castell import Game
from service.combo import ComboGame
from service.pictures.combo_svg import tableaux
from service.pictures.svg import game_map

ROUND3 = Path(__file__).parents[3] / "examples" / "game" / "round3.json"
SVG = "{http://www.w3.org/2000/svg}"


def _texts(root: ET.Element) -> str:
    return " ".join("".join(t.itertext()) for t in root.iter(SVG + "text"))


def test_the_castell_map_shows_what_the_view_says() -> None:
    game = Game.load(ROUND3)
    view = game.view()
    view.regions[0].castellers = "9x3"  # planted: the state says otherwise
    view.players[0].best_tower = 41
    view.players[0].claimed_tiles = ["LP99"]
    view.festivals[0].held = True
    root = ET.fromstring(game_map(game.board, view).as_svg())
    text = _texts(root)
    assert "castellers 9x3" in text
    assert f"{view.players[0].name}: team" in text and "best tower 41" in text
    assert "tiles LP99" in text
    assert f"{view.festivals[0].location}: round {view.festivals[0].round}" in text
    assert "(held)" in text
    pawns = next(g for g in root.iter(SVG + "g") if g.get("id") == "pawns")
    assert {c.get("data-player") for c in pawns.iter(SVG + "circle")} == \
        {p.name for p in view.players if p.pawn is not None}


def _combo(tmp_path: Path) -> ComboGame:
    state = new_game(load_deck(), ["Ana", "Ben"], 1, first="Ana")
    path = tmp_path / "game.json"
    path.write_text(state.to_json(), encoding="utf-8")
    game = ComboGame.load(path)
    flips = [a for a in legal_actions(game.state) if isinstance(a, Take) and a.face_down]
    game.step(flips[0])  # one card face down
    takes = [a for a in legal_actions(game.state) if isinstance(a, Take) and not a.face_down]
    game.step(takes[0])  # and one face up
    return game


def test_the_tableaux_show_what_the_view_says(tmp_path: Path) -> None:
    view = _combo(tmp_path).view()
    cells = [cell for t in view.tableaux for row in t.cells for cell in row if cell]
    assert sorted(c.face_down for c in cells) == [False, True]
    up = next(c for c in cells if not c.face_down)
    up.points = 77  # planted
    view.tableaux[0].score = 123
    svg = tableaux(view).as_svg()
    root = ET.fromstring(svg)
    assert svg.count('class="card"') == 2 and svg.count('class="face-down"') == 1
    text = _texts(root)
    assert "77 pts" in text and "123 points" in text
    assert view.cards[up.card].name in text
    down = next(c for c in cells if c.face_down)
    assert down.card not in view.cards  # a face-down card's face is not in the view
