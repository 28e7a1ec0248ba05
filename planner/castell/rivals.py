"""The greedy bot as the win goal's model of a rival (`planner.turns.Rivals`): a rival to move
plays the greedy bot's turn from what they see, every step through the referee."""

from __future__ import annotations

from dataclasses import dataclass

from models.game import Board, GameState
from planner.castell.greedy import WEIGHTS, Weights, greedy_turn
from planner.castell.turn import Turn, play_turn
from planner.turns import RivalTurn


@dataclass(frozen=True)
class GreedyRivals:
    """Rivals who play the greedy bot's turns (`weights`: its weights)."""

    weights: Weights = WEIGHTS

    def turn(self, state: GameState, board: Board) -> Turn:
        return greedy_turn(state, board, self.weights)

    def play(self, state: GameState, board: Board, turn: RivalTurn) -> GameState:
        return play_turn(state, board, Turn(turn.actions, turn.towers)).state


GREEDY_RIVALS = GreedyRivals()
