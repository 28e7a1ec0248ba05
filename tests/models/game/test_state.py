"""Dealing a new game, the state file's round trip, and its errors."""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.errors import SpecError
from models.game.board import load_board
from models.game.consistency import check_against_board, load_state
from models.game.deal import parse_deal
from models.game.setup import casteller_census, new_game
from models.game.state import GameState, state_from_dict
from models.tower.pool import Pool
from tests.edits import set_at

BOARD = load_board()
players_counts = st.sampled_from([2, 3, 4])
seeds = st.integers(min_value=0, max_value=2**32)


def without_seed(state: GameState) -> dict[str, Any]:
    data = state.model_dump(mode="json")
    del data["seed"]
    return data


@settings(max_examples=30)
@given(players=players_counts, seed=seeds)
def test_same_seed_same_state(players: int, seed: int) -> None:
    first = new_game(BOARD, players, seed)
    second = new_game(BOARD, players, seed)
    assert first.to_json() == second.to_json()
    assert first == second


@settings(max_examples=30)
@given(players=players_counts, seed=seeds, other=seeds)
def test_different_seeds_deal_differently(players: int, seed: int, other: int) -> None:
    if seed == other:
        other += 1
    # Compare the deal itself, not the recorded seed: 150 castellers shuffled two ways agree
    # with negligible probability.
    assert without_seed(new_game(BOARD, players, seed)) != \
        without_seed(new_game(BOARD, players, other))


@settings(max_examples=30)
@given(players=players_counts, seed=seeds)
def test_new_game_deals_by_the_rules(players: int, seed: int) -> None:
    state = new_game(BOARD, players, seed)
    check_against_board(state, BOARD)
    # every casteller of the bag is somewhere: bag + regions + teams
    assert casteller_census(state) == Counter(BOARD.bag)
    independent: Counter[int] = Counter(Pool.parse(state.bag or "none"))
    for region in state.regions.values():
        independent.update(Pool.parse(region.castellers))
    for player in state.players:
        independent.update(Pool.parse(player.pool))
    assert independent == Counter(BOARD.bag)
    # setup (rules section 5): 3/4/5 castellers a region for 2/3/4 players; 7 castellers and
    # 7 special tokens a player, ranks 0, pawn off the board
    assert set(state.regions) == set(BOARD.region_ids)
    for region in state.regions.values():
        assert region.supply.total == BOARD.setup_castellers[players] == players + 1
        assert len(region.performance_tiles) == BOARD.tiles_per_region == 2
        assert region.special_tokens == 0
    laid = [t for r in state.regions.values() for t in r.performance_tiles]
    assert len(laid) == len(set(laid)) == 14
    assert set(laid) <= {t.id for t in BOARD.performance_tiles}
    assert len(state.players) == players
    assert state.turn_order == [p.name for p in state.players]
    assert state.turn.player == state.turn_order[0]
    for player in state.players:
        assert player.team.total == 7
        assert player.special_tokens == 7
        assert player.skills == "none"
        assert player.pawn is None
        assert player.claimed_tiles == [] and player.prizes == {} and player.size_tokens == []
        assert player.best_tower_score == 0 and player.earned_regions == []
    assert (state.round, state.wheel_rotation, state.game_over) == (1, 0, False)


@settings(max_examples=30)
@given(players=players_counts, seed=seeds)
def test_festivals_follow_the_calendar(players: int, seed: int) -> None:
    state = new_game(BOARD, players, seed)
    locations = {f.name: f for f in BOARD.festival_locations}
    # the calendar rows for this player count, as (round, type)
    due = sorted((row.round, kind) for row in BOARD.calendar if players in row.players
                 for kind in row.spaces)
    assert sorted((f.round, f.type) for f in state.festivals) == due
    # 8 festivals for 2 players, one more for 3 (round 10) and one more for 4 (round 6)
    assert len(state.festivals) == {2: 8, 3: 9, 4: 10}[players]
    assert len({f.location for f in state.festivals}) == len(state.festivals)
    for space in state.festivals:
        assert 3 <= space.round <= 10
        assert len(space.size_tokens) == 1
        assert locations[space.location].region == space.region
        assert locations[space.location].type == space.type
        assert not space.resolved
    tokens = Counter(t for f in state.festivals for t in f.size_tokens)
    assert not tokens - Counter(BOARD.size_tokens)


@settings(max_examples=20)
@given(players=players_counts, seed=seeds)
def test_json_round_trip(players: int, seed: int) -> None:
    state = new_game(BOARD, players, seed)
    assert state_from_dict(json.loads(state.to_json())) == state


def test_json_round_trip_of_a_played_state(tmp_path: Path) -> None:
    state = new_game(BOARD, 3, seed=9)
    state.players[1].pawn = "girona"
    state.players[1].claimed_tiles = ["LP01"]
    state.players[1].prizes = {"medal": 2}
    state.players[1].size_tokens = [7, 7]
    state.players[1].earned_regions = ["girona", "lleida"]
    for space in state.festivals[:2]:  # two medals and two size tokens: two festivals held
        space.resolved = True
    state.turn.moved = True
    assert state_from_dict(json.loads(state.to_json())) == state
    path = tmp_path / "game.json"
    path.write_text(state.to_json(), encoding="utf-8")
    assert load_state(path, BOARD) == state


def test_new_game_refuses_bad_player_counts_and_names() -> None:
    with pytest.raises(SpecError, match="5"):
        new_game(BOARD, 5, 0)
    with pytest.raises(SpecError, match="different, non-empty player names"):
        new_game(BOARD, 2, 0, names=["Anna", "Anna"])
    named = new_game(BOARD, 2, 0, names=["Pau", "Rita"])
    assert named.turn_order == ["Pau", "Rita"]


# --- bad state files ----------------------------------------------------------------------------


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        del data[key]

    return change


BAD_STATES = [
    pytest.param(set_at(("players", 0, "pool"), "10,11,3"), ["players.0.pool", "11"],
                 id="pool-size-11"),
    pytest.param(set_at(("players", 1, "skills"), "juggling=1"), ["players.1.skills", "juggling"],
                 id="unknown-skill"),
    pytest.param(set_at(("players", 1, "special_tokens"), -1),
                 ["players.1.special_tokens", "-1"], id="negative-tokens"),
    pytest.param(set_at(("players", 2, "prizes"), {"gold": 1}),
                 ["players.2.prizes.gold", "gold"], id="prize-gold"),
    pytest.param(set_at(("players", 0, "size_tokens"), [3, 0]),
                 ["players.0.size_tokens.1", "0"], id="size-token-0"),
    pytest.param(set_at(("regions", "lleida", "castellers"), "9x0"),
                 ["regions.lleida.castellers", "9x0"], id="region-repeat-0"),
    pytest.param(set_at(("festivals", 0, "size_tokens"), []),
                 ["festivals.0.size_tokens"], id="festival-without-token"),
    pytest.param(set_at(("festivals", 1, "type"), "III"), ["festivals.1.type", "III"],
                 id="festival-type-III"),
    pytest.param(set_at(("turn_order",), ["Anna"]), ["turn_order", "Anna"], id="one-player"),
    pytest.param(set_at(("round",), 0), ["round", "0"], id="round-0"),
    pytest.param(set_at(("bag",), "0"), ["bag", "0"], id="bag-size-0"),
    pytest.param(set_at(("turn", "moved"), "perhaps"), ["turn.moved", "perhaps"],
                 id="not-a-bool"),
    pytest.param(_drop("turn"), ["turn", "required"], id="missing-turn"),
    pytest.param(set_at(("colour",), "red"), ["colour", "red"], id="extra-field"),
]


@pytest.mark.parametrize(("spoil", "expected"), BAD_STATES)
def test_bad_state_is_a_spec_error_naming_the_field(
        spoil: Callable[[dict[str, Any]], None], expected: list[str]) -> None:
    data = json.loads(new_game(BOARD, 3, seed=1).to_json())
    state_from_dict(copy.deepcopy(data))  # unspoiled, it loads
    spoil(data)
    with pytest.raises(SpecError) as caught:
        state_from_dict(data, source="game.json")
    message = str(caught.value)
    assert message.startswith("game.json: ")
    for part in expected:
        assert part in message, f"{part!r} not in {message!r}"


def test_bad_state_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken-game.json"
    path.write_text('{"round": 1,', encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        load_state(path)
    assert str(path) in str(caught.value)
    assert "JSON" in str(caught.value)
    data = json.loads(new_game(BOARD, 2, seed=1).to_json())
    data["players"][1]["pool"] = "10,11"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        load_state(path)
    assert str(path) in str(caught.value)
    assert "players.1.pool" in str(caught.value)


NOT_ON_THE_BOARD = [
    pytest.param(set_at(("regions", "lleida", "performance_tiles"), ["LP99"]),
                 ["regions.lleida.performance_tiles", "LP99"], id="unknown-row-tile"),
    pytest.param(set_at(("players", 0, "pawn"), "valencia"), ["players.0.pawn", "valencia"],
                 id="unknown-pawn-region"),
    pytest.param(set_at(("players", 1, "claimed_tiles"), ["LP77"]),
                 ["players.1.claimed_tiles", "LP77"], id="unknown-claimed-tile"),
    pytest.param(set_at(("players", 1, "earned_regions"), ["lleida", "mallorca"]),
                 ["players.1.earned_regions", "mallorca"], id="unknown-earned-region"),
    pytest.param(set_at(("festivals", 2, "region"), "valencia"),
                 ["festivals.2.region", "valencia"], id="unknown-festival-region"),
    pytest.param(set_at(("regions", "valencia"), {}), ["regions"], id="extra-region"),
    pytest.param(set_at(("turn", "player"), "Zoe"), ["turn.player", "Zoe"], id="unknown-player"),
    pytest.param(set_at(("round",), 12), ["round", "10 rounds"], id="round-past-the-end"),
]


@pytest.mark.parametrize(("spoil", "expected"), NOT_ON_THE_BOARD)
def test_check_against_board_catches_what_the_board_lacks(
        spoil: Callable[[dict[str, Any]], None], expected: list[str], tmp_path: Path) -> None:
    data = json.loads(new_game(BOARD, 3, seed=1).to_json())
    spoil(data)
    state = state_from_dict(data)  # well formed on its own
    with pytest.raises(SpecError) as caught:
        check_against_board(state, BOARD)
    for part in expected:
        assert part in str(caught.value), f"{part!r} not in {caught.value}"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_state(path) == state  # without a board nothing is checked
    with pytest.raises(SpecError):
        load_state(path, BOARD)


def test_check_against_board_accepts_a_fresh_game() -> None:
    for players in (2, 3, 4):
        check_against_board(new_game(BOARD, players, players), BOARD)


def test_a_player_is_found_as_typed_at_the_table() -> None:
    state = new_game(BOARD, 3, seed=1)
    stored = state.players[1].name
    assert state.player(f"  {stored.upper()} ").name == stored
    assert state.player(stored.lower()) is state.players[1]
    with pytest.raises(SpecError, match="no player"):
        state.player(stored + "x")


def test_players_only_case_apart_need_the_exact_name() -> None:
    state = new_game(BOARD, 2, seed=1)
    state.players[1].name = state.players[0].name.lower()
    first, second = state.players
    assert state.player(first.name) is first and state.player(second.name) is second
    with pytest.raises(SpecError, match="no player"):
        state.player(first.name.upper())  # both match it


def test_the_state_file_text_is_the_json_dump_indented() -> None:
    """`to_json` uses pydantic's writer for speed: its text is exactly the standard library's
    (indent 2, non-ASCII kept) of the JSON dump, names with accents and quotes included."""
    from models.game import load_state

    states = [new_game(BOARD, 3, seed=5, names=["Núria", 'Jo "J" Ø', "Zoë\u2028x"]),
              load_state(Path(__file__).parents[3] / "examples" / "game" / "round3.json")]
    for state in states:
        expected = json.dumps(state.model_dump(mode="json"), indent=2, ensure_ascii=False)
        assert state.to_json() == expected + "\n"


@pytest.mark.parametrize(("edit", "said"), [
    (set_at(("players", 1, "name"), "scorekeeper"), "players: 'scorekeeper' is a role"),
    (set_at(("players", 1, "name"), "anna"), "players: two players are named 'Anna' and 'anna'"),
    (set_at(("players", 1, "name"), "Bi\x00el"), "players: a player name holds no control"),
    (set_at(("players", 1, "name"), "\u202eleiB"), "players: a player name holds no direction"),
    (set_at(("seed",), -1), "seed: Input should be greater than or equal to 0"),
    (set_at(("seed",), 2**80), "seed: Input should be less than or equal to"),
    (set_at(("wheel_rotation",), -1), "wheel_rotation: Input should be greater than or equal"),
    (set_at(("wheel_rotation",), 10**40), "wheel_rotation: Input should be less than or equal"),
])
def test_a_state_files_names_seed_and_rotation_are_bounded(
        edit: Callable[[dict[str, Any]], None], said: str) -> None:
    data = json.loads(new_game(BOARD, 3, 7).to_json())
    edit(data)
    with pytest.raises(SpecError, match=re.escape(said)):
        state_from_dict(data, "game.json")


def test_a_tournaments_deal_seed_is_a_state_seed() -> None:
    """A tournament deals with seeds up to 2^62: its games' states hold them."""
    assert new_game(BOARD, 2, 2**62 - 1).seed == 2**62 - 1


@pytest.mark.parametrize(("names", "said"), [
    (["Anna", "scorekeeper"], "a role"), (["Anna", "ANNA"], "differ only in case"),
    (["Anna", "Bi\u2067el"], "U+2067"),
])
def test_new_game_refuses_reserved_and_ambiguous_names(names: list[str], said: str) -> None:
    with pytest.raises(SpecError, match=re.escape(said)) as caught:
        new_game(BOARD, 2, 1, names)
    assert caught.value.field == "players"


DEAL = """
[players]
Anna = "8,6,5,4,3,2,1,1"
{second} = "9,7,6,4,3,2,2,1"

[wheel]
rotation = {rotation}
"""


@pytest.mark.parametrize(("second", "rotation", "said"), [
    ("scorekeeper", 0, "players: 'scorekeeper' is a role"),
    ("anna", 0, "players: two players are named 'Anna' and 'anna'"),
    ('"B\\u202eiel"', 0, "players: a player name holds no direction"),
    ("Biel", -1, "wheel.rotation: Input should be greater than or equal to 0"),
    ("Biel", 10**40, "wheel.rotation: Input should be less than or equal to 2147483647"),
])
def test_a_deal_files_names_and_rotation_are_checked(second: str, rotation: int,
                                                     said: str) -> None:
    text = DEAL.format(second=second, rotation=rotation)
    with pytest.raises(SpecError) as caught:
        parse_deal(text, "deal.toml")
    assert said in str(caught.value), caught.value
