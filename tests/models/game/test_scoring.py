"""End-of-game scoring (rules page section 6), on hand-computed examples."""

from __future__ import annotations

import pytest

from models.game.board import load_board
from models.game.scoring import CATEGORIES, score_game, score_player, size_token_points
from models.game.setup import new_game
from models.game.state import GameState, PlayerState

BOARD = load_board()
REGIONS = list(BOARD.region_ids)


def player(**fields: object) -> PlayerState:
    return PlayerState.model_validate({"name": "Anna", **fields})


# --- 1. best tower score ------------------------------------------------------------------------


def test_best_tower_is_the_score_track() -> None:
    card = score_player(player(best_tower_score=11), BOARD)
    assert card.best_tower == 11
    assert card.total == 11  # nothing else earned


# --- 2. region variety --------------------------------------------------------------------------


@pytest.mark.parametrize(("regions", "points"), [
    # the rules page's table, section 6
    (0, 0), (1, 0), (2, 1), (3, 3), (4, 5), (5, 7), (6, 10), (7, 14),
])
def test_region_variety_table(regions: int, points: int) -> None:
    card = score_player(player(earned_regions=REGIONS[:regions]), BOARD)
    assert card.region_variety == points
    assert card.total == points


def test_region_variety_counts_a_region_once() -> None:
    # lleida twice and girona: 2 distinct regions -> 1 point
    card = score_player(player(earned_regions=["lleida", "girona", "lleida"]), BOARD)
    assert card.region_variety == 1


# --- 3. prizes ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("prizes", "points"), [
    ({"trophy": 1}, 5),
    ({"medal": 1}, 3),
    ({"ribbon": 1}, 1),
    ({}, 0),
    # 2 trophies + 1 medal + 3 ribbons = 10 + 3 + 3
    ({"trophy": 2, "medal": 1, "ribbon": 3}, 16),
    ({"trophy": 0, "medal": 2}, 6),
])
def test_prizes(prizes: dict[str, int], points: int) -> None:
    card = score_player(player(prizes=prizes), BOARD)
    assert card.prizes == points
    assert card.total == points


# --- 4. size tokens -----------------------------------------------------------------------------


@pytest.mark.parametrize(("tokens", "points"), [
    ([], 0),
    ([7], 2),             # one size: 2
    ([7, 3], 4),          # two distinct sizes: 2 + 2
    ([7, 7], 3),          # the second 7 is a further token of a counted size: 2 + 1
    ([7, 7, 7], 4),       # 2 + 1 + 1
    ([7, 3, 7, 10, 3, 7], 2 + 1 + 1 + 2 + 1 + 2),  # 7s: 2+1+1, 3s: 2+1, 10: 2
])
def test_size_tokens(tokens: list[int], points: int) -> None:
    assert size_token_points(tokens, BOARD) == points
    card = score_player(player(size_tokens=tokens), BOARD)
    assert card.size_tokens == points
    assert card.total == points


# --- 5. local performances ----------------------------------------------------------------------


def test_local_performances_tile_points_plus_collected_tokens() -> None:
    # LP01 (shape:3-2-1) prints 3 points, LP32 (exhibition:6:...) prints 6; 4 tokens collected
    card = score_player(player(claimed_tiles=["LP01", "LP32"], collected_tokens=4), BOARD)
    assert card.local_performances == 3 + 6 + 4
    assert card.total == 13


def test_collected_tokens_alone() -> None:
    assert score_player(player(collected_tokens=2), BOARD).local_performances == 2


# --- all together, and the winner ---------------------------------------------------------------


def test_a_full_card() -> None:
    card = score_player(player(
        best_tower_score=9,
        earned_regions=["lleida", "girona", "barcelona"],   # 3 regions -> 3
        prizes={"trophy": 1, "ribbon": 2},                  # 5 + 1 + 1 = 7
        size_tokens=[5, 5, 8],                              # 5s: 2 + 1, 8: 2 -> 5
        claimed_tiles=["LP09"], collected_tokens=3,         # LP09 prints 4, + 3 tokens -> 7
    ), BOARD)
    assert card.as_dict() == {
        "player": "Anna", "best_tower": 9, "region_variety": 3, "prizes": 7, "size_tokens": 5,
        "local_performances": 7, "total": 9 + 3 + 7 + 5 + 7,
    }
    assert card.total == sum(getattr(card, c) for c in CATEGORIES) == 31


def finished_game(*cards: dict[str, object]) -> GameState:
    state = new_game(BOARD, len(cards), seed=0)
    for player_state, fields in zip(state.players, cards, strict=True):
        for key, value in fields.items():
            setattr(player_state, key, value)
    return state


def test_the_winner_has_the_highest_total() -> None:
    state = finished_game(
        {"best_tower_score": 8, "prizes": {"medal": 1}},                       # 8 + 3 = 11
        {"best_tower_score": 7, "size_tokens": [4, 6], "collected_tokens": 1},  # 7 + 4 + 1 = 12
        {"best_tower_score": 9, "earned_regions": ["lleida", "girona"]},       # 9 + 1 = 10
    )
    cards, winners = score_game(state, BOARD)
    assert [c.total for c in cards] == [11, 12, 10]
    assert winners == [state.players[1].name]


def test_a_tie_has_several_winners() -> None:
    state = finished_game(
        {"best_tower_score": 10},                                  # 10
        {"best_tower_score": 7, "prizes": {"medal": 1}},           # 7 + 3 = 10
        {"best_tower_score": 6, "size_tokens": [2]},               # 6 + 2 = 8
        {"best_tower_score": 9},                                   # 9
    )
    cards, winners = score_game(state, BOARD)
    assert [c.total for c in cards] == [10, 10, 8, 9]
    assert winners == [state.players[0].name, state.players[1].name]


def test_a_fresh_game_scores_zero_for_everyone() -> None:
    state = new_game(BOARD, 4, seed=2)
    cards, winners = score_game(state, BOARD)
    assert all(c.total == 0 for c in cards)
    assert winners == state.turn_order
