"""Issue 53: a player named "scorekeeper" (the web's role), names with control or bidi
characters and names only case apart are refused by both games at every way in (`--players`,
deal files, state files), exit 2 naming the field; a state file's seed and wheel rotation are
bounded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import assert_bad_input, run

STATE = "examples/game/round3.json"
BAD_NAMES = [("scorekeeper", "is a role, not a player's name"),
             ("SCOREKEEPER", "is a role, not a player's name"),
             ("anna", "two players are named 'Anna' and 'anna'"),
             ("Bi\x00el", "no control character (U+0000)"),
             ("\u202eleiB", "no direction or invisible character (U+202E)"),
             ("Bi\u2066el", "no direction or invisible character (U+2066)")]


@pytest.mark.parametrize(("name", "said"), BAD_NAMES)
@pytest.mark.parametrize("game", [["state", "new"], ["combo", "new"]])
def test_new_refuses_a_reserved_or_ambiguous_name(tmp_path: Path, game: list[str], name: str,
                                                  said: str) -> None:
    out = tmp_path / "game.json"
    result = run(*game, "--players", f"Anna,{name},Carla", "--out", str(out))
    assert_bad_input(result, "--players: ", said)
    assert not out.exists()


@pytest.mark.parametrize(("name", "said"), BAD_NAMES[:3])
def test_a_deal_file_refuses_a_reserved_or_ambiguous_name(tmp_path: Path, name: str,
                                                          said: str) -> None:
    deal = tmp_path / "deal.toml"
    template = run("state", "template", "--players", "Anna,Biel,Carla").stdout
    deal.write_text(template.replace("\nBiel = ", f'\n"{name}" = '), encoding="utf-8")
    result = run("state", "new", "--deal", str(deal), "--out", str(tmp_path / "g.json"))
    assert_bad_input(result, "deal.toml: players: ", said)


def _renamed(tmp_path: Path, name: str) -> Path:
    """round3.json with its second player renamed everywhere."""
    data = json.loads(Path(STATE).read_text())
    old = data["turn_order"][1]
    text = json.dumps(data).replace(json.dumps(old), json.dumps(name))
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("name", "said"), BAD_NAMES)
def test_a_state_file_refuses_a_reserved_or_ambiguous_name(tmp_path: Path, name: str,
                                                           said: str) -> None:
    if name == "anna":
        name = json.loads(Path(STATE).read_text())["turn_order"][0].lower()
        said = "differ only in case"
    assert_bad_input(run("state", "show", str(_renamed(tmp_path, name))), "game.json",
                     "players: ", said)


@pytest.mark.parametrize(("name", "said"), BAD_NAMES)
def test_a_combo_game_file_refuses_a_reserved_or_ambiguous_name(tmp_path: Path, name: str,
                                                                 said: str) -> None:
    path = tmp_path / "combo.json"
    assert run("combo", "new", "--players", "Anna,Biel", "--out", str(path)).exit_code == 0
    data = json.loads(path.read_text())
    for table in ("start", "now"):
        data[table]["players"][1]["name"] = name
    path.write_text(json.dumps(data), encoding="utf-8")
    assert_bad_input(run("combo", "show", str(path)), "combo.json", said)


@pytest.mark.parametrize(("field", "value"), [("seed", -1), ("seed", 2**80),
                                              ("wheel_rotation", -1),
                                              ("wheel_rotation", 10**40)])
def test_a_state_files_seed_and_rotation_are_bounded(tmp_path: Path, field: str,
                                                     value: int) -> None:
    data = json.loads(Path(STATE).read_text())
    data[field] = value
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert_bad_input(run("state", "show", str(path)), "game.json", f"{field}: Input should be")
