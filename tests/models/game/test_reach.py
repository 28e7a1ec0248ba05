"""`next_reachable_festival`: reach walked on `move_targets` under the game's readings, the
player named as typed, and only the turns the player still has."""

from __future__ import annotations

import pytest

from models.errors import SpecError
from models.game import (
    FestivalSpace,
    GameState,
    load_board,
    load_state,
    move_targets,
    next_reachable_festival,
)
from models.tower import STANDARD, rules_named

BOARD = load_board(None)
ROUND3 = "examples/game/round3.json"
ANY = rules_named("standard,special_move=any")
FAR, GIRONA = "terres-de-lebre", "girona"  # three moves apart on the default board


def _state(pawn: str | None, tokens: int, festival_round: int, to_move: str = "Anna"
           ) -> GameState:
    """Round 3 with `to_move` to play, Anna's pawn at `pawn` holding `tokens` special tokens,
    and one festival, in Girona at the end of `festival_round`."""
    state = load_state(ROUND3).without_history()
    players = [p.model_copy(update={"pawn": pawn, "special_tokens": tokens})
               if p.name == "Anna" else p for p in state.players]
    space = FestivalSpace(round=festival_round, location="Girona", region=GIRONA, type="I",
                          size_tokens=[7])
    return state.model_copy(update={
        "players": players, "festivals": [space],
        "turn": state.turn.model_copy(update={"player": to_move})})


def test_a_special_move_anywhere_reaches_a_far_festival_with_one_token() -> None:
    # one turn left: a Move and one special move. Adjacent: two steps, not the three needed;
    # special_move=any: the special move goes straight there (as move_targets says)
    state = _state(FAR, 1, 3)
    assert GIRONA in move_targets(BOARD, ANY, FAR, special=True)
    assert next_reachable_festival(state, BOARD, "Anna", STANDARD) is None
    found = next_reachable_festival(state, BOARD, "Anna", ANY)
    assert found is not None and found.region == GIRONA


def test_no_token_no_special_move_even_under_any() -> None:
    assert next_reachable_festival(_state(FAR, 0, 3), BOARD, "Anna", ANY) is None


def test_moves_and_special_moves_add_up_over_the_turns() -> None:
    # two turns (rounds 3 and 4) with one token: Move, Move, special move = three steps
    assert next_reachable_festival(_state(FAR, 1, 4), BOARD, "Anna", STANDARD) is not None
    assert next_reachable_festival(_state(FAR, 0, 4), BOARD, "Anna", STANDARD) is None


def test_a_turn_already_played_this_round_is_not_counted() -> None:
    # Carla to move: Anna has played round 3, so only her round 4 turn is left before a
    # round 4 festival (a Move and a special move: two steps, not three); it was counted
    # as two turns before
    assert next_reachable_festival(_state(FAR, 1, 4, to_move="Carla"), BOARD, "Anna",
                                   STANDARD) is None
    assert next_reachable_festival(_state(FAR, 1, 5, to_move="Carla"), BOARD, "Anna",
                                   STANDARD) is not None


def test_an_off_board_pawn_goes_anywhere_with_its_first_move() -> None:
    found = next_reachable_festival(_state(None, 0, 3), BOARD, "Anna", STANDARD)
    assert found is not None and found.region == GIRONA
    # and with no turn left it goes nowhere
    assert next_reachable_festival(_state(None, 5, 3, to_move="Carla"), BOARD, "Anna",
                                   STANDARD) is None


def test_standing_at_the_festival_is_reaching_it() -> None:
    state = _state(GIRONA, 0, 3, to_move="Carla")
    assert next_reachable_festival(state, BOARD, "Anna", STANDARD) is not None


@pytest.mark.parametrize("typed", ["anna", "ANNA", " Anna "])
def test_the_player_is_named_as_typed(typed: str) -> None:
    state = load_state(ROUND3)
    assert next_reachable_festival(state, BOARD, typed, STANDARD) == \
        next_reachable_festival(state, BOARD, "Anna", STANDARD)


def test_an_unknown_player_is_bad_input() -> None:
    with pytest.raises(SpecError, match="no player 'Zoe'"):
        next_reachable_festival(load_state(ROUND3), BOARD, "Zoe", STANDARD)
