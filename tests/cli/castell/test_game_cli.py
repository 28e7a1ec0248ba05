"""`castell state`, `wheel`, `festival` and `score`: JSON shapes, the rules behind the numbers,
and clean bad-input errors.

Expected values are computed here from the rules page (sections 3-6) and the board data, not by
calling the project's own wheel, contest or scoring code.
"""

from __future__ import annotations

import copy
import json
import tomllib
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from typer.testing import CliRunner, Result

from cli.main import app
from models.game.state import GameState
from models.tower import STANDARD, Festival, Pool, SkillRanks, Tower, check_tower
from tests.cli.helpers import assert_bad_input, no_crash, one_json

REPO = Path(__file__).resolve().parents[3]
ROUND3 = str(REPO / "examples" / "game" / "round3.json")
ISLANDS = REPO / "examples" / "boards" / "islands.toml"
DEFAULT_TOML = REPO / "models" / "game" / "data" / "board.toml"
SKILLS = ("balance", "base", "mix", "strength", "width")


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def _toml(path: Path) -> dict[str, Any]:
    with open(path, "rb") as handle:
        return tomllib.load(handle)


DEFAULT = _toml(DEFAULT_TOML)


def _load(path: str | Path) -> dict[str, Any]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _write(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def _new_state(*args: str) -> dict[str, Any]:
    result = run("state", "new", *args)
    no_crash(result)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def _ok_json(*args: str) -> dict[str, Any]:
    result = run(*args, "--json")
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return one_json(result)


# --- castell state new -------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_state_new_deals_a_legal_start(players: int) -> None:
    result = run("state", "new", "--players", str(players), "--seed", "11")
    no_crash(result)
    assert result.exit_code == 0
    state = GameState.model_validate_json(result.stdout)
    assert len(state.players) == players
    assert state.turn_order == ["Anna", "Biel", "Carla", "Dani"][:players]
    assert state.turn.player == state.turn_order[0]
    assert state.round == 1
    assert state.seed == 11
    assert [p.name for p in state.players] == state.turn_order
    ids = [r["id"] for r in DEFAULT["regions"]]
    assert list(state.regions) == ids
    # rules page section 5: 3/4/5 castellers per region for 2/3/4 players; 7 each player
    per_region = {2: 3, 3: 4, 4: 5}[players]
    tiles: list[str] = []
    for region in state.regions.values():
        assert Pool.parse(region.castellers).total == per_region
        assert len(region.performance_tiles) == 2
        tiles += region.performance_tiles
    assert len(set(tiles)) == len(tiles) == 14
    for player in state.players:
        assert Pool.parse(player.pool).total == 7
        assert player.special_tokens == 7
        assert player.pawn is None
        assert player.skills == "none"
    # nothing is lost or made: bag + regions + teams is the board's bag
    census: Counter[int] = Counter(Pool.parse(state.bag or "none").counts())
    for region in state.regions.values():
        census.update(Pool.parse(region.castellers).counts())
    for player in state.players:
        census.update(Pool.parse(player.pool).counts())
    assert dict(census) == {int(k): v for k, v in DEFAULT["bag"].items()}
    # festivals follow the calendar rows for this player count
    rows = [row for row in DEFAULT["calendar"] if players in row.get("players", [2, 3, 4])]
    assert sorted(f.round for f in state.festivals) == sorted(
        row["round"] for row in rows for _ in row["spaces"])
    towns = {t["name"]: t for t in DEFAULT["festival_locations"]}
    assert len({f.location for f in state.festivals}) == len(state.festivals)
    for space in state.festivals:
        assert towns[space.location]["region"] == space.region
        assert towns[space.location]["type"] == space.type


def test_state_new_same_seed_same_bytes() -> None:
    first = run("state", "new", "--players", "3", "--seed", "5")
    second = run("state", "new", "--players", "3", "--seed", "5")
    other = run("state", "new", "--players", "3", "--seed", "6")
    assert first.exit_code == second.exit_code == other.exit_code == 0
    assert first.stdout_bytes == second.stdout_bytes
    assert first.stdout_bytes != other.stdout_bytes


def test_state_new_out_writes_the_file(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    result = run("state", "new", "--players", "4", "--seed", "9", "--out", str(target))
    no_crash(result)
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "game.json" in result.stderr
    assert target.read_text(encoding="utf-8") == run(
        "state", "new", "--players", "4", "--seed", "9").stdout
    assert len(GameState.model_validate_json(target.read_text(encoding="utf-8")).players) == 4


def test_state_new_out_unwritable_is_bad_input(tmp_path: Path) -> None:
    target = tmp_path / "missing-dir" / "game.json"
    assert_bad_input(run("state", "new", "--out", str(target)), "cannot write", "game.json")


@pytest.mark.parametrize("players", ["1", "5", "0", "three"])
def test_state_new_bad_player_count(players: str) -> None:
    result = run("state", "new", "--players", players)
    no_crash(result)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "--players" in result.stderr


def test_state_new_names() -> None:
    state = GameState.model_validate_json(
        run("state", "new", "--players", "2", "--names", "Pau, Núria").stdout)
    assert state.turn_order == ["Pau", "Núria"]
    assert [p.name for p in state.players] == ["Pau", "Núria"]
    assert state.turn.player == "Pau"


@pytest.mark.parametrize(("players", "names"), [
    ("3", "a,b"),
    ("2", "a,b,c"),
    ("2", "a,a"),
])
def test_state_new_names_must_match_the_count(players: str, names: str) -> None:
    assert_bad_input(run("state", "new", "--players", players, "--names", names), players)


def test_state_new_empty_name_is_bad_input() -> None:
    # "a,,b" has three names but one is empty: bad input (exit 2), not an internal error (exit 4)
    assert_bad_input(run("state", "new", "--players", "3", "--names", "a,,b"))


def test_state_new_on_a_custom_board(tmp_path: Path) -> None:
    data = _new_state("--players", "2", "--seed", "3", "--board", str(ISLANDS))
    assert set(data["regions"]) == {"costa", "muntanya", "plana", "illa"}
    path = _write(tmp_path, "islands.json", data)
    assert run("state", "show", path, "--board", str(ISLANDS)).exit_code == 0


# --- castell state show ------------------------------------------------------------------------

def test_state_show_human_and_json(tmp_path: Path) -> None:
    data = _new_state("--players", "3", "--seed", "2")
    path = _write(tmp_path, "game.json", data)
    human = run("state", "show", path)
    no_crash(human)
    assert human.exit_code == 0
    for name in ("Anna", "Biel", "Carla"):
        assert name in human.stdout
    assert "round 1" in human.stdout
    shown = _ok_json("state", "show", path)
    assert GameState.model_validate(shown) == GameState.model_validate(data)


def test_state_show_example_round3() -> None:
    human = run("state", "show", ROUND3)
    assert human.exit_code == 0
    assert "round 3" in human.stdout and "Reus" in human.stdout
    assert GameState.model_validate(_ok_json("state", "show", ROUND3)).round == 3


def _broken_states() -> list[tuple[str, Any, tuple[str, ...]]]:
    def edit(change: Any) -> Any:
        def apply(data: dict[str, Any]) -> dict[str, Any]:
            data = copy.deepcopy(data)
            change(data)
            return data
        return apply

    return [
        ("pool-size-11", edit(lambda d: d["players"][0].__setitem__("pool", "11,9")),
         ("players.0.pool", "11")),
        ("region-pool-size-11", edit(lambda d: d["regions"]["lleida"].__setitem__(
            "castellers", "11")), ("regions.lleida.castellers",)),
        ("unknown-pawn", edit(lambda d: d["players"][1].__setitem__("pawn", "atlantis")),
         ("players.1.pawn", "atlantis")),
        ("unknown-earned-region", edit(lambda d: d["players"][2].__setitem__(
            "earned_regions", ["mars"])), ("players.2.earned_regions", "mars")),
        ("unknown-festival-region", edit(lambda d: d["festivals"][0].__setitem__(
            "region", "narnia")), ("festivals.0.region", "narnia")),
        ("unknown-region-key", edit(lambda d: d["regions"].__setitem__(
            "atlantis", d["regions"].pop("lleida"))), ("regions",)),
        ("unknown-tile", edit(lambda d: d["players"][0].__setitem__(
            "claimed_tiles", ["LP99"])), ("players.0.claimed_tiles", "LP99")),
        ("bad-skill", edit(lambda d: d["players"][0].__setitem__("skills", "flying=1")),
         ("players.0.skills",)),
        ("round-zero", edit(lambda d: d.__setitem__("round", 0)), ("round",)),
        ("extra-key", edit(lambda d: d.__setitem__("colour", "red")), ("colour",)),
    ]


BROKEN = _broken_states()
READERS = [["state", "show"], ["wheel"], ["festival"], ["score"]]


@pytest.mark.parametrize(("name", "change", "fragments"), BROKEN, ids=[b[0] for b in BROKEN])
@pytest.mark.parametrize("command", READERS, ids=[" ".join(c) for c in READERS])
def test_malformed_state_names_the_path(tmp_path: Path, name: str, change: Any,
                                        fragments: tuple[str, ...], command: list[str]) -> None:
    path = _write(tmp_path, f"{name}.json", change(_load(ROUND3)))
    assert_bad_input(run(*command, path), *fragments)
    assert_bad_input(run(*command, path, "--json"), *fragments)


@pytest.mark.parametrize("command", READERS, ids=[" ".join(c) for c in READERS])
def test_state_not_json_is_bad_input(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"round": 3,', encoding="utf-8")
    assert_bad_input(run(*command, str(path)), "bad.json", "JSON")
    assert_bad_input(run(*command, str(tmp_path / "none.json")), "none.json")


# --- castell wheel -----------------------------------------------------------------------------

def _expected_slots(wheel: dict[str, Any], rotation: int) -> dict[str, str]:
    """Board comment: in round 1 slot i faces tile (i + start_offset) mod n; the wheel turns one
    step a round in `direction`."""
    n = len(wheel["slots"])
    step = rotation if wheel.get("direction", "clockwise") == "clockwise" else -rotation
    return {slot: wheel["tiles"][(i + wheel.get("start_offset", 0) + step) % n]
            for i, slot in enumerate(wheel["slots"])}


def _expected_where(slots: dict[str, str], skill: str, side: str,
                    region_ids: list[str]) -> list[str]:
    if side == "standard" and slots["all"] == skill:
        return list(region_ids)
    return [r for r in region_ids if slots[r] == skill]


def _check_turns_one_step(wheel: dict[str, Any], rounds: list[dict[str, Any]]) -> None:
    order = wheel["slots"]
    n = len(order)
    shift = 1 if wheel.get("direction", "clockwise") == "clockwise" else -1
    for now, after in pairwise(rounds):
        assert after["round"] == now["round"] + 1
        for i, slot in enumerate(order):
            assert after["slots"][slot] == now["slots"][order[(i + shift) % n]]
        assert Counter(after["slots"].values()) == Counter(now["slots"].values())


def test_wheel_json_shape_and_rotation() -> None:
    state = _load(ROUND3)
    data = _ok_json("wheel", ROUND3)
    assert set(data) == {"side", "rounds", "skill", "where", "game_over"}
    assert data["side"] == "standard"
    assert data["skill"] is None and data["where"] is None
    assert [r["round"] for r in data["rounds"]] == [3, 4, 5]  # default: 3 rounds from now
    wheel = DEFAULT["wheel"]
    for row in data["rounds"]:
        assert set(row) == {"round", "slots"}
        assert set(row["slots"]) == set(wheel["slots"])
        rotation = state["wheel_rotation"] + row["round"] - state["round"]
        assert row["slots"] == _expected_slots(wheel, rotation)
    _check_turns_one_step(wheel, data["rounds"])


def test_wheel_round_and_ahead() -> None:
    data = _ok_json("wheel", ROUND3, "--round", "1", "--ahead", "10")
    assert [r["round"] for r in data["rounds"]] == list(range(1, 11))
    for row in data["rounds"]:
        # round3.json is a game that started at round 1 with rotation 0
        assert row["slots"] == _expected_slots(DEFAULT["wheel"], row["round"] - 1)
    _check_turns_one_step(DEFAULT["wheel"], data["rounds"])
    # the same rounds shown from another start agree
    later = _ok_json("wheel", ROUND3, "--round", "6", "--ahead", "2")
    assert later["rounds"] == data["rounds"][5:7]


def test_wheel_skill_width_where() -> None:
    data = _ok_json("wheel", ROUND3, "--skill", "width", "--ahead", "8")
    assert data["skill"] == "width"
    ids = [r["id"] for r in DEFAULT["regions"]]
    assert [w["round"] for w in data["where"]] == [r["round"] for r in data["rounds"]]
    everywhere = 0
    for row, where in zip(data["rounds"], data["where"], strict=True):
        expected = _expected_where(row["slots"], "width", "standard", ids)
        assert sorted(where["regions"]) == sorted(expected)
        if row["slots"]["all"] == "width":
            everywhere += 1
            assert sorted(where["regions"]) == sorted(ids)
    assert everywhere == 1  # one of 8 consecutive rounds has width in the All Regions slot


@pytest.mark.parametrize("skill", ["WIDTH", "Balance", "special"])
def test_wheel_skill_names(skill: str) -> None:
    data = _ok_json("wheel", ROUND3, "--skill", skill, "--ahead", "8")
    wanted = skill.lower()
    assert data["skill"] == wanted
    ids = [r["id"] for r in DEFAULT["regions"]]
    for row, where in zip(data["rounds"], data["where"], strict=True):
        assert sorted(where["regions"]) == sorted(_expected_where(row["slots"], wanted,
                                                                  "standard", ids))


def test_wheel_advanced_side_ignores_all_regions(tmp_path: Path) -> None:
    state = _load(ROUND3)
    state["wheel_side"] = "advanced"
    path = _write(tmp_path, "advanced.json", state)
    data = _ok_json("wheel", path, "--skill", "width", "--ahead", "8")
    assert data["side"] == "advanced"
    for row, where in zip(data["rounds"], data["where"], strict=True):
        assert where["regions"] == [r for r in row["slots"] if r != "all"
                                    and row["slots"][r] == "width"]
        # width is on one board tile, so one slot faces it; when that is All Regions, no region
        # offers width on this side
        assert len(where["regions"]) == (0 if row["slots"]["all"] == "width" else 1)


def test_wheel_counterclockwise_custom_board(tmp_path: Path) -> None:
    board = _toml(ISLANDS)
    board["wheel"].update(direction="counterclockwise", start_offset=2)
    board_path = tmp_path / "ccw.toml"
    board_path.write_text(tomli_w.dumps(board), encoding="utf-8")
    state = _new_state("--players", "2", "--board", str(board_path))
    path = _write(tmp_path, "ccw.json", state)
    data = _ok_json("wheel", path, "--board", str(board_path), "--ahead", "6")
    assert [r["round"] for r in data["rounds"]] == list(range(1, 7))
    for row in data["rounds"]:
        assert row["slots"] == _expected_slots(board["wheel"], row["round"] - 1)
    _check_turns_one_step(board["wheel"], data["rounds"])
    # round 1: slot i faces tile i + 2
    assert data["rounds"][0]["slots"]["all"] == "mix"


def test_wheel_human_output() -> None:
    result = run("wheel", ROUND3, "--skill", "width", "--ahead", "8")
    no_crash(result)
    assert result.exit_code == 0
    assert "Skill wheel" in result.stdout
    assert "round 7: width in every region" in result.stdout
    assert "round 3: width in Camp de Tarragona" in result.stdout


def test_wheel_unknown_skill() -> None:
    assert_bad_input(run("wheel", ROUND3, "--skill", "flying"), "flying")
    assert_bad_input(run("wheel", ROUND3, "--skill", "flying", "--json"), "flying")


@pytest.mark.parametrize("args", [["--round", "0"], ["--ahead", "0"], ["--round", "x"]])
def test_wheel_bad_numbers(args: list[str]) -> None:
    result = run("wheel", ROUND3, *args)
    no_crash(result)
    assert result.exit_code == 2
    assert result.stdout == ""


# --- castell festival --------------------------------------------------------------------------

FESTIVAL_KEYS = {"round", "location", "region", "type", "size_tokens", "entries",
                 "size_token_winners"}
ENTRY_KEYS = {"player", "eligible", "reason", "tower", "score", "rank", "prize"}


def _check_festivals(data: dict[str, Any], state: dict[str, Any]) -> None:
    """Every printed number re-derived from the rules page (section 3) and the prize chart."""
    assert set(data) == {"round", "festivals", "next"}
    assert data["round"] == state["round"]
    spaces = [f for f in state["festivals"] if f["round"] == state["round"]]
    assert len(data["festivals"]) == len(spaces)
    players = {p["name"]: p for p in state["players"]}
    for fest, space in zip(data["festivals"], spaces, strict=True):
        assert set(fest) == FESTIVAL_KEYS
        for key in ("round", "location", "region", "type", "size_tokens"):
            assert fest[key] == space[key]
        festival = Festival(tuple(space["size_tokens"]))
        assert [e["player"] for e in fest["entries"]] == [p["name"] for p in state["players"]]
        towers: dict[str, Tower] = {}
        for entry in fest["entries"]:
            assert set(entry) == ENTRY_KEYS
            player = players[entry["player"]]
            if not entry["eligible"]:
                assert isinstance(entry["reason"], str) and entry["reason"]
                assert entry["tower"] is entry["score"] is entry["rank"] is entry["prize"] is None
                if player["pawn"] != space["region"]:
                    assert space["region"] in entry["reason"]
                continue
            assert player["pawn"] == space["region"]
            assert entry["reason"] is None
            tower = Tower.parse(entry["tower"])
            check = check_tower(tower, SkillRanks.parse(player["skills"]), STANDARD,
                                Pool.parse(player["pool"]))
            assert check.valid, (entry, check.violations)
            assert festival.eligible(tower)
            assert tower.height >= 4
            assert set(space["size_tokens"]) <= set(tower.sizes())
            assert entry["score"] == festival.score(tower)
            assert entry["score"] == tower.height + sum(
                1 for s in tower.sizes() if s in space["size_tokens"])
            towers[entry["player"]] = tower
        # ranks: ties share a rank (the next one is skipped); prizes by the chart
        chart = DEFAULT["prize_chart"][space["type"]][str(len(state["players"]))]
        for entry in fest["entries"]:
            if not entry["eligible"]:
                continue
            better = sum(1 for e in fest["entries"]
                         if e["eligible"] and e["score"] > entry["score"])
            assert entry["rank"] == better + 1
            assert entry["prize"] == (chart[entry["rank"] - 1] if entry["rank"] <= len(chart)
                                      else None)
        # a size token goes to the single player with the most castellers of that size
        assert [w["size"] for w in fest["size_token_winners"]] == space["size_tokens"]
        for won in fest["size_token_winners"]:
            counts = {n: t.size_counts()[won["size"]] for n, t in towers.items()}
            best = max(counts.values(), default=0)
            leaders = [n for n, c in counts.items() if c == best and best > 0]
            assert won["player"] == (leaders[0] if len(leaders) == 1 else None)


def test_festival_round3_example() -> None:
    state = _load(ROUND3)
    data = _ok_json("festival", ROUND3)
    _check_festivals(data, state)
    [fest] = data["festivals"]
    assert (fest["location"], fest["region"], fest["size_tokens"]) == (
        "Reus", "camp-de-tarragona", [10])
    anna = fest["entries"][0]
    assert anna["player"] == "Anna" and anna["eligible"]
    # Anna has 9 castellers: at most 4 levels (5 levels need 4+3+2+1+1 = 11 with her one
    # Balance), and four 10s: the best score is 4 + 4 = 8
    assert anna["score"] == 8
    assert anna["rank"] == 1 and anna["prize"] == "medal"  # type I, 3 players: medal, ribbon
    assert fest["size_token_winners"] == [{"size": 10, "player": "Anna"}]
    # Biel has one 10 and Carla none: Carla cannot compete
    carla = fest["entries"][2]
    assert not carla["eligible"] and carla["reason"]


def test_festival_players_elsewhere_are_not_eligible(tmp_path: Path) -> None:
    state = _load(ROUND3)
    state["bag"] = None  # teams made by hand: the bag no longer balances the census
    state["players"][1]["pool"] = "10x3,8x2,6,4,3,1"  # Biel can now compete: 4 levels, three 10s
    state["players"][2]["pawn"] = "lleida"
    path = _write(tmp_path, "elsewhere.json", state)
    data = _ok_json("festival", path)
    _check_festivals(data, state)
    anna, biel, carla = data["festivals"][0]["entries"]
    assert (anna["score"], anna["rank"], anna["prize"]) == (8, 1, "medal")
    assert (biel["score"], biel["rank"], biel["prize"]) == (7, 2, "ribbon")
    assert not carla["eligible"]
    assert "lleida" in carla["reason"] and "camp-de-tarragona" in carla["reason"]
    assert data["festivals"][0]["size_token_winners"] == [{"size": 10, "player": "Anna"}]


def test_festival_off_board_pawn_is_not_eligible(tmp_path: Path) -> None:
    state = _load(ROUND3)
    for player in state["players"]:
        player["pawn"] = None
    path = _write(tmp_path, "off.json", state)
    data = _ok_json("festival", path)
    _check_festivals(data, state)
    assert not any(e["eligible"] for e in data["festivals"][0]["entries"])
    assert data["festivals"][0]["size_token_winners"] == [{"size": 10, "player": None}]


def test_festival_tie_shares_the_rank(tmp_path: Path) -> None:
    state = _load(ROUND3)
    state["bag"] = None  # teams made by hand: the bag no longer balances the census
    state["players"][1]["pool"] = state["players"][0]["pool"]
    path = _write(tmp_path, "tie.json", state)
    data = _ok_json("festival", path)
    _check_festivals(data, state)
    anna, biel, _ = data["festivals"][0]["entries"]
    assert anna["score"] == biel["score"] == 8
    assert anna["rank"] == biel["rank"] == 1
    assert anna["prize"] == biel["prize"] == "medal"
    # both towers have four 10s: the token is tied and goes to nobody (standard rules)
    assert data["festivals"][0]["size_token_winners"] == [{"size": 10, "player": None}]


def test_festival_two_festivals_in_one_round(tmp_path: Path) -> None:
    # round 10 of round3.json's game (3 players): Tortosa (token 3) and Girona (token 7)
    state = _load(ROUND3)
    state["round"] = 10
    state["bag"] = None  # teams made by hand: the bag no longer balances the census
    state["players"][0].update(pawn="girona", pool="10x3,9x2,7,5")
    state["players"][1]["pawn"] = "terres-de-lebre"
    state["players"][2].update(pawn="terres-de-lebre", pool="8x3,6x2,4,3")
    path = _write(tmp_path, "round10.json", state)
    data = _ok_json("festival", path)
    _check_festivals(data, state)
    tortosa, girona = data["festivals"]
    assert (tortosa["location"], girona["location"]) == ("Tortosa", "Girona")
    assert [e["eligible"] for e in girona["entries"]] == [True, False, False]
    assert girona["entries"][0]["prize"] == "trophy"  # type II, 3 players: trophy first
    assert "girona" in girona["entries"][1]["reason"]
    assert [e["eligible"] for e in tortosa["entries"]] == [False, False, True]
    assert tortosa["size_token_winners"] == [{"size": 3, "player": "Carla"}]
    human = run("festival", path)
    assert human.exit_code == 0
    assert "Tortosa" in human.stdout and "Girona" in human.stdout


def test_festival_human_output() -> None:
    result = run("festival", ROUND3)
    no_crash(result)
    assert result.exit_code == 0
    assert "Reus" in result.stdout and "Anna" in result.stdout
    assert "size token 10: Anna" in result.stdout


def test_festival_no_festival_this_round(tmp_path: Path) -> None:
    path = _write(tmp_path, "start.json", _new_state("--seed", "1"))  # round 1: no festival
    result = run("festival", path)
    no_crash(result)
    assert result.exit_code == 0
    assert "No festival" in result.stdout and "round 1" in result.stdout
    data = _ok_json("festival", path)
    assert (data["round"], data["festivals"]) == (1, [])
    # no festival this round: the next one is named (the earliest in the state's calendar)
    first = min(_new_state("--seed", "1")["festivals"], key=lambda f: f["round"])
    assert data["next"]["round"] == first["round"]


def test_festival_takes_the_games_readings_not_rules() -> None:
    """The festival is the game's: --rules (what the command took before) is refused, naming
    where the readings are."""
    assert_bad_input(run("festival", ROUND3, "--rules", "standard"), "--rules", "stored")


# --- castell score -----------------------------------------------------------------------------

VARIETY = {0: 0, 1: 0, 2: 1, 3: 3, 4: 5, 5: 7, 6: 10, 7: 14}
PRIZE_POINTS = {"trophy": 5, "medal": 3, "ribbon": 1}
TILE_POINTS = {t["id"]: t["points"] for t in DEFAULT["performance_tiles"]}
SCORE_KEYS = {"player", "best_tower", "region_variety", "prizes", "size_tokens",
              "local_performances", "total"}


def _size_token_points(tokens: list[int]) -> int:
    counts = Counter(tokens)
    return 2 * len(counts) + sum(n - 1 for n in counts.values())


def _hand_score(player: dict[str, Any]) -> dict[str, Any]:
    card = {
        "player": player["name"],
        "best_tower": player["best_tower_score"],
        "region_variety": VARIETY[len(set(player["earned_regions"]))],
        "prizes": sum(PRIZE_POINTS[p] * n for p, n in player["prizes"].items()),
        "size_tokens": _size_token_points(player["size_tokens"]),
        "local_performances": sum(TILE_POINTS[t] for t in player["claimed_tiles"])
        + player["collected_tokens"],
    }
    card["total"] = sum(v for k, v in card.items() if k != "player")
    return card


def _end_state(**edits: dict[str, Any]) -> dict[str, Any]:
    state = _new_state("--players", "3", "--seed", "21")
    state["round"] = 10
    state["game_over"] = True
    by_name = {p["name"]: p for p in state["players"]}
    for name, changes in edits.items():
        by_name[name].update(changes)
    for player in state["players"]:  # a collected token was spent first: 7 per player in all
        player["special_tokens"] -= player["collected_tokens"]
    claimed = {t for p in state["players"] for t in p["claimed_tiles"]}
    for region in state["regions"].values():  # a claimed tile has left its region
        region["performance_tiles"] = [t for t in region["performance_tiles"]
                                       if t not in claimed]
    return state


END = {
    # 11 + variety(3) 3 + prizes 5+6+1 = 12 + tokens (3 sizes: 6, repeats 3) 9
    # + tiles 4+5 and 3 tokens = 12  -> 47
    "Anna": {"best_tower_score": 11, "prizes": {"trophy": 1, "medal": 2, "ribbon": 1},
             "size_tokens": [3, 3, 5, 7, 7, 7], "claimed_tiles": ["LP09", "LP24"],
             "collected_tokens": 3,
             "earned_regions": ["lleida", "girona", "lleida", "barcelona"]},
    # 9 + variety(1) 0 + 0 + 2 + 3 -> 14
    "Biel": {"best_tower_score": 9, "size_tokens": [4], "claimed_tiles": ["LP01"],
             "earned_regions": ["girona"]},
    # 10 + variety(7) 14 + ribbon 1 + 0 + tile 6 -> 31
    "Carla": {"best_tower_score": 10, "prizes": {"ribbon": 1}, "claimed_tiles": ["LP29"],
              "earned_regions": [r["id"] for r in DEFAULT["regions"]]},
}


def test_score_hand_made_end_state(tmp_path: Path) -> None:
    state = _end_state(**END)
    path = _write(tmp_path, "end.json", state)
    data = _ok_json("score", path)
    assert set(data) == {"players", "winners", "game_over", "round", "items"}
    cards = data["players"]
    assert [c["player"] for c in cards] == ["Anna", "Biel", "Carla"]
    for card, player in zip(cards, state["players"], strict=True):
        assert set(card) == SCORE_KEYS
        assert card == _hand_score(player)
    assert [c["total"] for c in cards] == [47, 14, 31]
    assert cards[0] == {"player": "Anna", "best_tower": 11, "region_variety": 3, "prizes": 12,
                        "size_tokens": 9, "local_performances": 12, "total": 47}
    assert cards[2]["region_variety"] == 14
    assert data["winners"] == ["Anna"]


def test_score_human_output(tmp_path: Path) -> None:
    path = _write(tmp_path, "end.json", _end_state(**END))
    result = run("score", path)
    no_crash(result)
    assert result.exit_code == 0
    assert "47" in result.stdout
    assert "winner: Anna" in result.stdout


@pytest.mark.parametrize(("regions", "points"), sorted(VARIETY.items()))
def test_score_region_variety_table(tmp_path: Path, regions: int, points: int) -> None:
    ids = [r["id"] for r in DEFAULT["regions"]]
    state = _end_state(Anna={"earned_regions": ids[:regions]})
    data = _ok_json("score", _write(tmp_path, "variety.json", state))
    assert data["players"][0]["region_variety"] == points
    assert data["players"][0]["total"] == points


@pytest.mark.parametrize(("tokens", "points"), [
    ([], 0), ([5], 2), ([5, 5], 3), ([5, 6], 4), ([1, 1, 1], 4), ([1, 2, 3, 3, 10], 9),
])
def test_score_size_tokens(tmp_path: Path, tokens: list[int], points: int) -> None:
    state = _end_state(Biel={"size_tokens": tokens})
    data = _ok_json("score", _write(tmp_path, "tokens.json", state))
    assert data["players"][1]["size_tokens"] == points == _size_token_points(tokens)


def test_score_tie_gives_two_winners(tmp_path: Path) -> None:
    # Anna: 8 + trophy 5 = 13; Carla: 6 + tile LP13 (5) + 2 tokens = 13; Biel: 12
    state = _end_state(
        Anna={"best_tower_score": 8, "prizes": {"trophy": 1}},
        Biel={"best_tower_score": 12},
        Carla={"best_tower_score": 6, "claimed_tiles": ["LP13"], "collected_tokens": 2},
    )
    path = _write(tmp_path, "tie.json", state)
    data = _ok_json("score", path)
    assert [c["total"] for c in data["players"]] == [13, 12, 13]
    assert data["winners"] == ["Anna", "Carla"]
    human = run("score", path)
    assert human.exit_code == 0
    assert "tied winners: Anna, Carla" in human.stdout


# --- --help ------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["board"], ["route"], ["wheel"], ["festival"], ["score"], ["state", "new"],
    ["state", "show"],
], ids=lambda c: " ".join(c))
def test_help_shows_an_example(command: list[str]) -> None:
    result = run(*command, "--help")
    no_crash(result)
    assert result.exit_code == 0
    assert "Example" in result.stdout, result.stdout
    lines = [line.strip() for line in result.stdout.splitlines()]
    prefix = "castell " + " ".join(command) + " "
    assert any(line.startswith(prefix) for line in lines), result.stdout


def test_commands_use_the_board_the_state_names(tmp_path: Path) -> None:
    state = tmp_path / "islands.json"
    assert run("state", "new", "--players", "2", "--board", str(ISLANDS),
               "--out", str(state)).exit_code == 0
    wheel = run("wheel", str(state), "--json")
    assert wheel.exit_code == 0, wheel.stderr
    slots = json.loads(wheel.stdout)["rounds"][0]["slots"]
    assert set(slots) == {"all", "costa", "muntanya", "plana", "illa"}
    for command in (["state", "show"], ["score"], ["festival"]):
        assert run(*command, str(state)).exit_code == 0
    moved = json.loads(state.read_text())
    moved["board"] = "missing-board.toml"
    state.write_text(json.dumps(moved))
    assert_bad_input(run("wheel", str(state)), "missing-board.toml", "--board")


def test_a_player_count_that_contradicts_the_deal_is_refused(tmp_path: Path) -> None:
    deal = tmp_path / "deal.toml"
    template = run("state", "template", "--players", "3")
    deal.write_text(template.stdout)
    out = tmp_path / "game.json"
    assert_bad_input(run("state", "new", "--deal", str(deal), "--players", "4", "-o", str(out)),
                     "--players: 4 players", "for 3 players")
    assert not out.exists()
    assert run("state", "new", "--deal", str(deal), "-o", str(out)).exit_code == 0
