"""The fuzz suite (issue 13): random and adversarial text fed to every parser, file and batch
line; only exit 0/1/2 (3 for a solve's time limit), one stderr line on a refusal, never a
traceback, each within a time cap (the hypothesis deadline) and, in a real process, a memory
cap. A modest budget: the whole module runs in well under a minute."""

from __future__ import annotations

import contextlib
import copy
import json
import resource
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.errors import SpecError
from models.game.board import board_from_dict, default_board_path
from models.tower import Festival, Pool, SkillRanks, Tower, parse_tile
from tests.cli.helpers import no_crash, run

FUZZ = settings(max_examples=120, deadline=5000, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
CLI_FUZZ = settings(FUZZ, max_examples=25)

# Text a user might type, and text meant to hurt: digits of other scripts, underscores,
# huge repeats, markup, surrogates, separators of every notation.
PIECES = st.sampled_from([
    "9", "10", "0", "-1", "x", "X", "x3", "x99999999999", ",", "/", "-", ":", "+", "=", " ",
    "1_0", "\u0661", "\uff11", "\ud800", "[/]", "[bold]", "nan", "inf", "none", "width",
    "balance", "shape", "exhibition", "9" * 40, "\n", "\x00", "é", "😀",
])
NOTATION = st.one_of(st.text(max_size=40), st.lists(PIECES, max_size=25).map("".join))


@FUZZ
@given(NOTATION)
def test_notation_parsers_accept_or_refuse_cleanly(text: str) -> None:
    parsers = [Pool.parse, Tower.parse, SkillRanks.parse, parse_tile, Festival.parse]
    for parse in parsers:
        with contextlib.suppress(SpecError):  # a refusal (NotationError too), nothing else
            parse(text)


def assert_clean(result: Any, allowed: tuple[int, ...] = (0, 1, 2)) -> None:
    no_crash(result)
    assert result.exit_code in allowed, (result.exit_code, result.stderr)
    if result.exit_code == 2:
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


@CLI_FUZZ
@given(NOTATION, NOTATION, NOTATION)
def test_verify_takes_any_text(tower: str, skills: str, pool: str) -> None:
    assert_clean(run("verify", tower, "--skills", skills, "--pool", pool, "--json"))


@CLI_FUZZ
@given(NOTATION, NOTATION, st.one_of(st.none(), NOTATION))
def test_best_and_check_take_any_text(pool: str, skills: str, festival: str | None) -> None:
    extra = [] if festival is None else ["--festival", festival]
    assert_clean(run("best", "--pool", pool, "--skills", skills, *extra, "-t", "0.5",
                     "--json"), (0, 1, 2, 3))
    assert_clean(run("check", pool, "--pool", "9x4,7x3", "--skills", skills, "-t", "0.5",
                     "--json"), (0, 1, 2, 3))


OPTION_VALUES = st.one_of(NOTATION, st.integers().map(str), st.floats().map(str))


@CLI_FUZZ
@given(st.sampled_from(["--time-limit", "--seed", "--workers"]), OPTION_VALUES)
def test_numeric_options_take_any_text(option: str, value: str) -> None:
    assert_clean(run("best", "--pool", "9,8,7", option, value, "--json"), (0, 2))


@CLI_FUZZ
@given(st.sampled_from([["wheel", "examples/game/round3.json", "--round"],
                        ["wheel", "examples/game/round3.json", "--ahead"],
                        ["plan", "examples/game/round3.json", "--player"],
                        ["plan", "examples/game/round3.json", "--goal"],
                        ["route", "girona"]]), OPTION_VALUES)
def test_game_options_take_any_text(command: list[str], value: str) -> None:
    extra = ["-t", "0.5", "--turns", "1"] if command[0] == "plan" else []
    assert_clean(run(*command, value, *extra, "--json"), (0, 1, 2, 3))


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
              NOTATION),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=8)
LINE_FIELDS = st.fixed_dictionaries({}, optional={
    "tower": NOTATION, "pool": NOTATION, "skills": NOTATION, "tile": NOTATION,
    "festival": NOTATION, "rules": NOTATION, "time_limit": JSON_VALUES, "engine": NOTATION,
})
# a dict line solves within 0.3 s unless it says otherwise (the budget stays modest); raw
# text lines without surrogates (a file that is not UTF-8 is refused whole, not per line)
LINES = st.one_of(
    LINE_FIELDS.map(lambda line: json.dumps({"time_limit": 0.3, **line})),
    JSON_VALUES.map(json.dumps),
    NOTATION.filter(lambda text: not any("\ud800" <= c <= "\udfff" for c in text)))


@CLI_FUZZ
@given(st.lists(LINES, min_size=1, max_size=4))
def test_batches_answer_every_line(lines: list[str]) -> None:
    lines = [" ".join(line.splitlines()) for line in lines]
    answered = sum(1 for line in lines if line.strip())
    for command in ("verify", "best", "check"):
        result = run(command, "--batch", "-", input="\n".join(lines) + "\n")
        no_crash(result)
        assert result.exit_code in (0, 2), (command, result.stderr)
        outputs = result.stdout.splitlines()
        assert len(outputs) == answered, (command, lines, outputs)
        assert all(isinstance(json.loads(out), dict) for out in outputs)


STATE = json.loads(Path("examples/game/round3.json").read_text(encoding="utf-8"))


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path in a JSON value (so a mutation can land anywhere)."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, child in value.items():
            found += paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += paths(child, (*prefix, index))
    return found


STATE_PATHS = paths(STATE)


def mutated(data: Any, where: list[tuple[Any, ...]], values: list[Any]) -> Any:
    data = copy.deepcopy(data)
    for path, value in zip(where, values, strict=False):
        target = data
        try:  # an earlier change may have replaced a container on this path: skip it then
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    return data


@CLI_FUZZ
@given(st.lists(st.sampled_from(STATE_PATHS), min_size=1, max_size=3),
       st.lists(JSON_VALUES, min_size=3, max_size=3))
def test_state_files_take_any_value_anywhere(tmp_path_factory: pytest.TempPathFactory,
                                             where: list[tuple[Any, ...]],
                                             values: list[Any]) -> None:
    path = tmp_path_factory.mktemp("state") / "game.json"
    path.write_text(json.dumps(mutated(STATE, where, values)), encoding="utf-8")
    for command in (["state", "show"], ["score"], ["wheel"]):
        assert_clean(run(*command, str(path)))


BOARD = tomllib.loads(default_board_path().read_text(encoding="utf-8"))
BOARD_PATHS = paths(BOARD)


@FUZZ
@given(st.lists(st.sampled_from(BOARD_PATHS), min_size=1, max_size=3),
       st.lists(JSON_VALUES, min_size=3, max_size=3))
def test_board_data_takes_any_value_anywhere(where: list[tuple[Any, ...]],
                                             values: list[Any]) -> None:
    with contextlib.suppress(SpecError):
        board_from_dict(mutated(BOARD, where, values))


def _capped() -> None:  # a child's memory cap: 2 GiB of address space
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


ADVERSARIAL = [
    ["verify", "9x99999999"], ["best", "--pool", "9x99999999999"],
    ["wheel", "examples/game/round3.json", "--ahead", "1000000000"],
    ["puzzle", "generate", "--count", "100000000"], ["best", "--pool", "9", "--seed",
                                                     "2147483648"],
    ["verify", "9," * 50_000], ["check", "shape:" + "1-" * 50_000 + "1", "--pool", "9"],
]


@pytest.mark.parametrize("args", ADVERSARIAL, ids=lambda a: " ".join(a)[:40])
def test_adversarial_inputs_within_a_memory_and_time_cap(args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", *args],
                          capture_output=True, text=True, timeout=30, preexec_fn=_capped,
                          check=False)
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
