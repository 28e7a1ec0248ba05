"""`castell schema COMMAND` prints valid JSON Schema, and every command's real `--json` output
validates against its model and that schema, with `schema_version` first."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from cli.edge import SCHEMA_VERSION
from cli.main import COMMANDS
from cli.outputs import SCHEMAS, adapter
from tests.cli.helpers import assert_bad_input, no_crash, run

GAME = "examples/game/round3.json"
PUZZLES = "examples/puzzles/medium.jsonl"


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
    """Every command that prints a result has a schema (combo is not described yet)."""
    described = {name.split()[0] for name in SCHEMAS}
    assert described == set(COMMANDS) - {"schema", "combo"}


def test_schema_of_an_unknown_command_lists_the_commands() -> None:
    assert_bad_input(run("schema", "nope"), "no schema for 'nope'", "state show", "best")


def _runs(tmp: Path) -> list[tuple[str, list[str]]]:
    """A representative invocation of each command, with --json."""
    game = tmp / "game.json"
    shutil.copy(GAME, game)
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
