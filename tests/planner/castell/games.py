"""Game states for the bots' tests: seeded deals played on by bots, every turn through the
referee."""

from __future__ import annotations

import random
from collections.abc import Sequence

from models.game import GameState, load_board, new_game
from planner.castell import BOTS, play_turn

BOARD = load_board()


def played(state: GameState, bots: Sequence[str], until_round: int,
           seed: int = 0) -> GameState:
    """`state` played on (seat i by bots[i], in turn order) until `until_round` begins or the
    game ends; a turn the referee refused a step of fails the test."""
    made = [BOTS[b]() for b in bots]
    rng = random.Random(seed)
    while not state.game_over and state.round < until_round:
        seat = state.turn_order.index(state.turn.player)
        turn = made[seat](state, BOARD, rng)
        result = play_turn(state, BOARD, turn)
        assert not result.refused, f"round {state.round}, {state.turn.player}: {turn}"
        state = result.state
    return state


def midgame(players: int = 3, seed: int = 1, until_round: int = 3) -> GameState:
    """A seeded deal played by greedy bots until `until_round` begins."""
    return played(new_game(BOARD, players, seed), ["greedy"] * players, until_round)
