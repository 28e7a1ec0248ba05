"""`castell state show --json` prints the state with `schema_version`: the printed object is
itself a state file (the loader drops the output's `schema_version`), so it can be saved and
read back, and every command reads it as the state it shows."""

from __future__ import annotations

import json
from pathlib import Path

from models.game import load_state
from tests.cli.helpers import assert_bad_input, one_json, run

GAME = "examples/game/round3.json"


def _shown(path: str) -> str:
    result = run("state", "show", path, "--json")
    one_json(result)  # one object, `schema_version` first
    return result.stdout


def test_shown_json_loads_back_as_the_same_state(tmp_path: Path) -> None:
    shown = _shown(GAME)
    copy = tmp_path / "copy.json"
    copy.write_text(shown, encoding="utf-8")  # as `castell state show ... --json > copy.json`
    assert load_state(copy) == load_state(GAME)
    assert _shown(str(copy)) == shown
    assert run("score", str(copy), "--json").stdout == run("score", GAME, "--json").stdout


def test_another_schema_version_is_still_refused(tmp_path: Path) -> None:
    shown = json.loads(_shown(GAME))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**shown, "schema_version": 99}), encoding="utf-8")
    assert_bad_input(run("state", "show", str(bad)), "schema_version")
