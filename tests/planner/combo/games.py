"""Game positions for the solver tests, reached by the greedy bot from a seeded deal."""

from __future__ import annotations

import random

from models.combo import GameState, apply, load_deck, new_game
from planner.combo import Greedy


def position(seed: int, players: int = 2, turns: int = 0) -> GameState:
    """A sample-deck game after `turns` greedy actions (keys included)."""
    state = new_game(load_deck(), ["Ana", "Ben", "Cem", "Dee"][:players], seed, first="Ana")
    rng = random.Random(seed)
    greedy = Greedy()  # its position values kept over the game
    for _ in range(turns):
        state = apply(state, greedy(state, rng))
    return state


def before_last_turn(seed: int, players: int = 2) -> GameState:
    """The position where the player to move holds 8 cards (their last take is next)."""
    state = position(seed, players)
    rng = random.Random(seed)
    greedy = Greedy()
    while len(state.now.player.tableau) < 8 or state.now.key_used:
        state = apply(state, greedy(state, rng))
    return state
