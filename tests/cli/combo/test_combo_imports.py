"""Fast start for Castle Combo: `combo score`, `combo show` and `combo cards` load no solver
(each runs in its own process; the probe reads which heavy packages ended up in `sys.modules`),
and the solvers' option defaults are the planner's own, kept where reading options loads none."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import run
from tests.cli.test_imports import loaded_by

TABLEAU = "C01,C02,C03/V01,V02,V03/~C06,C07,V12"
FILES = {"pydantic"}  # the card and state files are read by pydantic models


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("combo") / "game.json"
    assert run("combo", "new", "--players", "Ana,Ben", "--seed", "5", "--first", "Ana",
               "--out", str(path)).exit_code == 0
    assert run("combo", "play", str(path), "key move").exit_code == 0
    return path


@pytest.mark.parametrize("args", [
    ("combo", "score", TABLEAU, "--keys", "3"),
    ("combo", "score", TABLEAU, "--json"),
    ("combo", "cards"),
    ("combo", "show", "{game}"),
    ("combo", "show", "{game}", "--json"),
    ("combo", "play", "{game}", "undo"),
])
def test_combo_commands_without_a_solver_load_none(args: tuple[str, ...], game: Path) -> None:
    loaded = loaded_by(*(str(game.resolve()) if a == "{game}" else a for a in args))
    assert loaded <= FILES, loaded  # no ortools (nor networkx, drawsvg, jinja2)


def test_the_probe_sees_ortools_when_combo_solves() -> None:
    assert "ortools" in loaded_by("combo", "arrange", "C01,C05,C12,V03,V07,V18,V22,~C30,V31")


def test_advise_loads_no_cp_sat_model(game: Path) -> None:
    """The advisor samples play-outs: ortools would take a second of its time limit."""
    assert "ortools" not in loaded_by("combo", "advise", str(game.resolve()), "-t", "0.5",
                                      "--samples", "1")


def test_the_option_defaults_are_the_planners() -> None:
    from planner.combo import BOT_SAMPLES, MAX_SAMPLES
    from service.combo.advice import MAX_SAMPLES as ADVISE_MAX
    from service.combo.tournament import ADVISOR_SAMPLES

    assert (ADVISOR_SAMPLES, ADVISE_MAX) == (BOT_SAMPLES, MAX_SAMPLES)
