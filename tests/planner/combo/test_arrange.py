"""The CP-SAT arrangement against the exhaustive reference, and the rules core's re-scoring."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.combo import Deck, Grid, Slot, load_deck
from models.errors import SpecError
from planner.combo import (
    ALL_CELLS,
    ArrangeQuestion,
    ArrangeResult,
    Engine,
    Status,
    arrange_exhaustive,
    arrangement_question,
    best_arrangement,
    offsets_for,
)
from planner.combo.question import checked
from tests.planner.combo.strategies import nine_cards


def _same(q: ArrangeQuestion) -> ArrangeResult:
    """The product engine (bound and local search, CP-SAT when they do not meet), the CP-SAT
    model alone and the exhaustive reference agree, each proven and re-scored."""
    fast, model, slow = (best_arrangement(q), best_arrangement(q, engine=Engine.CPSAT),
                         arrange_exhaustive(q))
    assert model.engine == "cpsat" and fast.engine in ("bound", "cpsat")
    for result in (fast, model, slow):
        assert result.status is Status.OPTIMAL
        assert result.total == slow.total == result.bound
        # the rules core scores the returned tableau to the reported total
        assert result.grid is not None and q.sheet(result.grid).total == result.total
    return fast


@settings(max_examples=8)
@given(nine_cards(), st.integers(0, 3), st.integers(0, 6))
def test_cpsat_equals_exhaustive_on_random_cards(cards: tuple[Deck, list[Slot]], keys: int,
                                                  gold: int) -> None:
    deck, slots = cards
    _same(arrangement_question(deck, slots, keys=keys, gold=gold))


@settings(max_examples=5)
@given(nine_cards(), st.data())
def test_pinned_cards_stay_where_pinned(cards: tuple[Deck, list[Slot]],
                                        data: st.DataObject) -> None:
    deck, slots = cards
    pinned_slots = data.draw(st.lists(st.sampled_from(slots), max_size=3, unique=True))
    cells = data.draw(st.lists(st.sampled_from(ALL_CELLS), min_size=len(pinned_slots),
                               max_size=len(pinned_slots), unique=True))
    pins = {s.card: cell for s, cell in zip(pinned_slots, cells, strict=True)}
    fast = _same(arrangement_question(deck, slots, keys=0, gold=0, pinned=pins))
    for card_id, cell in pins.items():
        assert fast.grid.find(card_id) == cell


def test_sample_deck_sets_and_a_tableau_in_progress() -> None:
    deck = load_deck()
    rng = random.Random(7)
    for _ in range(4):
        chosen = rng.sample(deck.cards, 9)
        slots = [Slot(c.id, rng.random() < 0.2) for c in chosen]
        _same(arrangement_question(deck, slots, keys=2, gold=9))
    # three cards already down in an L (relative cells), the rest free: every shift of the L
    chosen = rng.sample(deck.cards, 9)
    relative = {chosen[0].id: (0, 0), chosen[1].id: (0, 1), chosen[2].id: (1, 1)}
    offsets = offsets_for(relative.values())
    assert len(offsets) == 4  # a 2x2 box slides to 2 rows x 2 columns of places
    q = arrangement_question(deck, [Slot(c.id) for c in chosen], keys=1, gold=3, pinned=relative,
                 offsets=offsets)
    fast = _same(q)
    (r, c) = fast.grid.find(chosen[0].id)
    assert fast.grid.find(chosen[1].id) == (r, c + 1)
    assert fast.grid.find(chosen[2].id) == (r + 1, c + 1)


def test_bad_questions_are_refused() -> None:
    deck = load_deck()
    ids = [c.id for c in deck.cards[:9]]
    with pytest.raises(SpecError, match="9 cards"):
        arrangement_question(deck, [Slot(i) for i in ids[:8]], keys=0, gold=0)
    with pytest.raises(SpecError, match="twice"):
        arrangement_question(deck, [Slot(i) for i in [*ids[:8], ids[0]]], keys=0, gold=0)
    with pytest.raises(SpecError, match="same cell"):
        arrangement_question(deck, [Slot(i) for i in ids], keys=0, gold=0,
                 pinned={ids[0]: (0, 0), ids[1]: (0, 0)})


def test_stated_total_is_checked_by_the_rules_core() -> None:
    deck = load_deck()
    q = arrangement_question(deck, [Slot(c.id) for c in deck.cards[:9]], keys=0, gold=0)
    grid = q.any_grid()
    with pytest.raises(AssertionError):
        checked(q, grid, q.sheet(grid).total + 1)
    assert isinstance(Grid.parse(str(grid)), Grid)
