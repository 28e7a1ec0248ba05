"""The advisor's value switch and wider shortlist, and the advisor bot: the margin is the score
minus the opponent's in the same completion, blind to the hidden deck order, and the bot is
deterministic for its generator and plays only legal actions."""

from __future__ import annotations

import random

import pytest

from models.combo import LOCATIONS, GameState, Take, apply, legal_actions
from models.errors import SpecError
from planner.combo import advise, advisor_bot
from planner.combo.bots import rate_takes
from tests.planner.combo.games import position


def _mid() -> GameState:
    return position(6, turns=8)


def test_margin_is_the_score_less_the_opponents_in_the_same_completions() -> None:
    state = _mid()
    score = advise(state, samples=2, seed=3, candidates=3)
    margin = advise(state, samples=2, seed=3, candidates=3, value="margin")
    by_action = {str(a.action): a.values for a in score.ranking}
    assert {str(a.action) for a in margin.ranking} == set(by_action)
    for item in margin.ranking:
        mine = by_action[str(item.action)]
        shared = min(len(mine), len(item.values))
        assert shared >= 1
        # the same sampled deal and the same play: the difference is the opponent's final
        # score in that completion, a whole number of points, never negative
        for own, diff in zip(mine[:shared], item.values[:shared], strict=True):
            opponent = own - diff
            assert opponent >= 0 and opponent == int(opponent)


def test_margin_advice_is_blind_to_the_hidden_deck_order() -> None:
    state = _mid()
    planted = state.model_copy(deep=True)
    rng = random.Random(7)
    for location in LOCATIONS:
        rng.shuffle(planted.now.decks[location])
    planted.seed = state.seed + 99
    a = advise(state, samples=2, seed=2, candidates=4, value="margin", spread=True)
    b = advise(planted, samples=2, seed=2, candidates=4, value="margin", spread=True)
    assert [x.as_dict() for x in a.ranking] == [x.as_dict() for x in b.ranking]


def test_unknown_value_is_refused() -> None:
    with pytest.raises(SpecError, match="value"):
        advise(_mid(), samples=1, value="mean")  # type: ignore[arg-type]


def test_spread_shortlist_takes_each_way_of_taking_a_card_before_a_second_cell() -> None:
    state = _mid()
    keep = 5
    advice = advise(state, samples=1, seed=0, candidates=keep, spread=True, reasons=False)
    takes = [a.action for a in advice.ranking if isinstance(a.action, Take)]
    rated = sorted(rate_takes(state), key=lambda r: -r.value)
    best_of_way: dict[tuple[object, ...], Take] = {}
    for r in rated:
        t = r.action
        assert isinstance(t, Take)
        best_of_way.setdefault((t.card, t.face_down, t.neighbour, t.choices, t.discards), t)
    expected = list(best_of_way.values())[:keep]
    assert len(takes) == min(keep, len(rated))
    assert set(expected) <= set(takes)  # every way gets its best cell before any second cell
    if len(best_of_way) >= keep:
        assert set(takes) == set(expected)


def test_the_bot_is_deterministic_for_its_generator_and_legal() -> None:
    bot = advisor_bot(2, candidates=4, value="margin", spread=True)
    state = position(9, turns=3)
    for _ in range(4):
        first = bot(state, random.Random(11))
        assert first == bot(state, random.Random(11))
        assert first in legal_actions(state)
        state = apply(state, first)
        state = apply(state, legal_actions(state)[-1])
