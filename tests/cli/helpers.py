"""Shared helpers for the CLI tests: run a command, read its JSON, and check error hygiene."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner, Result

from cli.edge import SCHEMA_VERSION, one_line
from cli.main import app

SKILL_NAMES = {"balance", "base", "mix", "strength", "width"}


def run(*args: str, input: str | bytes | None = None) -> Result:
    """Invoke `castell ARGS...` in-process with stdout and stderr kept apart (the result
    keeps the arguments: `assert_bad_input` expects the JSON error with `--json`)."""
    result = CliRunner().invoke(app, list(args), input=input)
    setattr(result, ARGS, args)  # a name of ours on click's result
    return result


ARGS = "castell_args"


def no_crash(result: Result) -> None:
    """No Python exception escaped the command, and no traceback text reached the user."""
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.stdout
    assert "Traceback" not in result.stderr


def one_json(result: Result) -> dict[str, Any]:
    """The command printed exactly one JSON object (one line) on stdout."""
    no_crash(result)
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.stdout
    data = json.loads(lines[0])
    assert isinstance(data, dict)
    return unversioned(data)


def unversioned(data: dict[str, Any]) -> dict[str, Any]:
    """The object without its `schema_version`, which comes first and is the current one."""
    assert next(iter(data), None) == "schema_version", data
    assert data.pop("schema_version") == SCHEMA_VERSION
    return data


def json_lines(result: Result) -> list[dict[str, Any]]:
    """Every stdout line of a batch run, each one JSON object."""
    no_crash(result)
    items = [json.loads(line) for line in result.stdout.splitlines()]
    assert all(isinstance(item, dict) for item in items)
    return [unversioned(item) for item in items]


def assert_bad_input(result: Result, *fragments: str) -> str:
    """Exit 2, one line on stderr that contains every fragment, and on stdout nothing, or
    with `--json` the same error as one JSON object (`json_error`)."""
    no_crash(result)
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    message = lines[0]
    assert message.startswith("error:"), message
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    args = getattr(result, ARGS, None)
    if args is None and result.stdout:  # run by another runner: the object, if any
        args = ("--json",)
    if args is not None and "--json" in args:
        json_error(result, 2)
    else:
        assert result.stdout == ""
    return message


def json_error(result: Result, code: int) -> dict[str, Any]:
    """With `--json`, an error is one JSON object on stdout (`castell schema error`) saying
    what the one line on stderr says, with the exit code."""
    error = one_json(result)["error"]
    assert set(error) <= {"code", "message", "exit", "reason"}, error
    assert error["exit"] == result.exit_code == code
    assert error["code"] == {1: "no", 2: "bad_input", 3: "time_limit", 4: "internal"}[code]
    line = result.stderr.strip().splitlines()[-1]
    assert line.removeprefix("error: ") == one_line(error["message"]), (line, error)
    assert isinstance(error, dict)
    return error


def is_uses(value: Any) -> bool:
    """A skill-use object: exactly the five skills, each a whole number >= 0."""
    return (isinstance(value, dict) and set(value) == SKILL_NAMES
            and all(type(v) is int and v >= 0 for v in value.values()))
