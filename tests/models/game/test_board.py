"""The board data file: the default board's content, round trips, and errors that name the field."""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from models.errors import SpecError
from models.game.board import (
    ALL_REGIONS,
    SPECIAL,
    Board,
    board_from_dict,
    default_board_path,
    load_board,
)
from models.tower.skills import Skill
from models.tower.tiles import parse_tile
from tests.edits import drop_at, set_at

# The seven vegueries and the twelve borders, by display name, as the issue lists them.
REGION_NAMES = {
    "Alt Pirineu i Aran", "Lleida", "Comarques Centrals", "Girona", "Barcelona",
    "Camp de Tarragona", "Terres de l'Ebre",
}
BORDERS_BY_NAME = {
    frozenset(pair) for pair in [
        ("Alt Pirineu i Aran", "Lleida"),
        ("Alt Pirineu i Aran", "Comarques Centrals"),
        ("Alt Pirineu i Aran", "Girona"),
        ("Lleida", "Comarques Centrals"),
        ("Lleida", "Camp de Tarragona"),
        ("Lleida", "Terres de l'Ebre"),
        ("Comarques Centrals", "Girona"),
        ("Comarques Centrals", "Barcelona"),
        ("Comarques Centrals", "Camp de Tarragona"),
        ("Girona", "Barcelona"),
        ("Barcelona", "Camp de Tarragona"),
        ("Camp de Tarragona", "Terres de l'Ebre"),
    ]
}


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


def raw_board() -> dict[str, Any]:
    """The default board file as plain TOML data, ready to be spoiled one field at a time."""
    return tomllib.loads(default_board_path().read_text(encoding="utf-8"))


# --- the default board -------------------------------------------------------------------------


def test_default_board_has_the_seven_regions(board: Board) -> None:
    assert {r.name for r in board.regions} == REGION_NAMES
    assert len(board.regions) == 7
    assert len(set(board.region_ids)) == 7


def test_default_board_has_the_twelve_borders(board: Board) -> None:
    name = {r.id: r.name for r in board.regions}
    borders = [frozenset((name[a], name[b])) for a, b in board.borders]
    assert len(borders) == 12
    assert len(set(borders)) == 12  # no border listed twice (in either direction)
    assert set(borders) == BORDERS_BY_NAME


def test_default_board_counts(board: Board) -> None:
    # Rules page section 7: 14 festival locations (types I and II), 32 local performance tiles,
    # 8 board skill tiles facing the wheel's 8 slots (7 regions + All Regions), 30 size tokens.
    assert len(board.festival_locations) == 14
    assert {f.type for f in board.festival_locations} == {"I", "II"}
    assert {f.region for f in board.festival_locations} <= set(board.region_ids)
    assert len({f.name for f in board.festival_locations}) == 14
    assert len(board.performance_tiles) == 32
    assert len({t.id for t in board.performance_tiles}) == 32
    assert len(board.wheel.slots) == 8
    assert sorted(board.wheel.slots) == sorted([*board.region_ids, ALL_REGIONS])
    assert len(board.wheel.tiles) == 8
    assert len(board.size_tokens) == 30
    # Section 1: 150 castellers in the box; section 5: 5 skills + 3 special tiles (a reading).
    assert sum(board.bag.values()) == 150
    assert sorted(t for t in board.wheel.tiles if t != SPECIAL) == sorted(s.value for s in Skill)
    assert board.wheel.tiles.count(SPECIAL) == 3


def test_default_board_tiles_parse(board: Board) -> None:
    for tile in board.performance_tiles:
        assert str(parse_tile(tile.tile)) == tile.tile
        assert tile.spec == parse_tile(tile.tile)


def test_default_board_scoring_tables_follow_the_rules_page(board: Board) -> None:
    # Section 6: 1 -> 0, 2 -> 1, 3 -> 3, 4 -> 5, 5 -> 7, 6 -> 10, 7 -> 14; trophy 5, medal 3,
    # ribbon 1; size tokens 2 then 1; 1 point per collected token.
    expected = {1: 0, 2: 1, 3: 3, 4: 5, 5: 7, 6: 10, 7: 14}
    assert {n: board.scoring.variety(n) for n in expected} == expected
    assert board.scoring.prizes == {"trophy": 5, "medal": 3, "ribbon": 1}
    assert (board.scoring.size_token_first, board.scoring.size_token_repeat) == (2, 1)
    assert board.scoring.special_token == 1
    assert board.rounds == 10
    assert board.setup_castellers == {2: 3, 3: 4, 4: 5}


# --- round trips --------------------------------------------------------------------------------


def test_to_toml_round_trip(board: Board) -> None:
    assert board_from_dict(tomllib.loads(board.to_toml())) == board


def test_to_toml_round_trip_of_a_custom_board(tmp_path: Path) -> None:
    data = raw_board()
    data["dotted_links"] = [["terres-de-lebre", "barcelona"]]
    data["wheel"]["direction"] = "counterclockwise"
    data["wheel"]["start_offset"] = 3
    data["refill_rounds"] = []
    custom = board_from_dict(data)
    assert board_from_dict(tomllib.loads(custom.to_toml())) == custom
    path = tmp_path / "custom.toml"
    path.write_text(custom.to_toml(), encoding="utf-8")
    loaded = load_board(path)
    assert loaded == custom
    assert loaded != load_board()


def test_load_board_with_broken_toml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken-board.toml"
    path.write_text('name = "oops\nrounds = = 3\n', encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        load_board(path)
    message = str(caught.value)
    assert str(path) in message
    assert "TOML" in message


def test_load_board_with_a_bad_field_names_the_file_and_field(tmp_path: Path) -> None:
    text = load_board().to_toml()
    assert "\nrounds = 10\n" in text
    path = tmp_path / "zero-rounds.toml"
    path.write_text(text.replace("\nrounds = 10\n", "\nrounds = 0\n"), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        load_board(path)
    assert str(path) in str(caught.value)
    assert "rounds" in str(caught.value)


def test_load_board_missing_file_is_a_spec_error(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(SpecError, match=re.escape(str(path))):
        load_board(path)


# --- one bad value per field --------------------------------------------------------------------


def _slots_without(region: str) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["wheel"]["slots"] = [s for s in data["wheel"]["slots"] if s != region]

    return change


def _all_locations_type_ii(data: dict[str, Any]) -> None:
    for location in data["festival_locations"]:
        location["type"] = "II"


def _keep_tiles(count: int) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["performance_tiles"] = data["performance_tiles"][:count]

    return change


BAD_VALUES = [
    pytest.param(set_at(("borders", 2), ["alt-pirineu-aran", "atlantis"]),
                 ["borders.2", "atlantis"], id="border-unknown-region"),
    pytest.param(set_at(("borders", 5), ["lleida", "lleida"]),
                 ["borders.5", "lleida"], id="self-border"),
    pytest.param(set_at(("dotted_links",), [["girona", "mallorca"]]),
                 ["dotted_links.0", "mallorca"], id="dotted-link-unknown-region"),
    pytest.param(set_at(("regions", 0, "id"), "Alt Pirineu"),
                 ["regions.0.id", "Alt Pirineu"], id="region-id-pattern"),
    pytest.param(set_at(("regions", 2, "name"), ""),
                 ["regions.2.name"], id="region-name-empty"),
    pytest.param(set_at(("regions", 1, "x"), "west"),
                 ["regions.1.x", "west"], id="x-not-a-number"),
    pytest.param(_slots_without("comarques-centrals"),
                 ["wheel.slots", "'lleida']"], id="wheel-slots-missing-region"),
    pytest.param(set_at(("wheel", "tiles", 3), "juggling"),
                 ["wheel.tiles", "juggling"], id="wheel-tile-not-a-skill"),
    pytest.param(set_at(("wheel", "tiles"), ["balance", "special", "base", "mix", "special",
                                           "strength", "width"]),
                 ["wheel.tiles", "7"], id="wheel-tiles-too-few"),
    pytest.param(set_at(("wheel", "direction"), "left"),
                 ["wheel.direction", "left"], id="wheel-direction"),
    pytest.param(set_at(("festival_locations", 4, "region"), "valencia"),
                 ["festival_locations.4.region", "valencia"], id="festival-region-unknown"),
    pytest.param(set_at(("calendar", 2, "spaces", 0), "III"),
                 ["calendar.2.spaces.0", "III"], id="calendar-type-III"),
    pytest.param(_all_locations_type_ii,
                 ["calendar", "type I", "only 0"], id="calendar-more-spaces-than-locations"),
    pytest.param(set_at(("size_tokens", 5), 11),
                 ["size_tokens.5", "11"], id="size-token-11"),
    pytest.param(set_at(("performance_tiles", 6, "tile"), "shape:4-0"),
                 ["performance_tiles.6.tile", "shape:4-0"], id="tile-text-shape-4-0"),
    pytest.param(set_at(("performance_tiles", 0, "points"), -1),
                 ["performance_tiles.0.points", "-1"], id="tile-points-negative"),
    pytest.param(set_at(("performance_tiles", 7, "id"), "LP01"),
                 ["performance_tiles", "LP01"], id="duplicate-tile-id"),
    pytest.param(_keep_tiles(13),
                 ["performance_tiles", "14", "13"], id="too-few-tiles"),
    pytest.param(set_at(("prize_chart", "I", "2"), ["gold"]),
                 ["prize_chart.I.2.0", "gold"], id="prize-chart-gold"),
    pytest.param(set_at(("scoring", "prizes", "gold"), 7),
                 ["scoring.prizes.gold", "gold"], id="scoring-prize-gold"),
    pytest.param(drop_at(("scoring",)),
                 ["scoring", "required"], id="missing-scoring"),
    pytest.param(drop_at(("regions", 3, "name")),
                 ["regions.3.name", "required"], id="missing-region-name"),
    pytest.param(set_at(("regions", 0, "colour"), "red"),
                 ["regions.0.colour", "red"], id="extra-unknown-field"),
    pytest.param(set_at(("bag",), {"1": 10, "2": 10}),
                 ["bag", "20"], id="bag-too-small-for-setup"),
    pytest.param(set_at(("bag",), {"11": 150}),
                 ["bag.11", "11"], id="bag-size-11"),
    pytest.param(drop_at(("setup_castellers", "4")),
                 ["setup_castellers", "4 players"], id="setup-count-missing"),
    pytest.param(set_at(("rounds",), 0),
                 ["rounds", "0"], id="rounds-zero"),
    # bounded far above any real board (red team): 1e308 made the map's scaling reach inf,
    # 10^11 tokens or 20,000 regions a custom board's typo
    pytest.param(set_at(("regions", 1, "x"), 1e308),
                 ["regions.1.x", "1e+308"], id="x-beyond-the-map"),
    pytest.param(set_at(("special_tokens",), 99_999_999_999),
                 ["special_tokens", "99999999999"], id="special-tokens-huge"),
    pytest.param(lambda data: data["regions"].extend(
        {"id": f"r{i}", "name": f"R{i}", "x": 0, "y": 0} for i in range(200)),
                 ["regions", "at most 100"], id="regions-too-many"),
]


@pytest.mark.parametrize(("spoil", "expected"), BAD_VALUES)
def test_bad_value_is_a_spec_error_naming_field_and_value(
        spoil: Callable[[dict[str, Any]], None], expected: list[str]) -> None:
    data = raw_board()
    board_from_dict(copy.deepcopy(data))  # unspoiled, it loads
    spoil(data)
    with pytest.raises(SpecError) as caught:
        board_from_dict(data, source="my-board.toml")
    message = str(caught.value)
    assert message.startswith("my-board.toml: ")
    for part in expected:
        assert part in message, f"{part!r} not in {message!r}"


def test_a_calendar_past_the_last_round_is_refused() -> None:
    # With 8 rounds, the default calendar's festivals of rounds 9 and 10 (rows 7..9) would never
    # be held: end_round only resolves festivals of the round that ends. The board's
    # consistency check should refuse this like its other supply checks do.
    data = raw_board()
    data["rounds"] = 8
    with pytest.raises(SpecError) as caught:
        board_from_dict(data)
    message = str(caught.value)
    assert "calendar" in message
    assert "9" in message


# --- finding a region by name -------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "terres de l'ebre", "TERRES DE L EBRE", "Terres de l\u2019\u00c8bre", "terres-de-lebre",
    "  Terres de l'Ebre ",
])
def test_find_region_ignores_case_accents_and_punctuation(board: Board, text: str) -> None:
    assert board.find_region(text).id == "terres-de-lebre"


def test_find_region_by_id_and_by_name(board: Board) -> None:
    for region in board.regions:
        assert board.find_region(region.id) == region
        assert board.find_region(region.name.upper()) == region


def test_find_region_unknown_suggests_the_closest(board: Board) -> None:
    with pytest.raises(SpecError) as caught:
        board.find_region("Barcelone")
    assert "Barcelone" in str(caught.value)
    assert "did you mean 'Barcelona'" in str(caught.value)
    assert caught.value.token == "Barcelone"


def test_region_and_tile_lookups_refuse_unknown_ids(board: Board) -> None:
    with pytest.raises(SpecError, match="valencia"):
        board.region("valencia")
    with pytest.raises(SpecError, match="LP99"):
        board.tile("LP99")
    assert board.tile("LP01").tile == "shape:3-2-1"
