"""The quick path of `arrange`: the upper bound never below the exhaustive optimum, the local
search's points re-scored by the rules core, and the quick answer on the sample deck."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from models.combo import Deck, Slot, load_deck
from planner.combo import (
    ArrangeQuestion,
    Engine,
    Limits,
    Status,
    arrange_exhaustive,
    arrangement_question,
    best_arrangement,
)
from planner.combo.arrange import _canonical, _Model
from planner.combo.arrange_bound import PointTable, local_search, upper_bound
from planner.combo.question import SIDE, grid_of
from tests.planner.combo.strategies import nine_cards


def _bound_holds(q: ArrangeQuestion) -> None:
    table = PointTable(q)
    bound = upper_bound(q, table)
    found = local_search(q, table, bound)
    assert found is not None
    points, cells = found
    best = arrange_exhaustive(q)
    assert best.total is not None
    optimum = best.total - q.constant()  # the reference's placement points
    assert points <= optimum <= bound
    # the local search's points are what the rules core gives its arrangement
    grid = grid_of({divmod(i, SIDE): q.slots[u] for i, u in enumerate(cells)})
    assert q.placement_points(q.sheet(grid)) == points


@settings(max_examples=12)
@given(nine_cards(), st.data())
def test_bound_is_never_below_the_exhaustive_optimum(cards: tuple[Deck, list[Slot]],
                                                     data: st.DataObject) -> None:
    deck, slots = cards
    pinned = data.draw(st.sampled_from([{}, {slots[0].card: (1, 1)},
                                        {slots[1].card: (0, 0), slots[2].card: (0, 1)}]))
    offsets = data.draw(st.sampled_from([((0, 0),), ((0, 0), (0, 1), (1, 0))]))
    _bound_holds(arrangement_question(deck, slots, keys=1, gold=2, pinned=pinned,
                                      offsets=offsets))


def test_sample_deck_mostly_answered_without_a_model() -> None:
    deck = load_deck()
    rng = random.Random(11)
    engines = []
    for _ in range(6):
        q = arrangement_question(deck, [Slot(c.id) for c in rng.sample(deck.cards, 9)],
                                 keys=rng.randint(0, 3), gold=rng.randint(0, 12))
        _bound_holds(q)
        result = best_arrangement(q)
        assert result.status is Status.OPTIMAL and result.bound == result.total
        assert result.total == best_arrangement(q, engine=Engine.CPSAT).total
        engines.append(result.engine)
    assert "bound" in engines  # (6 of these 6 sets, when written)


# nine sample cards whose optimum is 2 points below the quick bound, so CP-SAT must prove it
BELOW_BOUND = ["C05", "V25", "V04", "C27", "C17", "V34", "V35", "V14", "C14"]


def test_cpsat_after_the_local_search_agrees_with_the_reference() -> None:
    deck = load_deck()
    q = arrangement_question(deck, [Slot(i) for i in BELOW_BOUND], keys=1, gold=4)
    table = PointTable(q)
    assert local_search(q, table, upper_bound(q, table))[0] < upper_bound(q, table)  # type: ignore[index]
    result = best_arrangement(q)
    assert result.engine == "cpsat" and result.status is Status.OPTIMAL
    assert result.total == result.bound == arrange_exhaustive(q).total
    assert result.grid is not None and q.sheet(result.grid).total == result.total


def test_limit_before_the_proof_keeps_the_local_search_answer() -> None:
    deck = load_deck()
    # the bound is not met here, and 0.001 units of CP-SAT prove nothing
    q = arrangement_question(deck, [Slot(i) for i in BELOW_BOUND], keys=0, gold=0)
    result = best_arrangement(q, Limits(deterministic_time=0.001))
    assert result.status is Status.FEASIBLE and result.grid is not None
    assert result.bound is not None and result.total is not None
    assert q.sheet(result.grid).total == result.total < result.bound
    assert result.bound >= arrange_exhaustive(q).total  # type: ignore[operator]


def test_hint_made_canonical_keeps_its_score_and_the_symmetry_constraints() -> None:
    deck = load_deck()
    rng = random.Random(3)
    for _ in range(5):
        q = arrangement_question(deck, [Slot(c.id) for c in rng.sample(deck.cards, 9)],
                                 keys=0, gold=0)
        built = _Model(q)
        grid = q.any_grid()
        rows = list(grid.rows)
        rng.shuffle(rows)  # any arrangement
        shuffled = grid_of({(r, c): s for r, row in enumerate(rows) for c, s in enumerate(row)
                            if s is not None})
        canonical = _canonical(shuffled, built.up)
        assert q.sheet(canonical).total == q.sheet(shuffled).total or not built.break_symmetry()
        if built.up:
            assert canonical.find(built.up[0].id) == (0, 0)
        if len(built.up) > 1:
            r, c = canonical.find(built.up[1].id)
            assert r < SIDE - 1 and c < SIDE - 1
