"""The referee's position copy: equal to a deep copy, and nothing it holds is shared with the
original except the placed cards (which nothing changes in place)."""

from __future__ import annotations

import random

from models.combo import apply, legal_actions, load_deck, new_game
from models.combo.referee import copy_table


def test_copy_table_equals_a_deep_copy_and_applying_leaves_the_original_as_it_was() -> None:
    state = new_game(load_deck(), ["Ana", "Ben", "Cem"], 4)
    rng = random.Random(4)
    while not state.now.game_over:
        before = state.now.model_copy(deep=True)
        copy = copy_table(state.now)
        assert copy == state.now
        for name in ("decks", "discard", "rows"):
            for location, cards in getattr(copy, name).items():
                assert cards is not getattr(state.now, name)[location]
        assert copy.dead is not state.now.dead
        for mine, theirs in zip(copy.players, state.now.players, strict=True):
            assert mine is not theirs and mine.tableau is not theirs.tableau
            assert mine.purses is not theirs.purses
        after = apply(state, rng.choice(legal_actions(state)))
        assert state.now == before  # the referee changed only its copy
        state = after
