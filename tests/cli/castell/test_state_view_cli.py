"""`castell state show --view`: the game as every screen shows it, in a table or as JSON that
its schema describes."""

from __future__ import annotations

import json

import jsonschema

from tests.cli.helpers import run

STATE = "examples/game/round3.json"


def test_the_view_is_json_its_schema_describes() -> None:
    result = run("state", "show", STATE, "--view", "--json")
    assert result.exit_code == 0, result.stderr
    view = json.loads(result.stdout)
    assert view["to_play"] == "Carla" and view["actions"][-1]["kind"] == "claim"
    schema = json.loads(run("schema", "state", "show").stdout)
    jsonschema.validate(view, schema)


def test_the_view_in_a_table_labels_each_step() -> None:
    result = run("state", "show", STATE, "--view")
    assert result.exit_code == 0, result.stderr
    assert "Carla: legal steps" in result.stdout and "end the turn" in result.stdout
