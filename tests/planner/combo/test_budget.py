"""Castle Combo's budget: the advisor bot's counts and the bots' cache size, passed down."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from models.combo import load_deck, new_game
from planner.combo.advisor import advisor_bot
from planner.combo.budget import DEFAULT_COMBO, ComboBudget


def test_a_negative_budget_is_refused() -> None:
    with pytest.raises(ValueError, match=r"ComboBudget\.max_cached"):
        ComboBudget(max_cached=-1)


def test_the_advisor_bot_plays_on_the_budget_it_is_given() -> None:
    state = new_game(load_deck(), ["Ana", "Ben"], 3)
    lean = replace(DEFAULT_COMBO, bot_samples=1, bot_candidates=2)
    first = advisor_bot(budget=lean)(state, random.Random(1))
    again = advisor_bot(samples=1, candidates=2)(state, random.Random(1))
    assert first == again  # the same bot: the budget's counts or the same counts given
