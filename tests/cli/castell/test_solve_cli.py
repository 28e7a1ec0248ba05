"""`castell best` and `castell check`: JSON shape, exit codes, answers the checker accepts,
both engines agreeing, the time limit, and batch mode."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from models.tower import (
    Festival,
    Pool,
    SkillRanks,
    Tower,
    check_tower,
    meets_tile,
    parse_tile,
    rules_named,
)
from tests.cli.helpers import (
    SKILL_NAMES,
    assert_bad_input,
    is_uses,
    json_lines,
    no_crash,
    one_json,
    run,
)

SOLVE_KEYS = {"status", "tower", "levels", "height", "castellers", "score", "uses", "bound",
              "wall_time_s", "stopped_by_clock", "engine", "reasons", "closest", "suggestions"}
CHECK_KEYS = SOLVE_KEYS | {"achievable"}
EXIT_FOR = {"optimal": 0, "infeasible": 1, "feasible": 3, "unknown": 3}

POOL = "9x4,7x3,6,6,5x2,3"  # the README example
BAG = "1x15,2x15,3x15,4x15,5x15,6x15,7x15,8x15,9x15,10x15"  # the whole default bag
ALL_SKILLS = "balance=3,base=3,width=3,mix=3,strength=3"


def assert_solve_json(data: dict[str, Any], *, tile: bool = False) -> None:
    """Every key is there with the right type, and the tower fields agree with each other."""
    assert set(data) - {"why_not_complete"} == (CHECK_KEYS if tile else SOLVE_KEYS)
    assert isinstance(data.get("why_not_complete", False), bool)  # only with a why-not
    assert data["status"] in EXIT_FOR
    assert data["engine"] in ("dp", "cpsat", "search")
    assert isinstance(data["wall_time_s"], float | int) and data["wall_time_s"] >= 0
    assert isinstance(data["reasons"], list)
    assert all(isinstance(r, str) and r for r in data["reasons"])
    assert data["closest"] is None or isinstance(data["closest"], str)
    assert isinstance(data["suggestions"], list)
    for suggestion in data["suggestions"]:
        assert len(suggestion) == 1
        (key, value), = suggestion.items()
        if key == "add_casteller":
            assert type(value) is int and 1 <= value <= 10
        else:
            assert key == "add_rank" and value in SKILL_NAMES
    assert data["score"] is None or type(data["score"]) is int
    assert data["bound"] is None or isinstance(data["bound"], int | float)
    if data["tower"] is None:
        assert data["status"] in ("infeasible", "unknown")
        assert data["levels"] is None and data["height"] is None
        assert data["castellers"] is None and data["uses"] is None and data["score"] is None
    else:
        assert data["status"] in ("optimal", "feasible")
        tower = Tower.parse(data["tower"])
        assert str(tower) == data["tower"]
        assert data["levels"] == tower.as_lists()
        assert type(data["height"]) is int and data["height"] == tower.height
        assert type(data["castellers"]) is int and data["castellers"] == tower.castellers
        assert is_uses(data["uses"])
    if data["status"] != "infeasible":  # a why-not only explains a proven no
        assert data["reasons"] == [] and data["suggestions"] == [] and data["closest"] is None
    if tile:
        expected = {"optimal": True, "infeasible": False}.get(data["status"])
        assert data["achievable"] is expected


def assert_sound(data: dict[str, Any], pool: str, skills: str = "none", rules: str = "standard",
                 *, festival: str | None = None, tile: str | None = None) -> None:
    """Whatever tower the CLI printed passes the solver-free checker, and so does its claim."""
    variant = rules_named(rules)
    ranks = SkillRanks.parse(skills)
    pool_value = Pool.parse(pool, variant)
    if data["tower"] is not None:
        tower = Tower.parse(data["tower"], variant)
        check = check_tower(tower, ranks, variant, pool_value)
        assert check.valid, (data["tower"], check.violations)
        assert data["uses"] in [a.as_dict() for a in check.accountings]
        if festival is not None:
            fest = Festival.parse(festival, variant)
            assert fest.eligible(tower, variant)
            assert data["score"] == fest.score(tower)
        elif tile is None:
            assert data["score"] is None
        if tile is not None:
            parsed = parse_tile(tile)
            assert meets_tile(parsed, tower, ranks, variant, pool_value)
            if hasattr(parsed, "skills"):  # the reported accounting uses every tile skill
                assert all(data["uses"][s.value] > 0 for s in parsed.skills)
    if data["closest"] is not None:
        closest = check_tower(Tower.parse(data["closest"], variant), ranks, variant, pool_value)
        assert closest.valid, (data["closest"], closest.violations)
    if data["status"] == "optimal" and tile is None:
        # a proven optimum meets its own bound: the score for a festival, the height otherwise
        assert data["bound"] == (data["score"] if festival is not None else data["height"])


def best(pool: str, skills: str = "none", rules: str = "standard", *, festival: str | None = None,
         engine: str = "cpsat", extra: tuple[str, ...] = ()) -> tuple[int, dict[str, Any]]:
    args = ["best", "--pool", pool, "--skills", skills, "--rules", rules, "--engine", engine,
            "--json", *extra]
    if festival is not None:
        args += ["--festival", festival]
    result = run(*args)
    data = one_json(result)
    assert_solve_json(data)
    assert data["engine"] == engine
    assert result.exit_code == EXIT_FOR[data["status"]], (result.exit_code, data["status"])
    assert_sound(data, pool, skills, rules, festival=festival)
    return result.exit_code, data


def check(tile: str, pool: str, skills: str = "none", rules: str = "standard", *,
          engine: str = "cpsat", extra: tuple[str, ...] = ()) -> tuple[int, dict[str, Any]]:
    result = run("check", tile, "--pool", pool, "--skills", skills, "--rules", rules,
                 "--engine", engine, "--json", *extra)
    data = one_json(result)
    assert_solve_json(data, tile=True)
    assert data["engine"] == engine
    assert result.exit_code == EXIT_FOR[data["status"]], (result.exit_code, data["status"])
    assert_sound(data, pool, skills, rules, tile=tile)
    return result.exit_code, data


# --- castell best --------------------------------------------------------------------------------

def test_best_festival_found() -> None:
    code, data = best(POOL, "width=1", festival="6,3")
    assert code == 0
    assert data["status"] == "optimal"
    # Hand check: Width 1 allows 4 castellers a level and, with no Balance, counts fall strictly,
    # so at most 4 levels; the pool has two 6s and one 3, so at most 3 matching castellers.
    # 9x4/7x3/6x2/3 reaches 4 + 3 = 7, so 7 is the best score.
    assert data["score"] == 7
    assert data["height"] == 4
    assert data["bound"] == 7


def test_best_festival_proven_infeasible() -> None:
    code, data = best(POOL, festival="6,3")
    assert code == 1
    assert data["status"] == "infeasible"
    assert data["tower"] is None and data["score"] is None
    # With no skills a level holds at most 3 and counts fall strictly: 3 levels at most, and a
    # festival needs 4. One Width rank (a 4-level base) fixes that.
    assert {"add_rank": "width"} in data["suggestions"]
    assert data["reasons"]
    assert data["closest"] is not None
    assert Tower.parse(data["closest"]).height == 3


def test_best_festival_suggestions_really_help() -> None:
    _, data = best(POOL, festival="6,3")
    assert data["suggestions"]
    for suggestion in data["suggestions"]:
        pool, skills = POOL, "none"
        if "add_rank" in suggestion:
            skills = f"{suggestion['add_rank']}=1"
        else:
            pool = f"{POOL},{suggestion['add_casteller']}"
        code, helped = best(pool, skills, festival="6,3")
        assert code == 0 and helped["status"] == "optimal", suggestion


def test_best_festival_size_not_in_pool() -> None:
    code, data = best(POOL, "width=1", festival="4")
    assert code == 1
    # one 4 on top of 9x4/7x3/5x2 makes a 4-level tower holding a 4
    assert {"add_casteller": 4} in data["suggestions"]
    assert any("size 4" in reason for reason in data["reasons"])


def test_best_tower_without_festival() -> None:
    code, data = best(POOL, "width=1")
    assert code == 0
    assert data["status"] == "optimal"
    # Hand check: counts at most 4, 3, 2, 1 (Width 1, no Balance), and the pool has 4 distinct
    # sizes at least as plentiful as needed (9x4, 7x3, 6x2 or 5x2, 3): 4 levels, 10 castellers.
    assert (data["height"], data["castellers"]) == (4, 10)
    assert data["score"] is None
    assert data["bound"] == 4


def test_best_tower_without_skills() -> None:
    code, data = best(POOL)
    assert code == 0
    # Hand check: no skill, so counts at most 3, 2, 1: a 3-level, 6-casteller tower.
    assert (data["height"], data["castellers"]) == (3, 6)


def test_best_of_an_empty_pool_is_proven_impossible() -> None:
    code, data = best("none")
    assert code == 1
    assert data["status"] == "infeasible" and data["tower"] is None


@pytest.mark.parametrize("rules", ["one-fewer", "bottom-base"])
def test_best_under_rule_variants(rules: str) -> None:
    code, data = best("9x5,8x4,7x3,6x2,5", "base=2,balance=1", rules)
    assert code == 0
    assert data["status"] == "optimal"


def test_best_human_output() -> None:
    result = run("best", "--pool", POOL, "--skills", "width=1", "--festival", "6,3")
    no_crash(result)
    assert result.exit_code == 0
    assert "optimal" in result.stdout
    assert "7" in result.stdout
    no = run("best", "--pool", POOL, "--festival", "6,3")
    no_crash(no)
    assert no.exit_code == 1
    assert "not achievable" in no.stdout
    assert "width" in no.stdout


# --- castell check -------------------------------------------------------------------------------

def test_check_shape_achievable() -> None:
    code, data = check("shape:4-3-2-1", "9x4,7x3,5x2,3", "width=1")
    assert code == 0
    assert data["achievable"] is True
    assert data["levels"] is not None
    assert [len(level) for level in data["levels"]] == [4, 3, 2, 1]


def test_check_shape_not_achievable() -> None:
    code, data = check("shape:4-3-2-1", "9x4,7x3,5x2,3")
    assert code == 1
    assert data["achievable"] is False
    assert data["status"] == "infeasible"
    # a 4-casteller level needs Width or Base; either one rank makes it possible
    assert {"add_rank": "width"} in data["suggestions"]
    assert {"add_rank": "base"} in data["suggestions"]
    assert data["reasons"]


def test_check_exhibition_needs_the_listed_skill() -> None:
    code, data = check("exhibition:4:balance+width", "9x4,7x3,5x2,3", "width=1")
    assert code == 1
    assert data["achievable"] is False
    assert data["suggestions"] == [{"add_rank": "balance"}]
    code, data = check("exhibition:4:balance+width", "9x4,7x3,5x2,3", "width=1,balance=1")
    assert code == 0
    assert data["achievable"] is True
    assert data["height"] == 4
    assert data["uses"]["balance"] >= 1 and data["uses"]["width"] >= 1


def test_check_human_output() -> None:
    result = run("check", "shape:4-3-2-1", "--pool", "9x4,7x3,5x2,3", "--skills", "width=1")
    no_crash(result)
    assert result.exit_code == 0
    assert "achievable" in result.stdout
    assert "shape:4-3-2-1" in result.stdout


# --- both engines give the same answers ---------------------------------------------------------

SMALL = [
    (POOL, "width=1", "standard"),
    (POOL, "width=1,balance=1", "standard"),
    ("10,9x3,7,7,5x2", "balance=1", "standard"),
    ("6x3,5x2,4,3", "mix=1,strength=1", "standard"),
    ("5x5,4x2,3,2", "base=1,balance=1", "bottom-base"),
    ("8x3,7x2,6x2,5,4", "balance=1", "one-fewer"),
]


@pytest.mark.parametrize(("pool", "skills", "rules"), SMALL)
def test_engines_agree_on_best(pool: str, skills: str, rules: str) -> None:
    a = best(pool, skills, rules, engine="cpsat")
    b = best(pool, skills, rules, engine="search")
    assert a[0] == b[0]
    assert (a[1]["height"], a[1]["castellers"]) == (b[1]["height"], b[1]["castellers"])


@pytest.mark.parametrize(("pool", "skills", "rules"), SMALL)
@pytest.mark.parametrize("festival", ["6,3", "5"])
def test_engines_agree_on_festival(pool: str, skills: str, rules: str, festival: str) -> None:
    a = best(pool, skills, rules, festival=festival, engine="cpsat")
    b = best(pool, skills, rules, festival=festival, engine="search")
    assert (a[0], a[1]["status"], a[1]["score"]) == (b[0], b[1]["status"], b[1]["score"])
    assert sorted(map(str, a[1]["suggestions"])) == sorted(map(str, b[1]["suggestions"]))


@pytest.mark.parametrize(("pool", "skills", "rules"), SMALL)
@pytest.mark.parametrize("tile", ["shape:3-2-1", "shape:4-3-2-1", "exhibition:3:width",
                                  "exhibition:4:balance"])
def test_engines_agree_on_check(pool: str, skills: str, rules: str, tile: str) -> None:
    a = check(tile, pool, skills, rules, engine="cpsat")
    b = check(tile, pool, skills, rules, engine="search")
    assert (a[0], a[1]["achievable"]) == (b[0], b[1]["achievable"])


def test_engines_agree_on_a_festival_with_balance() -> None:
    # Hand check: Width 1 and Balance 1 allow counts 4,3,2,2,1 -> 5 levels (9x4/7x3/6x2/5x2/3),
    # holding both 6s and the 3: score 5 + 3 = 8, and no tower has more levels or matches.
    for engine in ("cpsat", "search"):
        code, data = best(POOL, "width=1,balance=1", festival="6,3", engine=engine)
        assert code == 0
        assert data["score"] == 8


# --- the time limit: exit 3, decided by the work, not by the clock -------------------------------

TIME_LIMIT = ("--time-limit", "0.05")


def test_time_limit_best_search_on_the_whole_bag() -> None:
    # The exhaustive search cannot walk every tower of 150 castellers with every skill at 3, so
    # it can never prove optimality: whatever it found, the answer is "not proven".
    code, data = best(BAG, ALL_SKILLS, engine="search", extra=TIME_LIMIT)
    assert data["status"] in ("feasible", "unknown")
    assert code == 3


def test_time_limit_festival_search_on_the_whole_bag() -> None:
    code, data = best(BAG, ALL_SKILLS, festival="6,3", engine="search", extra=TIME_LIMIT)
    assert data["status"] in ("feasible", "unknown")
    assert code == 3


def test_time_limit_check_search_on_the_whole_bag() -> None:
    # Eleven levels of 4 need Balance 10 (rank 3): no tower meets it, but the search can only
    # know that after walking every tower up to 11 levels, which it cannot do in time.
    code, data = check("shape:4-4-4-4-4-4-4-4-4-4-4", BAG, ALL_SKILLS, engine="search",
                       extra=TIME_LIMIT)
    assert data["status"] == "unknown"
    assert data["achievable"] is None  # neither a yes nor a proven no
    assert code == 3


def test_time_limit_human_output() -> None:
    result = run("best", "--pool", BAG, "--skills", ALL_SKILLS, "--engine", "search",
                 *TIME_LIMIT)
    no_crash(result)
    assert result.exit_code == 3
    assert "feasible" in result.stdout or "unknown" in result.stdout


# --- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "fragments"), [
    (["best", "--pool", "9,q"], ["'q'", "pool"]),
    (["best", "--pool", "9,11"], ["size 11"]),
    (["best", "--pool", ""], ["pool is empty"]),
    (["best", "--pool", "9", "--festival", "11"], ["size 11", "festival"]),
    (["best", "--pool", "9", "--festival", "6,,3"], ["'6,,3'"]),
    (["best", "--pool", "9", "--festival", ""], ["festival"]),
    (["best", "--pool", "9", "--skills", "widht=1"], ["'widht'", "'width'"]),
    (["best", "--pool", "9", "--skills", "width=-1"], ["'width=-1'"]),
    (["best", "--pool", "9", "--rules", "standrd"], ["'standrd'"]),
    (["best", "--pool", "9", "--engine", "gurobi"], ["'gurobi'", "cpsat", "search"]),
    (["best"], ["missing --pool"]),
    (["check", "shape:4-0", "--pool", "9"], ["'shape:4-0'"]),
    (["check", "shape:", "--pool", "9"], ["'shape:'"]),
    (["check", "shape:a-2", "--pool", "9"], ["'a'", "'shape:a-2'"]),
    (["check", "exhibition:4", "--pool", "9"], ["'exhibition:4'"]),
    (["check", "exhibition:0:width", "--pool", "9"], ["'exhibition:0:width'"]),
    (["check", "exhibition:4:widht", "--pool", "9"], ["'widht'", "'width'"]),
    (["check", "exhibition:4:width+width", "--pool", "9"], ["twice"]),
    (["check", "circle:3", "--pool", "9"], ["'circle:3'"]),
    (["check", "shape:1", "--pool", "9,q"], ["'q'"]),
    (["check", "shape:1", "--pool", "9", "--engine", "gurobi"], ["'gurobi'"]),
    (["check", "shape:1"], ["missing TILE or --pool"]),
    (["check", "--pool", "9"], ["missing TILE or --pool"]),
    (["check", "shape:1", "--batch", "-"], ["either a TILE or --batch"]),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_bad_input_is_one_clean_line(args: list[str], fragments: list[str]) -> None:
    assert_bad_input(run(*args, "--json"), *fragments)
    assert_bad_input(run(*args), *fragments)


@pytest.mark.parametrize("args", [
    ["best", "--pool", "9", "--time-limit", "0"],
    ["best", "--pool", "9", "--time-limit", "nan"],
    ["best", "--pool", "9", "--workers", "0"],
    ["check", "shape:1", "--pool", "9", "--time-limit", "-1"],
])
def test_bad_option_values_exit_2(args: list[str]) -> None:
    result = run(*args)
    no_crash(result)
    assert result.exit_code == 2
    assert result.stdout == ""


def test_check_error_shows_the_tile_literally() -> None:
    """':x:' in a tile is shown as typed, not turned into an emoji by the console."""
    assert_bad_input(run("check", "exhibition:x:width", "--pool", "9"), "'exhibition:x:width'")


# --- help ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["best", "check"])
def test_help_shows_examples(command: str) -> None:
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "Example" in result.stdout
    assert f"castell {command}" in result.stdout


# --- batch mode ----------------------------------------------------------------------------------

BEST_LINES: list[Any] = [
    {"pool": POOL, "skills": "width=1", "festival": "6,3"},                   # 1: optimal, 7
    {"pool": POOL},                                                           # 2: best tower
    None,                                                                     # 3: blank
    "not json",                                                               # 4: bad
    {"pool": "9,q"},                                                          # 5: bad pool
    {"pool": "9", "colour": "red"},                                           # 6: unknown key
    {"pool": "9", "engine": "gurobi"},                                        # 7: bad engine
    {"pool": "9", "time_limit": 0},                                           # 8: bad limit
    {"pool": "9", "tile": "shape:1"},                                         # 9: check's key
    {"pool": POOL, "festival": "6,3"},                                        # 10: infeasible
    {"pool": POOL, "skills": "width=1", "engine": "search", "festival": "5"},  # 11: optimal
]


def _jsonl(lines: list[Any]) -> str:
    out = []
    for line in lines:
        if line is None:
            out.append("   ")
        elif isinstance(line, str):
            out.append(line)
        else:
            out.append(json.dumps(line))
    return "\n".join(out) + "\n"


def _split_batch(sent: list[Any], items: list[dict[str, Any]], tile: bool) -> dict[int, str]:
    """Each answer in order checked against its line; the error objects, by line number."""
    lines = [line for line in sent if line is not None]
    assert len(items) == len(lines)  # one per non-blank line, in order
    errors = {}
    for asked, got in zip(lines, items, strict=True):
        if "error" in got:
            assert set(got) == {"line", "error"}
            errors[got["line"]] = got["error"]
            continue
        assert_solve_json(got, tile=tile)
        assert_sound(got, asked["pool"], asked.get("skills", "none"),
                     festival=asked.get("festival"), tile=asked.get("tile"))
    return errors


def _check_best_batch(items: list[dict[str, Any]]) -> None:
    assert len(items) == 10
    errors = _split_batch(BEST_LINES, items, tile=False)
    assert set(errors) == {4, 5, 6, 7, 8, 9}
    assert "JSON" in errors[4]
    assert "'q'" in errors[5]
    assert "colour" in errors[6]
    assert "gurobi" in errors[7]
    assert "time_limit" in errors[8]
    assert "tile" in errors[9]
    answers = [item for item in items if "error" not in item]
    assert [a["status"] for a in answers] == ["optimal", "optimal", "infeasible", "optimal"]
    assert answers[0]["score"] == 7  # the hand-checked case above
    assert {"add_rank": "width"} in answers[2]["suggestions"]
    assert answers[3]["engine"] == "search"


def _run_batch(command: str, lines: list[Any], source: str, tmp_path: Path) -> Result:
    """Run a batch from stdin or from a file."""
    if source == "stdin":
        return run(command, "--batch", "-", input=_jsonl(lines))
    path = tmp_path / f"{command}.jsonl"
    path.write_text(_jsonl(lines), encoding="utf-8")
    return run(command, "--batch", str(path))


@pytest.mark.parametrize("source", ["stdin", "file"])
def test_best_batch(source: str, tmp_path: Path) -> None:
    result = _run_batch("best", BEST_LINES, source, tmp_path)
    assert result.exit_code == 2
    _check_best_batch(json_lines(result))


CHECK_LINES: list[Any] = [
    {"pool": "9x4,7x3,5x2,3", "skills": "width=1", "tile": "shape:4-3-2-1"},   # 1: achievable
    {"pool": "9x4,7x3,5x2,3", "tile": "shape:4-3-2-1"},                       # 2: not
    None,                                                                     # 3: blank
    {"pool": "9x4", "tile": "circle:3"},                                      # 4: bad tile
    {"pool": "9"},                                                            # 5: no tile
    {"pool": "9", "tile": "shape:1", "festival": "3"},                        # 6: best's key
    {"pool": "9", "tile": "shape:1", "extra": True},                          # 7: unknown key
    [1, 2],                                                                   # 8: not an object
    {"pool": "9x4,7x3,5x2,3", "skills": "width=1,balance=1",
     "tile": "exhibition:4:balance+width", "engine": "search"},               # 9: achievable
]


def _check_check_batch(items: list[dict[str, Any]]) -> None:
    errors = _split_batch(CHECK_LINES, items, tile=True)
    assert set(errors) == {4, 5, 6, 7, 8}
    assert "circle:3" in errors[4]
    assert "tile" in errors[5]
    assert "festival" in errors[6]
    assert "extra" in errors[7]
    answers = [item for item in items if "error" not in item]
    assert [a["achievable"] for a in answers] == [True, False, True]


@pytest.mark.parametrize("source", ["stdin", "file"])
def test_check_batch(source: str, tmp_path: Path) -> None:
    result = _run_batch("check", CHECK_LINES, source, tmp_path)
    assert result.exit_code == 2
    _check_check_batch(json_lines(result))


@pytest.mark.parametrize("command", ["best", "check"])
def test_batch_all_good_exits_0(command: str, tmp_path: Path) -> None:
    # a proven "no" is an answer, not a bad line: the batch still exits 0
    lines: list[Any] = [{"pool": POOL, "festival": "6,3"}, {"pool": POOL, "skills": "width=1"}]
    if command == "check":
        lines = [{"pool": POOL, "tile": "shape:4-3-2-1"},
                 {"pool": POOL, "tile": "shape:4-3-2-1", "skills": "width=1"}]
    path = tmp_path / "good.jsonl"
    path.write_text(_jsonl(lines), encoding="utf-8")
    result = run(command, "--batch", str(path))
    assert result.exit_code == 0
    items = json_lines(result)
    assert [item["status"] for item in items] == ["infeasible", "optimal"]


@pytest.mark.parametrize("command", ["best", "check"])
def test_batch_missing_file(command: str, tmp_path: Path) -> None:
    assert_bad_input(run(command, "--batch", str(tmp_path / "nope.jsonl")), "nope.jsonl")


# --- asked of a game: names as typed, the game's readings, what-ifs ----------------------------

GAME = "examples/game/round3.json"
ANNA = ("--pool", "10x4,8,6x2,5,1", "--skills", "balance=1,strength=1,width=1")  # as in GAME


def _unclocked(result: Result) -> dict[str, Any]:
    data = one_json(result)
    data.pop("wall_time_s")
    return data


def _game_with(tmp_path: Path, rules: str) -> Path:
    """GAME with `rules` stored as its readings; Anna to move, three moves from Girona with
    one special token, and Girona's festival (size token 8) at the end of this round."""
    data = json.loads(Path(GAME).read_text())
    data["rules"] = rules_named(rules).settings()
    data["turn"]["player"] = "Anna"
    for player in data["players"]:
        if player["name"] == "Anna":
            player.update(pawn="terres-de-lebre", special_tokens=1)
    data["festivals"][0].update(region="girona", location="Girona", size_tokens=[8])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("typed", ["anna", "ANNA", " Anna "])
def test_best_and_check_of_a_player_named_as_typed(typed: str) -> None:
    # `best --player anna` was an internal error (exit 4: 'anna' is not in list)
    mine = ("--state", GAME, "--player", typed)
    assert _unclocked(run("best", *mine, "--json")) == \
        _unclocked(run("best", "--state", GAME, "--player", "Anna", "--json"))
    assert _unclocked(run("check", "LP09", *mine, "--json")) == \
        _unclocked(run("check", "LP09", "--state", GAME, "--player", "Anna", "--json"))


@pytest.mark.parametrize("command", [["best"], ["check", "shape:4-2-1-1"]])
def test_rules_with_a_state_is_refused(command: list[str]) -> None:
    # it was dropped silently: `best` answered under the game's readings
    from cli.edge import HINTS
    from service.castell import RULES_WITH_STATE

    result = run(*command, "--state", GAME, "--player", "Anna", "--rules", "one-fewer")
    assert assert_bad_input(result) == f"error: --rules: {RULES_WITH_STATE}{HINTS['rules']}"


@pytest.mark.parametrize(("command", "asked"), [
    (["best"], ["best", "--festival", "10"]),
    (["check", "shape:4-2-1-1"], ["check", "shape:4-2-1-1"])])
def test_a_what_if_answers_under_its_readings_and_says_so(command: list[str],
                                                          asked: list[str]) -> None:
    game = ("--state", GAME, "--player", "Anna")
    what_if = _unclocked(run(*command, *game, "--what-if-rules", "one-fewer", "--json"))
    assert what_if.pop("what_if_rules") == "one-fewer"
    assert what_if == _unclocked(run(*asked, *ANNA, "--rules", "one-fewer", "--json"))
    assert what_if != _unclocked(run(*command, *game, "--json"))  # the readings matter here
    human = run(*command, *game, "--what-if-rules", "one-fewer")
    assert human.stdout.splitlines()[0] == "what-if: readings one-fewer, not the game's"
    assert "what-if" not in run(*command, *game).stdout


def test_a_what_if_goes_with_a_state() -> None:
    assert_bad_input(run("best", *ANNA, "--what-if-rules", "one-fewer"), "--what-if-rules",
                     "--state")


def test_best_of_a_game_takes_the_festival_its_readings_reach(tmp_path: Path) -> None:
    # special_move=any: one special move takes Anna to Girona this turn; reach used the
    # graph distance (three moves) and ignored the game's readings, so it took no festival
    rules = "standard,special_move=any"
    game = ("--state", str(_game_with(tmp_path, rules)), "--player", "Anna")
    human = run("best", *game)
    assert "Anna's next reachable festival: Girona" in human.stdout
    assert _unclocked(run("best", *game, "--json")) == \
        _unclocked(run("best", *ANNA, "--rules", rules, "--festival", "8", "--json"))
    # under the standard reading of the special move, Girona is out of reach
    standard = ("--state", str(_game_with(tmp_path, "standard")), "--player", "Anna")
    assert "Girona" not in run("best", *standard).stdout


def test_check_of_a_game_honours_its_stored_readings(tmp_path: Path) -> None:
    rules = "standard,decrease=one-fewer"
    game = ("--state", str(_game_with(tmp_path, rules)), "--player", "Anna")
    stored = _unclocked(run("check", "shape:4-2-1-1", *game, "--json"))
    assert stored == _unclocked(run("check", "shape:4-2-1-1", *ANNA, "--rules", rules,
                                    "--json"))
    assert stored["achievable"] is False
    assert _unclocked(run("check", "shape:4-2-1-1", *ANNA, "--json"))["achievable"] is True


def test_batch_lines_are_as_strict_as_the_files(tmp_path: Path) -> None:
    """`"time_limit": "5"` is no 5 seconds and `"keys": true` no 1 key: such a line is bad."""
    lines = [{"pool": "9x4,7x3", "time_limit": "5"}, {"pool": "9x4,7x3", "time_limit": 5}]
    batch = tmp_path / "best.jsonl"
    batch.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    result = run("best", "--batch", str(batch))
    first, second = [json.loads(line) for line in result.stdout.splitlines()]
    assert first["line"] == 1 and "time_limit" in first["error"]
    assert second["status"] == "optimal"
    assert result.exit_code == 2


def test_a_why_not_cut_short_claims_nothing_it_did_not_try() -> None:
    """The time limit came during the why-not's re-solves: not "no single extra casteller or
    +1 rank makes it achievable" (untried), but that the list may not be all."""
    args = ("check", "exhibition:150:balance+width", "--pool",
            "10x9,9x14,8x11,7x10,6x8,5x10,4x9,3x9,2x10,1x11", "--skills",
            "balance=150,base=150,mix=150,strength=150,width=150", "--engine", "cpsat",
            "--time-limit", "1")
    human, data = run(*args), json.loads(run(*args, "--json").stdout)
    assert data["why_not_complete"] is False
    assert "No single extra casteller" not in human.stdout
    assert "time limit came before every extra casteller" in " ".join(human.stdout.split())


def test_the_memory_bound_is_not_told_as_the_time_limit() -> None:
    # the dynamic program's memory bound ended the solve: more time would not help
    from types import SimpleNamespace

    from cli.castell.solve import _status_line

    def line(memory_hit: bool) -> str:
        reply = SimpleNamespace(status="unknown", is_tile=False,
                                result=SimpleNamespace(memory_hit=memory_hit))
        return _status_line(reply)  # type: ignore[arg-type]

    assert "memory bound" in line(True) and "time limit" not in line(True)
    assert "time limit" in line(False)
