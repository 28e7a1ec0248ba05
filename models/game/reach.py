"""Which festival a player can still get to: the festivals not held yet whose region their pawn
can reach in time (used by tower questions asked of a game, `best --state`)."""

from __future__ import annotations

from models.game.board import Board
from models.game.regions import graph_of
from models.game.state import FestivalSpace, GameState


def next_reachable_festival(state: GameState, board: Board, name: str) -> FestivalSpace | None:
    """The first festival not held yet whose region the player's pawn can reach by then: a
    move each turn, and a special move while they have tokens (an off-board pawn's first
    move goes anywhere)."""
    player = state.player(name)
    graph = graph_of(board)
    for space in sorted(state.festivals, key=lambda f: f.round):
        if space.resolved or space.round < state.round:
            continue
        turns = space.round - state.round + 1
        if state.round == space.round and state.turn_order.index(name) < \
                state.turn_order.index(state.turn.player):
            turns = 0  # their turn in the festival's round has been played
        moves = turns + min(turns, player.special_tokens)
        if player.pawn is None:
            if moves >= 1:
                return space
            continue
        if graph.distance(player.pawn, space.region) <= moves:
            return space
    return None
