"""`castell schema COMMAND` prints valid JSON Schema, and every command's real `--json` output
validates against its model and that schema, with `schema_version` first."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import models.combo as combo
from cli.edge import SCHEMA_VERSION
from cli.main import COMMANDS
from service.results.registry import SCHEMAS, adapter
from tests.cli.helpers import assert_bad_input, no_crash, run

GAME = "examples/game/round3.json"
PUZZLES = "examples/puzzles/medium.jsonl"
COMBO_TABLEAU = "C01,C02,C03/V01,V02,V03/~C06,C07,V12"
NINE = "C01,C05,C12,V03,V07,V18,V22,~C30,V31"


def _schema(command: str) -> dict[str, Any]:
    result = run("schema", *command.split())
    no_crash(result)
    assert result.exit_code == 0, result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    return document


@pytest.mark.parametrize("command", list(SCHEMAS))
def test_schema_is_valid_json_schema(command: str) -> None:
    document = _schema(command)
    jsonschema.Draft202012Validator.check_schema(document)
    assert document["title"] == f"castell {command} --json"
    # the schema names schema_version in every object a command prints (directly or in
    # each branch of a union); a puzzle line is the puzzle file's own format
    text = json.dumps(document)
    assert '"schema_version"' in text


def test_every_command_is_described() -> None:
    """Every command that prints a result has a schema."""
    described = {name.split()[0] for name in SCHEMAS}
    # serve prints no result; `error` is what any command prints with --json on an error
    assert described == set(COMMANDS) - {"schema", "serve"} | {"error"}
    # and every combo command with --json (`combo new` writes the state file)
    combo = {name.removeprefix("combo ") for name in SCHEMAS if name.startswith("combo ")}
    assert combo == {"cards", "score", "show", "play", "arrange", "advise", "tournament"}


def test_schema_of_an_unknown_command_lists_the_commands() -> None:
    assert_bad_input(run("schema", "nope"), "no schema for 'nope'", "state show", "best")


def _combo_games(tmp: Path) -> tuple[Path, str, Path, Path]:
    """A Castle Combo game just dealt (and a legal first action), one a few turns in, and one
    played to the end (random legal actions), as state files."""
    rng = random.Random(5)
    state = combo.new_game(combo.load_deck(), ["Ana", "Ben"], 5)
    first = str(combo.legal_actions(state)[-1])
    paths = []
    for name, turns in (("new", 0), ("mid", 6), ("over", None)):
        while (turns is None or turns > 0) and not state.now.game_over:
            state = combo.apply(state, rng.choice(combo.legal_actions(state)))
            turns = None if turns is None else turns - 1
        path = tmp / f"combo-{name}.json"
        path.write_text(state.to_json(), encoding="utf-8")
        paths.append(path)
    return paths[0], first, paths[1], paths[2]


def _runs(tmp: Path) -> list[tuple[str, list[str]]]:
    """A representative invocation of each command, with --json."""
    game = tmp / "game.json"
    shutil.copy(GAME, game)
    fresh, first, mid, over = _combo_games(tmp)
    return [
        ("verify", ["verify", "9x4/7x3/5x2/3", "--skills", "width=1", "--json"]),
        ("verify", ["verify", "9x4/7x3/5x2/3", "--json"]),  # invalid: violations
        ("verify", ["verify", "--batch", "examples/verify_batch.jsonl"]),
        ("best", ["best", "--pool", "9x4,7x3,5x2,3", "--json"]),
        ("best", ["best", "--batch", "examples/best_batch.jsonl"]),
        ("check", ["check", "shape:4-3-2-1", "--pool", "9x4,7x3,5x2,3", "--skills", "width=1",
                   "--json"]),
        ("check", ["check", "--batch", "examples/check_batch.jsonl"]),
        ("board", ["board", "--json"]),
        ("route", ["route", "Lleida", "Girona", "--json"]),
        ("wheel", ["wheel", GAME, "--skill", "width", "--json"]),
        ("festival", ["festival", GAME, "--json"]),
        ("score", ["score", GAME, "--json"]),
        ("plan", ["plan", GAME, "--turns", "1", "--json"]),
        ("play", ["play", str(game), "end", "--dry-run", "--json"]),
        ("rules", ["rules", "--json"]),
        ("state new", ["state", "new", "--players", "3", "--seed", "7", "--json"]),
        ("state new", ["state", "new", "--players", "2", "--out", str(tmp / "new.json"),
                       "--json"]),
        ("state show", ["state", "show", GAME, "--json"]),
        ("puzzle generate", ["puzzle", "generate", "--count", "1", "--json"]),
        ("puzzle generate", ["puzzle", "generate", "--count", "1", "--out",
                             str(tmp / "set.jsonl"), "--json"]),
        ("puzzle check", ["puzzle", "check", PUZZLES, "--json"]),
        ("puzzle solve", ["puzzle", "solve", PUZZLES, "--json"]),
        ("puzzle sheet", ["puzzle", "sheet", PUZZLES, "--out", str(tmp / "sheets"), "--json"]),
        ("puzzle book", ["puzzle", "book", "--count", "3", "--difficulty", "easy", "--out",
                         str(tmp / "book"), "--json"]),
        ("combo cards", ["combo", "cards", "--json"]),
        ("combo cards", ["combo", "cards", "--stats", "--json"]),
        ("combo score", ["combo", "score", COMBO_TABLEAU, "--keys", "3", "--gold", "12",
                         "--stored", "right=1", "--json"]),
        ("combo show", ["combo", "show", str(mid), "--json"]),
        ("combo show", ["combo", "show", str(over), "--json"]),  # scores and winners
        ("combo play", ["combo", "play", str(fresh), first, "--json"]),
        ("combo arrange", ["combo", "arrange", NINE, "--keys", "2", "--gold", "6", "--json"]),
        ("combo advise", ["combo", "advise", str(mid), "--samples", "2", "--seed", "3",
                          "--json"]),
        ("combo tournament", ["combo", "tournament", "--bots", "greedy,random", "--games",
                              "2", "--seed", "2", "--json"]),
        ("tournament", ["tournament", "--bots", "greedy,random", "--games", "2", "--seed", "2",
                        "--json"]),
        ("error", ["best", "--pool", "9x1_0", "--json"]),
        ("error", ["state", "new", "--players", "Anna,scorekeeper", "--json"]),
    ]


def test_each_output_validates_against_its_model_and_schema(tmp_path: Path) -> None:
    seen = set()
    for command, args in _runs(tmp_path):
        result = run(*args)
        no_crash(result)
        lines = result.stdout.splitlines()
        assert lines, (args, result.stderr)
        document = _schema(command)
        for line in lines:
            data = json.loads(line)
            adapter(command).validate_json(line)  # the model, strictly (no extra fields)
            jsonschema.validate(data, document)  # and the schema `castell schema` prints
            if command != "puzzle generate" or "wrote" in data:  # not a puzzle of the stream
                assert next(iter(data)) == "schema_version", args
                assert data["schema_version"] == SCHEMA_VERSION
        seen.add(command)
    assert seen == set(SCHEMAS)


def test_a_drifted_output_fails_its_model() -> None:
    """The models forbid unknown fields: an output that grew a field fails until described."""
    data = json.loads(run("route", "Lleida", "Girona", "--json").stdout)
    adapter("route").validate_python(data)
    with pytest.raises(ValueError, match="extra"):
        adapter("route").validate_python({**data, "new_field": 1})


def test_a_bad_batch_line_validates_as_a_batch_error() -> None:
    result = run("verify", "--batch", "-", input='{"tower": "6,6/6"}\nnot json\n')
    assert result.exit_code == 2
    good, bad = result.stdout.splitlines()
    document = _schema("verify")
    for line in (good, bad):
        adapter("verify").validate_json(line)
        jsonschema.validate(json.loads(line), document)
    assert json.loads(bad)["line"] == 2
