"""The skill wheel: one step a round, back after 8, each rotation a permutation of the tiles."""

from __future__ import annotations

import tomllib
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.game.actions import Train
from models.game.board import ALL_REGIONS, Board, board_from_dict, default_board_path, load_board
from models.game.referee import IllegalAction, apply, end_round, legal_actions
from models.game.setup import new_game
from models.game.wheel import offers, rotation_in_round, slot_tiles, where_offered
from models.tower import STANDARD

DEFAULT = load_board()


def wheel_board(direction: str = "clockwise", start_offset: int = 0) -> Board:
    data: dict[str, Any] = tomllib.loads(default_board_path().read_text(encoding="utf-8"))
    data["wheel"]["direction"] = direction
    data["wheel"]["start_offset"] = start_offset
    return board_from_dict(data)


CLOCKWISE = wheel_board("clockwise")
COUNTER = wheel_board("counterclockwise")
rotations = st.integers(min_value=-40, max_value=40)
offsets = st.integers(min_value=0, max_value=20)


def in_slot_order(board: Board, rotation: int) -> list[str]:
    tiles = slot_tiles(board, rotation)
    return [tiles[slot] for slot in board.wheel.slots]


def test_round_one_faces_the_tiles_in_order() -> None:
    # Default board, rotation 0: slot i faces tile i (start_offset 0), read off board.toml.
    assert slot_tiles(DEFAULT, 0) == {
        "all": "balance", "alt-pirineu-aran": "special", "girona": "base", "barcelona": "mix",
        "camp-de-tarragona": "special", "terres-de-lebre": "strength", "lleida": "width",
        "comarques-centrals": "special",
    }


@given(direction=st.sampled_from(["clockwise", "counterclockwise"]), offset=offsets,
       rotation=rotations)
def test_each_rotation_is_a_permutation_and_comes_back_after_8(direction: str, offset: int,
                                                               rotation: int) -> None:
    board = wheel_board(direction, offset)
    tiles = slot_tiles(board, rotation)
    assert set(tiles) == {*board.region_ids, ALL_REGIONS}
    assert Counter(tiles.values()) == Counter(board.wheel.tiles)
    assert slot_tiles(board, rotation + 8) == tiles
    assert slot_tiles(board, rotation - 8) == tiles


@given(rotation=rotations)
def test_the_wheel_turns_exactly_one_step(rotation: int) -> None:
    now = in_slot_order(CLOCKWISE, rotation)
    later = in_slot_order(CLOCKWISE, rotation + 1)
    # clockwise: each slot now faces the tile the next slot faced a round ago
    assert later == [*now[1:], now[0]]
    ccw_now = in_slot_order(COUNTER, rotation)
    ccw_later = in_slot_order(COUNTER, rotation + 1)
    # counterclockwise: the tile the previous slot faced
    assert ccw_later == [ccw_now[-1], *ccw_now[:-1]]


def test_from_the_same_start_the_two_directions_differ() -> None:
    assert slot_tiles(CLOCKWISE, 0) == slot_tiles(COUNTER, 0)
    # one round on, Girona faces Barcelona's round-1 tile (mix) one way and Alt Pirineu's
    # (special) the other
    assert slot_tiles(CLOCKWISE, 1)["girona"] == "mix"
    assert slot_tiles(COUNTER, 1)["girona"] == "special"


def test_a_full_turn_takes_exactly_8_rounds() -> None:
    # The default tiles hold each skill once, so no shorter turn brings the same faces back.
    start = slot_tiles(DEFAULT, 0)
    assert [k for k in range(1, 9) if slot_tiles(DEFAULT, k) == start] == [8]


@given(rotation=rotations)
def test_counterclockwise_is_clockwise_backwards(rotation: int) -> None:
    assert slot_tiles(COUNTER, rotation) == slot_tiles(CLOCKWISE, -rotation)
    assert slot_tiles(COUNTER, rotation) != slot_tiles(CLOCKWISE, rotation) or rotation % 8 in (
        0, 4)


@given(offset=offsets, rotation=rotations)
def test_start_offset_is_a_head_start(offset: int, rotation: int) -> None:
    assert slot_tiles(wheel_board("clockwise", offset), rotation) == \
        slot_tiles(CLOCKWISE, rotation + offset)


def test_rotation_in_round_is_one_step_a_round() -> None:
    assert [rotation_in_round(0, 1, r) for r in range(1, 11)] == list(range(10))
    assert rotation_in_round(5, 3, 3) == 5
    assert rotation_in_round(5, 3, 7) == 9


@given(rotation=rotations)
def test_offers_by_side(rotation: int) -> None:
    tiles = slot_tiles(DEFAULT, rotation)
    for region in DEFAULT.region_ids:
        standard = offers(DEFAULT, rotation, region, "standard")
        advanced = offers(DEFAULT, rotation, region, "advanced")
        assert advanced == [tiles[region]]
        assert tiles[region] in standard
        assert tiles[ALL_REGIONS] in standard
        assert set(standard) == {tiles[region], tiles[ALL_REGIONS]}
        assert len(standard) == len(set(standard))


# --- the referee follows the wheel --------------------------------------------------------------


def test_training_follows_the_turning_wheel() -> None:
    state = new_game(DEFAULT, 2, seed=3)
    state.players[0].pawn = "girona"
    # round 1: Girona faces base, All Regions faces balance (see the table above)
    assert {a.skill for a in legal_actions(state, DEFAULT, STANDARD) if isinstance(a, Train)} == \
        {"base", "balance"}
    with pytest.raises(IllegalAction, match="does not offer mix"):
        apply(state, DEFAULT, Train(skill="mix"), STANDARD)
    state = end_round(state, DEFAULT, STANDARD)
    assert (state.round, state.wheel_rotation) == (2, 1)
    state.players[0].pawn = "girona"
    # round 2, clockwise: Girona faces what Barcelona faced (mix), All Regions what Alt Pirineu
    # faced (special)
    assert {a.skill for a in legal_actions(state, DEFAULT, STANDARD) if isinstance(a, Train)} == \
        {"mix", "special"}
    trained = apply(state, DEFAULT, Train(skill="mix"), STANDARD)
    assert trained.players[0].ranks.mix == 1
    with pytest.raises(IllegalAction, match="does not offer base"):
        apply(state, DEFAULT, Train(skill="base"), STANDARD)


def test_advanced_side_offers_only_the_region_slot() -> None:
    state = new_game(DEFAULT, 2, seed=3)
    state.players[0].pawn = "girona"
    state.wheel_side = "advanced"
    with pytest.raises(IllegalAction, match="does not offer balance"):
        apply(state, DEFAULT, Train(skill="balance"), STANDARD)
    assert apply(state, DEFAULT, Train(skill="base"), STANDARD).players[0].ranks.base == 1
    offered = legal_actions(state, DEFAULT, STANDARD)
    assert [a.skill for a in offered if isinstance(a, Train)] == ["base"]


@pytest.mark.parametrize("rotation", range(8))
def test_where_offered_reads_the_slots(rotation: int) -> None:
    tiles = slot_tiles(DEFAULT, rotation)
    for tile in set(tiles.values()):
        in_region_slots = sorted(r for r in DEFAULT.region_ids if tiles[r] == tile)
        assert sorted(where_offered(DEFAULT, rotation, tile, "advanced")) == in_region_slots
        standard = where_offered(DEFAULT, rotation, tile, "standard")
        if tiles[ALL_REGIONS] == tile:
            assert sorted(standard) == sorted(DEFAULT.region_ids)
        else:
            assert sorted(standard) == in_region_slots
