"""Issue 53: with `--json` an error is one JSON object on stdout (`castell schema error`) as
well as the one line on stderr: a bad input or usage (exit 2), a refusal or proven no (1), a
time limit (3), a bug (4); a command that printed its own object prints no second one, and
without `--json` stdout stays empty."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import typer

from cli.edge import at_edge
from models.errors import ProvenNo, Reason, Refused, SpecError, TimeLimitReached
from service.results.registry import adapter
from tests.cli.helpers import assert_bad_input, json_error, one_json, run

NINE = "C01,C05,C12,V03,V07,V18,V22,~C30,V31"


@pytest.mark.parametrize("args", [
    ["best", "--pool", "9x1_0", "--json"],  # the command's own input error
    ["best", "--pool", "9", "--seed", "-1", "--json"],  # an option click refuses
    ["best", "--pool", "9", "--json", "--nothing"],  # a usage error
    ["state", "show", "missing.json", "--json"],
    ["combo", "arrange", NINE, "--fixed", "C99@top", "--json"],
])
def test_an_input_error_is_a_json_object_with_json(args: list[str]) -> None:
    result = run(*args)
    assert_bad_input(result)
    json_error(result, 2)
    schema = json.loads(run("schema", "error").stdout)
    jsonschema.validate(json.loads(result.stdout), schema)
    adapter("error").validate_json(result.stdout)


def test_without_json_an_error_prints_nothing_on_stdout() -> None:
    for args in (["best", "--pool", "9x1_0"], ["best", "--pool", "9", "--nothing"],
                 ["best", "--pool", "9", "--", "--json"]):
        result = run(*args)
        assert result.exit_code == 2 and result.stdout == "", args


def test_a_refused_step_prints_its_own_object_only(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    run("state", "new", "--players", "Anna,Biel", "--seed", "3", "-o", str(game))
    result = run("play", str(game), "recruit", "5", "--json")
    assert result.exit_code == 1
    assert one_json(result)["refused"] is True  # the step's RefusedOutput, no error after it


@at_edge
def _ends_with(error: Exception, as_json: bool = False) -> None:
    raise error


@pytest.mark.parametrize(("error", "code", "details"), [
    (SpecError("bad", field="players"), 2, {"message": "--players: bad"}),
    (ProvenNo("no tower"), 1, {"message": "no tower"}),
    (Refused("not your turn", Reason.WRONG_PLAYER), 1, {"reason": "wrong_player"}),
    (TimeLimitReached("the time limit came first"), 3, {"code": "time_limit"}),
    (RuntimeError("planted bug"), 4, {"code": "internal"}),
])
def test_each_error_the_edge_catches_is_one_object(
        capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, error: Exception,
        code: int, details: dict[str, str]) -> None:
    monkeypatch.delenv("CASTELL_DEBUG", raising=False)
    for as_json in (True, False):
        with pytest.raises(typer.Exit) as stop:
            _ends_with(error, as_json=as_json)
        assert stop.value.exit_code == code
        out, err = capfd.readouterr()
        assert err.startswith("error: ") and len(err.splitlines()) == 1, err
        if not as_json:
            assert out == ""
            continue
        printed = json.loads(out)
        assert list(printed) == ["schema_version", "error"]
        assert printed["error"]["exit"] == code
        assert printed["error"]["message"] == err.strip().removeprefix("error: ")
        assert details.items() <= printed["error"].items()


@pytest.mark.parametrize(("error", "code", "message", "reason"), [
    (SpecError("é: bad \udcff", field="players"), 2, "--players: é: bad \udcff", None),
    (Refused("Anna's turn — not Biel's", Reason.WRONG_PLAYER), 1, "Anna's turn — not Biel's",
     "wrong_player"),
    (RuntimeError("planted bug"), 4, "internal error (RuntimeError: planted bug); run with "
     "CASTELL_DEBUG=1 for the traceback", None),
])
def test_the_error_object_is_its_models_form(capfd: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch,
                                              error: Exception, code: int, message: str,
                                              reason: str | None) -> None:
    """The edge prints the error object its model makes (`ErrorOutput.to_json`, what
    `castell schema error` describes; it was built by hand beside the model), and its bytes
    are those of the documented form: `schema_version` first, then code, message, exit and
    a refusal's reason, one line, non-ASCII as it is and a lone surrogate escaped."""
    from service.results.base import ErrorOutput

    monkeypatch.delenv("CASTELL_DEBUG", raising=False)
    with pytest.raises(typer.Exit):
        _ends_with(error, as_json=True)
    out, _ = capfd.readouterr()
    detail = {"code": {1: "no", 2: "bad_input", 4: "internal"}[code], "message": message,
              "exit": code, **({} if reason is None else {"reason": reason})}
    documented = {"schema_version": 1, "error": detail}
    try:
        expected = json.dumps(documented, ensure_ascii=False)
        expected.encode("utf-8")
    except UnicodeEncodeError:
        expected = json.dumps(documented, ensure_ascii=True)
    assert out == expected + "\n"
    assert out == ErrorOutput.model_validate(json.loads(out)).to_json() + "\n"
