"""`castell verify`: JSON shape, canonical text, exit codes, clean bad-input errors, batch mode."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from models.tower import Pool, SkillRanks, Tower, check_tower, rules_named
from tests.cli.helpers import assert_bad_input, is_uses, json_lines, no_crash, one_json, run

REPO = Path(__file__).resolve().parents[3]
VERIFY_KEYS = {"valid", "tower", "height", "castellers", "uses", "violations"}


def _assert_verify_shape(data: dict[str, Any]) -> None:
    assert set(data) == VERIFY_KEYS
    assert type(data["valid"]) is bool
    assert isinstance(data["tower"], str)
    assert type(data["height"]) is int
    assert type(data["castellers"]) is int
    violations = data["violations"]
    assert isinstance(violations, list)
    for v in violations:
        assert set(v) == {"rule", "level", "message"}
        assert isinstance(v["rule"], str)
        assert v["level"] is None or type(v["level"]) is int
        assert isinstance(v["message"], str) and v["message"]
    if data["valid"]:
        assert violations == []
        assert is_uses(data["uses"])
    else:
        assert violations
        assert data["uses"] is None
    tower = Tower.parse(data["tower"])
    assert str(tower) == data["tower"]  # the printed text is already canonical
    assert data["height"] == tower.height
    assert data["castellers"] == tower.castellers


# --- JSON shape and values ---------------------------------------------------------------------

def test_json_valid_tower_shape_and_values() -> None:
    result = run("verify", "9x4/7x3/5x2/3", "--skills", "width=1", "--json")
    assert result.exit_code == 0
    data = one_json(result)
    _assert_verify_shape(data)
    assert data["valid"] is True
    assert data["tower"] == "9,9,9,9/7,7,7/5,5/3"
    assert data["height"] == 4
    assert data["castellers"] == 10
    # Only the bottom level (4 castellers) is over the width limit 3: one Width use, nothing else
    # (sizes fall strictly, counts fall strictly, every level is one size).
    assert data["uses"] == {"balance": 0, "base": 0, "mix": 0, "strength": 0, "width": 1}
    assert data["violations"] == []


def test_json_invalid_tower_shape_and_exit_1() -> None:
    # Without Width the 4-casteller bottom level breaks R3.
    result = run("verify", "9x4/7x3/5x2/3", "--json")
    assert result.exit_code == 1
    data = one_json(result)
    _assert_verify_shape(data)
    assert data["valid"] is False
    assert data["uses"] is None
    assert [(v["rule"], v["level"]) for v in data["violations"]] == [("R3", 1)]
    assert result.stderr == ""


def test_json_strength_use_is_counted() -> None:
    # 6,6/6: the top 6 is as large as the smallest below: one Strength use, one fewer casteller.
    ok = one_json(run("verify", "6,6/6", "--skills", "strength=1", "--json"))
    assert ok["valid"] is True
    assert ok["uses"] == {"balance": 0, "base": 0, "mix": 0, "strength": 1, "width": 0}
    bad = run("verify", "6,6/6", "--json")
    assert bad.exit_code == 1
    assert [v["rule"] for v in one_json(bad)["violations"]] == ["R2"]


@pytest.mark.parametrize(("text", "canonical"), [
    ("9x4/7x3/5x2/3", "9,9,9,9/7,7,7/5,5/3"),
    ("9,9,9,9/7,7,7/5,5/3", "9,9,9,9/7,7,7/5,5/3"),
    (" 9X2 / 7 ", "9,9/7"),
    ("7,8/6", "8,7/6"),
    ("10,9x3/8", "10,9,9,9/8"),
])
def test_canonical_tower_text(text: str, canonical: str) -> None:
    result = run("verify", "--json", "--skills", "mix=1,base=1", "--", text)
    data = one_json(result)
    assert data["tower"] == canonical
    assert result.exit_code == (0 if data["valid"] else 1)


@pytest.mark.parametrize(("tower", "skills", "pool", "rules"), [
    ("9x4/7x3/5x2/3", "width=1", "9x4,7x3,5x2,3", "standard"),
    ("9x4/7x3/5x2/3", "width=1", "9x3,7x3,5x2,3", "standard"),  # one 9 short in the pool
    ("9,9,9/7", "none", None, "standard"),
    ("9,9,9/7", "none", None, "one-fewer"),  # 3 -> 1 is two fewer
    ("5x5/4,4/2", "base=1", None, "bottom-base"),
    ("5x5/4x4/2", "base=2", None, "bottom-base"),  # only the bottom level may be freed
    ("6,5/4", "mix=1", None, "standard"),
])
def test_json_agrees_with_checker(tower: str, skills: str, pool: str | None, rules: str) -> None:
    args = ["verify", tower, "--skills", skills, "--rules", rules, "--json"]
    if pool is not None:
        args += ["--pool", pool]
    result = run(*args)
    data = one_json(result)
    _assert_verify_shape(data)
    variant = rules_named(rules)
    check = check_tower(Tower.parse(tower, variant), SkillRanks.parse(skills), variant,
                        Pool.parse(pool, variant) if pool else None)
    assert data["valid"] == check.valid
    assert data["violations"] == [v.as_dict() for v in check.violations]
    assert data["uses"] == (check.uses.as_dict() if check.uses else None)
    assert result.exit_code == (0 if check.valid else 1)


def test_rules_variant_changes_the_verdict() -> None:
    # 3 castellers then 1: any decrease is fine under standard; one-fewer wants exactly 3 -> 2.
    assert run("verify", "9,9,9/7", "--json").exit_code == 0
    result = run("verify", "9,9,9/7", "--rules", "one-fewer", "--json")
    assert result.exit_code == 1
    assert [v["rule"] for v in one_json(result)["violations"]] == ["R4"]


def test_pool_shortfall_is_a_violation() -> None:
    result = run("verify", "9x4/7x3/5x2/3", "--skills", "width=1", "--pool", "9x3,7x3,5x2,3",
                 "--json")
    assert result.exit_code == 1
    assert [v["rule"] for v in one_json(result)["violations"]] == ["pool"]


# --- human output -------------------------------------------------------------------------------

def test_human_output_valid() -> None:
    result = run("verify", "9x4/7x3/5x2/3", "--skills", "width=1")
    no_crash(result)
    assert result.exit_code == 0
    assert "9,9,9,9/7,7,7/5,5/3" in result.stdout
    assert "valid" in result.stdout
    assert "invalid" not in result.stdout


def test_human_output_invalid() -> None:
    result = run("verify", "9x4/7x3/5x2/3")
    no_crash(result)
    assert result.exit_code == 1
    assert "9,9,9,9/7,7,7/5,5/3" in result.stdout
    assert "invalid" in result.stdout
    assert "R3" in result.stdout


# --- bad input: exit 2, one line on stderr naming the token, no traceback -----------------------

@pytest.mark.parametrize(("args", "fragments"), [
    (["11"], ["size 11", "'11'"]),
    (["9/0"], ["size 0", "'0'"]),
    (["--", "-3"], ["size -3", "'-3'"]),
    (["9,-3"], ["size -3"]),
    (["a"], ["'a'"]),
    (["9/a/3"], ["'a'", "level 2"]),
    (["9,9//5"], ["level 2", "'9,9//5'", "empty"]),
    (["9x4/7x0"], ["'7x0'"]),
    (["9xz"], ["'9xz'"]),
    (["  "], ["empty"]),
    (["9", "--skills", "widht=1"], ["'widht'", "'width'"]),
    (["9", "--skills", "width=-1"], ["'width=-1'", "negative"]),
    (["9", "--skills", "width=x"], ["'x'", "width=x"]),
    (["9", "--skills", "width"], ["'width'", "NAME=RANK"]),
    (["9", "--skills", "width=1,width=2"], ["'width'", "twice"]),
    (["9", "--rules", "standrd"], ["'standrd'", "'standard'"]),
    (["9", "--rules", "house-rules"], ["'house-rules'"]),
    (["9", "--pool", "9,q"], ["'q'", "pool"]),
    (["9", "--pool", "9,11"], ["size 11", "pool"]),
    (["9", "--pool", "9x0"], ["'9x0'"]),
    (["9", "--pool", ""], ["pool is empty"]),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_bad_input_is_one_clean_line(args: list[str], fragments: list[str]) -> None:
    assert_bad_input(run("verify", "--json", *args), *fragments)
    assert_bad_input(run("verify", *args), *fragments)  # the human mode fails the same way


@pytest.mark.parametrize(("args", "fragments"), [
    ([], ["missing TOWER"]),
    (["9", "--batch", "-"], ["either a TOWER or --batch"]),
])
def test_usage_errors_exit_2(args: list[str], fragments: list[str]) -> None:
    assert_bad_input(run("verify", *args), *fragments)


@pytest.mark.parametrize(("args", "token"), [
    (["9", "--skills", "[/x]=1"], "[/x]"),  # rich reads '[/x]' as a closing markup tag
    (["[bold]9"], "[bold]9"),  # rich swallows '[bold]' as markup
    (["9", "--rules", "a:x:b"], "a:x:b"),  # rich turns ':x:' into an emoji
])
def test_error_message_prints_user_text_literally(args: list[str], token: str) -> None:
    """The offending text is shown as typed: never parsed as console markup or emoji codes."""
    assert_bad_input(run("verify", *args), token)


def test_bad_input_in_a_real_process_has_no_traceback() -> None:
    done = subprocess.run([sys.executable, "-m", "cli", "verify", "11"], cwd=REPO,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr + done.stdout
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "11" in lines[0]


# --- help -----------------------------------------------------------------------------------------

def test_help_shows_an_example() -> None:
    result = run("verify", "--help")
    assert result.exit_code == 0
    assert "Example" in result.stdout
    assert "castell verify" in result.stdout
    assert "--batch" in result.stdout


def test_root_help_lists_commands() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for command in ("verify", "best", "check"):
        assert command in result.stdout


def test_python_dash_m_cli_help() -> None:
    done = subprocess.run([sys.executable, "-m", "cli", "--help"], cwd=REPO,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "verify" in done.stdout
    assert "Traceback" not in done.stderr


# --- batch mode -----------------------------------------------------------------------------------

BATCH_LINES = [
    '{"tower": "6,6/6"}',                                           # 1: invalid (needs Strength)
    "",                                                             # 2: blank, skipped
    '{"tower": "9x4/7x3/5x2/3", "skills": "width=1"}',              # 3: valid
    "not json",                                                     # 4: bad
    '{"tower": "11"}',                                              # 5: bad size
    '{"tower": "9/5", "colour": "red"}',                            # 6: unknown key
    '{"tower": "9/5", "skills": "widht=1"}',                        # 7: unknown skill
    '{"skills": "width=1"}',                                        # 8: no tower
    "   ",                                                          # 9: blank, skipped
    '{"tower": "9,9/7", "pool": "9,7"}',                            # 10: invalid (pool)
    '{"tower": "9,9,9/7", "rules": "one-fewer"}',                   # 11: invalid (R4)
    '{"tower": "9", "rules": "nope"}',                              # 12: bad rules
]


def _check_batch_output(items: list[dict[str, Any]]) -> None:
    assert len(items) == 10  # one per non-blank line, in order
    errors = {item["line"]: item["error"] for item in items if "error" in item}
    assert set(errors) == {4, 5, 6, 7, 8, 12}
    for item in items:
        if "error" in item:
            assert set(item) == {"line", "error"}
            assert isinstance(item["error"], str) and item["error"]
        else:
            _assert_verify_shape(item)
    assert "JSON" in errors[4]
    assert "11" in errors[5]
    assert "colour" in errors[6]
    assert "'width'" in errors[7]
    assert "tower" in errors[8]
    assert "nope" in errors[12]
    answers = [item for item in items if "error" not in item]
    assert [(a["tower"], a["valid"]) for a in answers] == [
        ("6,6/6", False), ("9,9,9,9/7,7,7/5,5/3", True), ("9,9/7", False), ("9,9,9/7", False),
    ]
    assert [v["rule"] for v in answers[2]["violations"]] == ["pool"]
    assert [v["rule"] for v in answers[3]["violations"]] == ["R4"]
    # results keep the input order
    positions = [i for i, item in enumerate(items) if "error" in item]
    assert [items[i]["line"] for i in positions] == [4, 5, 6, 7, 8, 12]
    assert positions == [2, 3, 4, 5, 6, 9]


def test_batch_from_stdin() -> None:
    result = run("verify", "--batch", "-", input="\n".join(BATCH_LINES) + "\n")
    assert result.exit_code == 2  # some lines were bad
    _check_batch_output(json_lines(result))
    assert result.stderr == ""


def test_batch_from_file(tmp_path: Path) -> None:
    path = tmp_path / "towers.jsonl"
    path.write_text("\n".join(BATCH_LINES), encoding="utf-8")
    result = run("verify", "--batch", str(path))
    assert result.exit_code == 2
    _check_batch_output(json_lines(result))


def test_batch_all_good_exits_0_even_with_invalid_towers(tmp_path: Path) -> None:
    path = tmp_path / "good.jsonl"
    lines = [{"tower": "9x4/7x3/5x2/3", "skills": "width=1", "pool": "9x4,7x3,5x2,3"},
             {"tower": "6,6/6"},
             {"tower": "9,9,9/7", "rules": "one-fewer"}]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n\n", encoding="utf-8")
    result = run("verify", "--batch", str(path))
    assert result.exit_code == 0
    items = json_lines(result)
    assert [item["valid"] for item in items] == [True, False, False]
    for item in items:
        _assert_verify_shape(item)


def test_batch_empty_input_prints_nothing() -> None:
    result = run("verify", "--batch", "-", input="\n  \n")
    assert result.exit_code == 0
    assert result.stdout == ""


def test_batch_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    assert_bad_input(run("verify", "--batch", str(missing)), "nope.jsonl")


def test_batch_file_not_utf8_is_bad_input(tmp_path: Path) -> None:
    """A batch file that is not UTF-8 text is the user's input problem (exit 2), not a bug."""
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'\xff\xfe{"tower": "9"}\n')
    assert_bad_input(run("verify", "--batch", str(path)), "latin1.jsonl")


# --- asked of a game: the game's readings, what-ifs ----------------------------------------------

GAME = "examples/game/round3.json"
ANNA = ("--pool", "10x4,8,6x2,5,1", "--skills", "balance=1,strength=1,width=1")  # as in GAME
WIDE = "10,10,10,10/6,6/5/1"  # valid under the standard rules, not under one-fewer (R4)


def test_rules_with_a_state_is_refused() -> None:
    from cli.edge import HINTS
    from service.castell import RULES_WITH_STATE

    result = run("verify", WIDE, "--state", GAME, "--player", "anna", "--rules", "one-fewer")
    assert assert_bad_input(result) == f"error: --rules: {RULES_WITH_STATE}{HINTS['rules']}"


def test_a_what_if_answers_under_its_readings_and_says_so() -> None:
    game = ("--state", GAME, "--player", "anna")
    what_if = one_json(run("verify", WIDE, *game, "--what-if-rules", "one-fewer", "--json"))
    assert what_if.pop("what_if_rules") == "one-fewer"
    assert what_if == one_json(run("verify", WIDE, *ANNA, "--rules", "one-fewer", "--json"))
    assert what_if["valid"] is False and one_json(run("verify", WIDE, *game, "--json"))["valid"]
    human = run("verify", WIDE, *game, "--what-if-rules", "one-fewer")
    assert human.exit_code == 1
    assert human.stdout.splitlines()[0] == "what-if: readings one-fewer, not the game's"


def test_verify_of_a_game_honours_its_stored_readings(tmp_path: Path) -> None:
    rules = "standard,decrease=one-fewer"
    data = json.loads(Path(GAME).read_text())
    data["rules"] = rules_named(rules).settings()
    state = tmp_path / "game.json"
    state.write_text(json.dumps(data))
    stored = one_json(run("verify", WIDE, "--state", str(state), "--player", "Anna", "--json"))
    assert stored == one_json(run("verify", WIDE, *ANNA, "--rules", rules, "--json"))
    assert stored["valid"] is False
