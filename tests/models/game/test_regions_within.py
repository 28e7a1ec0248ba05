"""`regions_within`: where a pawn can stand after a turn, against the referee's own legal moves
walked exhaustively (a Move, the turn's special move, a special tile's free move)."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.game import (
    GameState,
    Move,
    Special,
    Train,
    apply,
    legal_actions,
    load_board,
    load_state,
    regions_within,
)
from models.tower import STANDARD

BOARD = load_board(None)
STATES = Path(__file__).parents[3] / "benchmarks" / "plan_states"


def _by_the_referee(state: GameState, name: str) -> set[str]:
    """Every region the pawn can end the turn in, walking the referee's legal moves, special
    moves and special tile trainings (nothing else moves a pawn)."""
    seen: set[str] = set()
    stack, visited = [state], set()
    while stack:
        here = stack.pop()
        pawn = here.player(name).pawn
        key = (pawn, here.turn.model_dump_json())
        if key in visited:
            continue
        visited.add(key)
        if pawn is not None:
            seen.add(pawn)
        for action in legal_actions(here, BOARD, STANDARD):
            moves = isinstance(action, Move) or (isinstance(action, Special)
                                                 and action.kind == "move")
            if moves or (isinstance(action, Train) and action.skill == "special"):
                stack.append(apply(here, BOARD, action, STANDARD, lambda *_: None))
    return seen


@pytest.mark.parametrize("name", ["example-round3.json", "p3-s31-r04.json", "p2-s23-r05.json"])
def test_one_turn_reaches_where_the_referee_goes(name: str) -> None:
    state = load_state(STATES / name, BOARD).without_history()
    player = state.turn.player
    assert regions_within(state, BOARD, player, STANDARD, 1)[0] == \
        _by_the_referee(state, player)
