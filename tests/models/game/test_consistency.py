"""State and board files validated as a whole (issue 13): every tile and casteller in exactly
one place, the round within the game, strict numbers; a board with finite coordinates, refill
rounds within the game, unique names, a connected map, exhibition points equal to levels.
Every message names the field path."""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from models.errors import SpecError
from models.game import check_against_board, load_board, load_state
from models.game.board import board_from_dict, default_board_path
from models.game.state import state_from_dict

ROUND3 = Path("examples/game/round3.json")
BOARD = load_board()


def state_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ROUND3.read_text(encoding="utf-8"))
    return data


def refused(data: dict[str, Any], *fragments: str) -> None:
    with pytest.raises(SpecError) as caught:
        check_against_board(state_from_dict(data), BOARD)
    for fragment in fragments:
        assert fragment in str(caught.value), (fragment, str(caught.value))


def test_the_example_state_is_consistent() -> None:
    check_against_board(load_state(ROUND3), BOARD)


def test_a_round_past_the_game_that_is_not_over_is_refused() -> None:
    data = state_data()
    data["round"] = 11
    refused(data, "game_over:", "round 11", "over")
    data["round"] = 12
    data["game_over"] = True
    refused(data, "round: 12 is past the game's 10 rounds")


def test_a_game_over_before_the_last_round_is_refused() -> None:
    data = state_data()
    data["game_over"] = True
    refused(data, "game_over:", "round 3")


def test_a_festival_past_the_last_round_is_refused() -> None:
    data = state_data()
    data["festivals"][0]["round"] = 11
    refused(data, "festivals.0.round: 11")


def test_a_tile_both_held_and_in_a_region_is_refused() -> None:
    data = state_data()
    region_id, region = next((k, r) for k, r in data["regions"].items()
                             if r["performance_tiles"])
    tile = region["performance_tiles"][0]
    data["players"][1]["claimed_tiles"] = [tile]
    refused(data, f"players.1.claimed_tiles: tile '{tile}' is also in "
                  f"regions.{region_id}.performance_tiles")


def test_a_tile_held_twice_is_refused() -> None:
    data = state_data()
    data["players"][0]["claimed_tiles"] = ["LP31"]
    data["players"][2]["claimed_tiles"] = ["LP31"]
    for region in data["regions"].values():
        region["performance_tiles"] = [t for t in region["performance_tiles"] if t != "LP31"]
    refused(data, "players.2.claimed_tiles: tile 'LP31' is also in players.0.claimed_tiles")


def test_a_casteller_made_out_of_nothing_is_refused() -> None:
    data = state_data()
    data["players"][0]["pool"] += ",10"
    refused(data, "castellers:", "16 of size 10", "bag has 15")


def test_a_casteller_lost_is_refused_when_the_bag_is_kept() -> None:
    data = state_data()
    region = next(r for r in data["regions"].values() if r["castellers"] != "none")
    region["castellers"] = "none"
    refused(data, "castellers:", "bag has 15")
    data["bag"] = None  # without the bag, only "at most" can be checked
    check_against_board(state_from_dict(data), BOARD)


@pytest.mark.parametrize(("path", "value"), [
    (("round",), True), (("round",), "3"), (("round",), 3.0),
    (("players", 0, "special_tokens"), True), (("festivals", 0, "size_tokens"), ["6"]),
])
def test_numbers_are_strict(path: tuple[Any, ...], value: Any) -> None:
    data = state_data()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(SpecError) as caught:
        state_from_dict(data)
    assert ".".join(map(str, path)) in str(caught.value)


def test_a_state_file_with_round_true_is_refused(tmp_path: Path) -> None:
    data = state_data()
    data["round"] = True
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SpecError, match="round: Input should be a valid integer"):
        load_state(path)


# --- boards ------------------------------------------------------------------------------------

def raw_board() -> dict[str, Any]:
    return tomllib.loads(default_board_path().read_text(encoding="utf-8"))


def region_named(name: str) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["regions"][1]["name"] = name
    return change


def setter(*path: Any, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def exhibition_points(data: dict[str, Any]) -> None:
    tile = next(t for t in data["performance_tiles"] if t["tile"].startswith("exhibition"))
    tile["points"] += 1


def unknown_link(data: dict[str, Any]) -> None:
    data["dotted_links"] = [["girona", "atlantis"]]


@pytest.mark.parametrize(("change", "fragments"), [
    (setter("regions", 0, "x", value=math.nan), ["regions.0.x", "finite"]),
    (setter("regions", 2, "y", value=math.inf), ["regions.2.y", "finite"]),
    (setter("refill_rounds", value=[3, -1]), ["refill_rounds.1: round -1", "1 to 10"]),
    (setter("refill_rounds", value=[99]), ["refill_rounds.0: round 99"]),
    (region_named("Alt Pirineu i Aran"), ["regions.1.name", "also the name of regions.0"]),
    (region_named("ALT pirineu i aran!"), ["regions.1.name"]),  # names as players write them
    (unknown_link, ["dotted_links.0: unknown region 'atlantis'"]),
    (exhibition_points, ["performance_tiles.", "scores its levels"]),
    (setter("bag", "9", value=16), ["bag.9", "15"]),
    (setter("rounds", value=10**9), ["rounds"]),
])
def test_bad_boards_are_refused_naming_the_field(
        change: Callable[[dict[str, Any]], None], fragments: list[str]) -> None:
    data = raw_board()
    change(data)
    with pytest.raises(SpecError) as caught:
        board_from_dict(data)
    for fragment in fragments:
        assert fragment in str(caught.value), (fragment, str(caught.value))


def test_a_board_file_with_nan_coordinates_is_refused(tmp_path: Path) -> None:
    text = default_board_path().read_text(encoding="utf-8")
    path = tmp_path / "board.toml"
    first_x = text.index("x = ")
    end = text.index("\n", first_x)
    path.write_text(text[:first_x] + "x = nan" + text[end:], encoding="utf-8")
    with pytest.raises(SpecError, match=r"regions\.0\.x"):
        load_board(path)


def test_counters_no_game_can_reach_are_refused() -> None:
    """1,000 size tokens, a tower score of 10^12, a festival space twice, a refill of a
    million: each refused, naming its field (they were accepted and scored)."""
    from models.game import check_against_board, load_board, new_game

    board = load_board()
    cases = {
        "size_tokens": lambda s: setattr(s.players[0], "size_tokens", [5] * 1000),
        "best_tower_score": lambda s: setattr(s.players[0], "best_tower_score", 10**12),
        "is there twice": lambda s: s.festivals.append(s.festivals[0].model_copy()),
        "refills_due": lambda s: setattr(s, "refills_due", {board.region_ids[0]: 1_000_000}),
        "prizes": lambda s: setattr(s.players[1], "prizes", {"trophy": 70}),
    }
    for field, spoil in cases.items():
        state = new_game(board, 3, seed=2)
        spoil(state)
        with pytest.raises(SpecError, match=field):
            check_against_board(state, board)
