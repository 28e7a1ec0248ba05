"""The Castell board as the page draws it (`web.castell.board_picture`, issue 52): tap targets
big enough for a thumb and apart, labels that cover no circle (so no pawn), no other label and
stay inside the map, pawns that stand apart inside their region."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.web.conftest import ROUND3, new_castell
from tests.web.load import play_to_round
from web.castell.board_picture import (
    CLASH,
    CLEAR,
    CROSSING,
    PAWN,
    TARGET,
    WIDTH,
    Box,
    Label,
    Point,
    Spot,
    _crosses,
    candidates,
    layout,
    overlaps,
    pawn_places,
    place_labels,
    places,
    touches,
)

PHONE_MAP = 360 - 2 * 8  # the map's width on a 360 px phone (the page's side padding: 8 px)


def _map(path: Path) -> dict:
    from service.castell import Game
    from web.castell.content import context

    return context(Game.load(path), path.name)["map"]


@pytest.mark.parametrize("game", ["fresh", "round3", "round5"])
def test_the_map_keeps_its_labels_clear(tmp_path: Path, game: str) -> None:
    """Round 5 of a 3-player game played by `play_to_round`: Alt Pirineu, at the top of the
    map, has a festival and its label found room only above the map (it was drawn at y -55,
    outside the picture, before the map could grow upwards)."""
    if game == "round3":
        path = ROUND3
    elif game == "round5":
        path = new_castell(tmp_path, players="Anna,Biel,Carla")
        play_to_round(path, 5)
    else:
        path = new_castell(tmp_path, players="Anna,Biel,Carla,Dani")
    drawn = _map(path)
    spots: list[Spot] = drawn["regions"]
    boxes = [s.label.box for s in spots]
    top, bottom = drawn["top"], drawn["top"] + drawn["height"]
    for spot in spots:
        box = spot.label.box
        assert box[0] >= 0 and box[2] <= WIDTH and box[1] >= top and box[3] <= bottom
        assert not any(touches(box, (o.x, o.y), CLEAR) for o in spots), spot.id
    for a, b in itertools.combinations(boxes, 2):
        assert not overlaps(a, b), (a, b)


def test_map_targets_are_a_thumb_wide_and_apart(tmp_path: Path) -> None:
    spots: list[Spot] = _map(new_castell(tmp_path))["regions"]
    assert 2 * TARGET * PHONE_MAP / WIDTH >= 44
    for a, b in itertools.combinations(spots, 2):
        assert math.dist((a.x, a.y), (b.x, b.y)) >= 2 * TARGET + 8, (a.id, b.id)


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 6])
def test_pawns_stand_apart_inside_their_region(count: int) -> None:
    places = pawn_places(100, 100, count)
    assert len(places) == count
    for x, y in places:
        assert math.dist((x, y), (100, 100)) + PAWN <= CLEAR  # no label reaches it
    for a, b in itertools.combinations(places, 2):
        assert math.dist(a, b) >= 2 * PAWN - 1  # none over another


def test_a_crowded_label_makes_the_map_taller_not_overlapping() -> None:
    """Two regions side by side with long names: the labels find places apart."""
    spots = [Spot("a", "A", 120, 150, Label("A very long region", ["\u2605 Town 7,8"], [9, 8, 7])),
             Spot("b", "B", 240, 150, Label("Another long one", [], [10, 6, 5, 4, 3]))]
    top, height = layout(spots, [("a", "b")], 300)
    assert top <= 0 and height >= 300
    assert not overlaps(spots[0].label.box, spots[1].label.box)


def _plain_labels(spots: list[Spot], lines: list[tuple[Point, Point]], top: float,
                  bottom: float) -> list[Box]:
    """The reference: every place of every label costed in full, in each pass (what
    `place_labels` computes with its fixed costs counted once and hopeless places skipped)."""
    centres = [(s.x, s.y) for s in spots]
    first: list[str] = []
    for _ in range(4):
        order = sorted(spots, key=lambda s: (s.id not in first, -s.label.size[0]))
        boxes: list[Box] = []
        clashing: list[str] = []
        for spot in order:
            costs = []
            for rank, box in enumerate(candidates((spot.x, spot.y), spot.label.size)):
                clashes = (sum(touches(box, c, CLEAR) for c in centres)
                           + sum(overlaps(box, o) for o in boxes)
                           + (box[1] < top + 1 or box[3] > bottom - 1))
                crossed = sum(_crosses(a, b, box) for a, b in lines)
                costs.append((clashes * CLASH + crossed * CROSSING + rank, box))
            cost, box = min(costs)
            spot.label.box = box
            boxes.append(box)
            if cost >= CLASH:
                clashing.append(spot.id)
        if not clashing:
            break
        first = clashing + [k for k in first if k not in clashing]
    return [s.label.box for s in spots]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(40, 320), st.floats(40, 300), st.integers(3, 18),
                          st.integers(0, 2), st.lists(st.integers(1, 10), max_size=5)),
                min_size=2, max_size=7),
       st.floats(0, 90), st.floats(300, 420))
def test_the_labels_are_placed_as_the_plain_reference_places_them(
        regions: list[tuple[float, float, int, int, list[int]]], up: float,
        bottom: float) -> None:
    def spots() -> list[Spot]:
        return [Spot(f"r{i}", "", x, y, Label("n" * name, ["\u2605 Town 7"] * festivals,
                                                   sorted(pool, reverse=True)))
                for i, (x, y, name, festivals, pool) in enumerate(regions)]

    fast, plain = spots(), spots()
    where = {s.id: (s.x, s.y) for s in fast}
    links = [(f"r{i}", f"r{i + 1}") for i in range(len(regions) - 1)]
    lines = [(where[a], where[b]) for a, b in links]
    place_labels(fast, places(fast, lines), -up, bottom)
    assert [s.label.box for s in fast] == _plain_labels(plain, lines, -up, bottom)
