"""`castell state show --svg`: the game drawn on the map, labels on plates never crossed by a
border, pawns where the players stand; tower pictures never cut their captions."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from models.game import load_board, load_state
from tests.cli.game_driver import castell

SVG = "{http://www.w3.org/2000/svg}"
REPO = Path(__file__).resolve().parents[3]
ROUND3 = REPO / "examples" / "game" / "round3.json"
BOARD = load_board()
# DejaVu Sans advance widths (em) of the characters in a tower caption: what a viewer draws
ADVANCE = {**dict.fromkeys("0123456789", 0.636), ",": 0.318, "/": 0.337, "x": 0.592}


def _box(rect: ET.Element) -> tuple[float, float, float, float]:
    x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
    return x, y, x + float(rect.get("width", 0)), y + float(rect.get("height", 0))


def test_state_show_svg_draws_the_game_on_the_map(tmp_path: Path) -> None:
    target = tmp_path / "game.svg"
    result = castell("state", "show", str(ROUND3), "--svg", str(target))
    assert result.exit_code == 0, result.stderr
    root = ET.parse(target).getroot()
    state = load_state(ROUND3)
    elements = list(root.iter())
    lines = [e for e in elements if e.tag in (SVG + "line", SVG + "path")]
    assert len(lines) == len(BOARD.borders) + len(BOARD.dotted_links)
    last_line = max(elements.index(e) for e in lines)
    plates: list[tuple[float, float, float, float]] = []
    for region in BOARD.regions:
        group = next(g for g in root.iter(SVG + "g") if g.get("id") == region.id)
        text = " ".join("".join(t.itertext()) for t in group.iter(SVG + "text"))
        here = state.regions[region.id]
        assert region.name in text and f"castellers {here.castellers}" in text
        for tile in here.performance_tiles:
            assert tile in text
        for space in state.festivals:
            if space.region == region.id:
                assert f"{space.location}: round {space.round}" in text
        plate = next(r for r in group.iter(SVG + "rect") if r.get("class") == "label")
        # the plate (and its text after it) is drawn over every border line
        assert elements.index(plate) > last_line
        plates.append(_box(plate))
        circle = group.find(SVG + "circle")
        assert circle is not None
    for index, a in enumerate(plates):  # no label covers another
        for b in plates[index + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])
    pawns = next(g for g in root.iter(SVG + "g") if g.get("id") == "pawns")
    drawn = sorted(str(c.get("data-player")) for c in pawns.iter(SVG + "circle"))
    assert drawn == sorted(p.name for p in state.players if p.pawn is not None)


def test_board_labels_are_clear_of_the_circles(tmp_path: Path) -> None:
    target = tmp_path / "map.svg"
    assert castell("board", "--svg", str(target)).exit_code == 0
    root = ET.parse(target).getroot()
    centres = [(float(c.get("cx", 0)), float(c.get("cy", 0)))
               for g in root.iter(SVG + "g") for c in g.findall(SVG + "circle")]
    for rect in root.iter(SVG + "rect"):
        if rect.get("class") != "label":
            continue
        x0, y0, x1, y1 = _box(rect)
        for cx, cy in centres:
            nearest = (min(max(cx, x0), x1) - cx) ** 2 + (min(max(cy, y0), y1) - cy) ** 2
            assert nearest >= 34 ** 2, "a label covers a region's circle"


def test_a_whole_bag_towers_caption_is_never_cut(tmp_path: Path) -> None:
    target = tmp_path / "tower.svg"
    tower = "10x15/9x14/8x13/7x12/6x11/5x10/4x9/3x8/2x7/1x6"
    castell("verify", tower, "--skills", "width=9,base=9", "--svg", str(target))
    root = ET.parse(target).getroot()
    width = float(root.get("width", 0))
    caption = [t for t in root.iter(SVG + "text") if "/" in "".join(t.itertext())][-1]
    text = "".join(caption.itertext())
    drawn = sum(ADVANCE.get(c, 0.7) for c in text) * float(caption.get("font-size", 14))
    centre = float(caption.get("x", 0))
    assert re.fullmatch(r"[0-9,/]+", text)
    assert centre - drawn / 2 >= 0 and centre + drawn / 2 <= width
