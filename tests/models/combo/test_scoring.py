"""End scoring: a hand-built case per scoring form and scope, face-down cards, purses (the
allocator against exhaustive allocation), keys and the tie-break."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.combo import (
    Deck,
    FinalScore,
    Grid,
    Purse,
    allocate,
    allocate_exhaustive,
    score_tableau,
    winners,
)
from models.errors import SpecError
from tests.models.combo.builders import card, deck

# The hand-built tableau (G face down):     A B C
#                                           D E F
#                                           G H I
GRID = "A,B,C/D,E,F/~G,H,I"
# Face-up shields: nobility 3 (A2 F1), peasantry 3 (B1 D2), faith 2 (C H), scholarship 1 (E),
# craftsmanship 1 (H), military 0 (only on the face-down G). Castle banners face up: A C E I;
# village: B D F H. Costs: A3 B0 C5 D2 E7 F0 G0 H4 I6; discounts: C (and face-down G).
CARDS: dict[str, dict[str, Any]] = {
    "A": card("A", "castle", 3, ("nobility", "nobility")),
    "B": card("B", "village", 0, ("peasantry",)),
    "C": card("C", "castle", 5, ("faith",), discount=["village"]),
    "D": card("D", "village", 2, ("peasantry", "peasantry")),
    "E": card("E", "castle", 7, ("scholarship",)),
    "F": card("F", "village", 0, ("nobility",)),
    "G": card("G", "castle", 0, ("military",), discount=["castle"],
              score={"points": 9, "per": "key"}),
    "H": card("H", "village", 4, ("craftsmanship", "faith")),
    "I": card("I", "castle", 6),
}


def _deck(scorer: str, score: dict[str, Any], grid: str = GRID) -> tuple[Deck, Grid]:
    cards = {k: dict(v) for k, v in CARDS.items()}
    cards[scorer]["score"] = score
    return deck(*cards.values()), Grid.parse(grid)


def _points_of(scorer: str, score: dict[str, Any], grid: str = GRID, keys: int = 0) -> int:
    d, g = _deck(scorer, score, grid)
    sheet = score_tableau(g, d, keys=keys)
    return next(c.counted for c in sheet.cards if c.card == scorer)


# (scroll on the centre card E, what it counts) -- each derived by hand from the picture above
CENTRE = [
    ({"per": "shield", "shield": "nobility"}, 3),
    ({"per": "shield", "shield": "nobility", "scope": "row"}, 1),  # D E F: F's nobility
    ({"per": "shield", "shield": "nobility", "scope": "column"}, 0),  # B E H
    ({"per": "shield", "shield": "peasantry", "scope": "cross"}, 3),  # B D E F H: B1 D2
    ({"per": "shield", "shield": "scholarship", "scope": "cross"}, 1),  # itself, counted once
    ({"per": "shield", "shield": "military"}, 0),  # only on the face-down G
    ({"per": "shield_type"}, 5),
    ({"per": "shield_type", "scope": "row"}, 3),  # peasantry scholarship nobility
    ({"per": "shield_type", "scope": "column"}, 4),  # peasantry scholarship craftsm. faith
    ({"per": "shield_type", "scope": "cross"}, 5),
    ({"per": "missing_shield_type"}, 1),  # military
    ({"per": "shield_set", "shields": ["nobility", "peasantry"]}, 3),
    ({"per": "shield_set", "shields": ["peasantry", "peasantry", "faith"]}, 1),  # 3//2, 2
    ({"per": "shield_set", "shields": ["military", "faith"]}, 0),
    ({"per": "identical_shields", "size": 2}, 3),  # nob 1 + peas 1 + faith 1
    ({"per": "identical_shields", "size": 3}, 2),  # nob 1 + peas 1
    ({"per": "banner", "location": "castle"}, 4),  # A C E I (G face down)
    ({"per": "banner", "location": "village", "scope": "row"}, 2),  # D F
    ({"per": "banner_set", "locations": ["castle", "village"]}, 4),
    ({"per": "banner_set", "locations": ["castle", "castle", "village"]}, 2),
    ({"per": "card_with_cost", "cost": 0}, 2),  # B F (G face down)
    ({"per": "card_with_cost", "cost": 5, "or_more": True}, 3),  # C E I
    ({"per": "card_with_cost", "cost": 4}, 1),  # H
    ({"per": "card_with_shields", "count": 2}, 3),  # A D H
    ({"per": "card_with_shields", "count": 0}, 1),  # I
    ({"per": "card_with_shields", "count": 1, "scope": "column"}, 2),  # B E
    ({"per": "card_with_discount"}, 1),  # C (G face down)
    ({"if": "position", "cells": ["centre"]}, 1),
    ({"if": "position", "cells": ["top-left", "top-right", "bottom-left", "bottom-right"]}, 0),
    ({"if": "shield_missing", "shield": "military"}, 1),  # G's military is hidden
    ({"if": "shield_missing", "shield": "faith"}, 0),
    ({"if": "face_down"}, 1),
]


@pytest.mark.parametrize(("form", "counted"), CENTRE, ids=lambda v: str(v)[:50])
def test_each_form_on_the_centre_card(form: dict[str, Any], counted: int) -> None:
    assert _points_of("E", {"points": 2, **form}) == counted
    d, g = _deck("E", {"points": 2, **form})
    sheet = score_tableau(g, d)
    assert next(c.points for c in sheet.cards if c.card == "E") == 2 * counted


# The corner A (top-left): row A B C, column A D G (G face down), cross A B C D.
# The corner I (bottom-right): row G H I, column C F I.
@pytest.mark.parametrize(("scorer", "form", "counted"), [
    ("A", {"per": "banner", "location": "castle", "scope": "row"}, 2),  # A C
    ("A", {"per": "banner", "location": "castle", "scope": "column"}, 1),  # A (G face down)
    ("A", {"per": "shield", "shield": "nobility", "scope": "cross"}, 2),  # A's own two
    ("A", {"per": "shield_type", "scope": "cross"}, 3),  # nobility peasantry faith
    ("A", {"if": "position", "cells": ["top-left"]}, 1),
    ("I", {"per": "shield_type", "scope": "row"}, 2),  # H: craftsmanship, faith
    ("I", {"per": "card_with_cost", "cost": 0, "scope": "column"}, 1),  # F
    ("I", {"per": "card_with_shields", "count": 0, "scope": "cross"}, 1),  # itself
    ("I", {"if": "position", "cells": ["bottom-right"]}, 1),
    ("I", {"if": "position", "cells": ["bottom"]}, 0),
    ("B", {"per": "banner", "location": "village", "scope": "cross"}, 2),  # A B C + E H: B H
])
def test_edges_and_corners(scorer: str, form: dict[str, Any], counted: int) -> None:
    assert _points_of(scorer, {"points": 1, **form}) == counted


def test_face_down_cards_score_nothing_and_carry_nothing() -> None:
    d, g = _deck("E", {"points": 1, "per": "key"})
    sheet = score_tableau(g, d, keys=4)
    down = next(c for c in sheet.cards if c.card == "G")
    assert down.face_down and down.points == 0  # its own scroll (9 per key) is hidden
    # E's 4 points, plus 4 keys
    assert sheet.total == 4 + 4
    face_up = Grid.parse(GRID.replace("~G", "G"))
    assert _points_of("E", {"points": 1, "if": "face_down"}, str(face_up)) == 0
    assert _points_of("E", {"points": 1, "per": "missing_shield_type"}, str(face_up)) == 0


def _purse_deck() -> Deck:
    return deck(card("P", "castle", 0, score={"points": 2, "per": "purse_gold", "capacity": 5}),
                card("Q", "village", 0, score={"points": 3, "per": "purse_gold", "capacity": 2}),
                card("R", "castle", 0, score={"points": 1, "per": "all_purse_gold"}),
                card("S", "castle", 0, score={"points": 1, "per": "key"}))


def test_leftover_gold_fills_the_best_purses_first() -> None:
    d = _purse_deck()
    # Q pays 3+1 (bonus of R) per gold, room 2; P pays 2+1, room 5-1 = 4: gold 7 -> Q 2, P 4,
    # 1 left. Purse points: P 5 gold x2 = 10, Q 2 x3 = 6, R 1 x 7 gold on purses = 7; keys 3
    # and S scores 3 (1 per key): 10 + 6 + 7 + 3 + 3 = 29.
    sheet = score_tableau(Grid.parse("P,Q,-/R,S,-/-,-,-"), d, keys=3, gold=7, stored={"P": 1})
    assert sheet.purses == {"P": 5, "Q": 2}
    assert sheet.added == {"P": 4, "Q": 2}
    assert sheet.gold_left == 1
    assert sheet.total == 29


def test_face_down_purses_hold_nothing_and_stored_gold_is_checked() -> None:
    d = _purse_deck()
    sheet = score_tableau(Grid.parse("~P,Q,-/-,-,-/-,-,-"), d, gold=10)
    assert sheet.purses == {"Q": 2} and sheet.gold_left == 8
    with pytest.raises(SpecError, match="not a face-up purse"):
        score_tableau(Grid.parse("~P,Q,-/-,-,-/-,-,-"), d, stored={"P": 1})
    with pytest.raises(SpecError, match=r"holds 0\.\.2"):
        score_tableau(Grid.parse("P,Q,-/-,-,-/-,-,-"), d, stored={"Q": 3})
    with pytest.raises(SpecError, match="not in the tableau"):
        score_tableau(Grid.parse("P,-,-/-,-,-/-,-,-"), d, stored={"Q": 1})
    with pytest.raises(SpecError, match="gold must be"):
        score_tableau(Grid.parse("P,-,-/-,-,-/-,-,-"), d, gold=-1)
    with pytest.raises(SpecError, match="not connected"):
        score_tableau(Grid.parse("P,-,Q/-,-,-/-,-,-"), d)
    with pytest.raises(SpecError, match="no card 'Z'"):
        score_tableau(Grid.parse("P,Z,-/-,-,-/-,-,-"), d)


purses = st.lists(st.tuples(st.integers(-3, 5), st.integers(0, 4)), min_size=0, max_size=4)


@settings(max_examples=300)
@given(purses, st.integers(-3, 3), st.integers(0, 12))
def test_allocator_equals_exhaustive_allocation(spec: list[tuple[int, int]], bonus: int,
                                                gold: int) -> None:
    items = [Purse(f"P{i}", rate, room) for i, (rate, room) in enumerate(spec)]
    fast = allocate(items, bonus, gold)
    slow = allocate_exhaustive(items, bonus, gold)
    assert (fast.points, fast.gold_left) == (slow.points, slow.gold_left)
    assert sum(fast.added.values()) + fast.gold_left == gold
    assert all(0 <= fast.added.get(p.card, 0) <= p.room for p in items)


def _sheet(total_points: int, gold_left: int) -> Any:
    class Sheet:
        total = total_points

    sheet = Sheet()
    sheet.gold_left = gold_left  # type: ignore[attr-defined]
    return sheet


def test_tie_break_is_leftover_gold_then_shared() -> None:
    scores = [FinalScore("Ana", _sheet(30, 2)), FinalScore("Ben", _sheet(30, 5)),
              FinalScore("Cem", _sheet(29, 9))]
    assert winners(scores) == ["Ben"]
    scores.append(FinalScore("Dee", _sheet(30, 5)))
    assert winners(scores) == ["Ben", "Dee"]
