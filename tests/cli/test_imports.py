"""Fast start: commands that need no solver do not load one (each runs in its own process, and
the test reads which heavy packages ended up in `sys.modules`); `castell --help` loads none of
them, pydantic included. A command's options are converted by Typer, through pydantic (issue 50:
the conversion without pydantic that `cli.params` did went through Typer's private hooks)."""

from __future__ import annotations

import inspect
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest
import typer

from cli.main import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
STATE = "examples/game/round3.json"
HEAVY = ("ortools", "networkx", "drawsvg", "jinja2", "pydantic")
# Typer converts a command's option values through pydantic TypeAdapters, and the board and
# state files are read by pydantic models
FILES = {"pydantic"}
PROBE = f"""
import sys
from cli.main import main
sys.argv = ["castell", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
loaded = sorted({{name.split(".")[0] for name in sys.modules}} & set({HEAVY!r}))
sys.stderr.write("LOADED:" + ",".join(loaded) + "\\n")
"""


def loaded_by(*args: str) -> set[str]:
    """The heavy packages `castell ARGS...` imports (run in a fresh interpreter)."""
    done = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    marker = [line for line in done.stderr.splitlines() if line.startswith("LOADED:")]
    assert marker, done.stderr
    return {name for name in marker[-1].removeprefix("LOADED:").split(",") if name}


@pytest.mark.parametrize(("args", "allowed"), [
    (("--help",), set()),
    (("verify", "9x4/7x3/5x2/3", "--skills", "width=1"), FILES),
    (("verify", "--help"), FILES),
    (("board",), FILES),
    # the default board's routes come from networkx's stored table (models.game.regions)
    (("route", "girona", "lleida"), FILES),
    (("route", "costa", "plana", "--board", "examples/boards/islands.toml"),
     FILES | {"networkx"}),  # another board's routes are computed, by networkx
    (("state", "show", STATE), FILES),
    (("wheel", STATE), FILES),
    (("score", STATE), FILES),
    # the dp engine; its --json output and batch lines are pydantic models
    (("best", "--pool", "9x4,7x3,6,6,5x2,3", "--festival", "6,3"), FILES),
])
def test_solver_free_commands_load_no_solver(args: tuple[str, ...], allowed: set[str]) -> None:
    assert loaded_by(*args) <= allowed


def test_the_probe_sees_networkx_and_pydantic_when_used() -> None:
    assert loaded_by("route", "costa", "plana", "--board", "examples/boards/islands.toml") \
        >= {"networkx", "pydantic"}


def test_the_options_tower_time_limit_is_the_planners() -> None:
    from cli.options import TOWER_TIME_LIMIT
    from planner.tower import DEFAULT_TIME_LIMIT

    assert TOWER_TIME_LIMIT == DEFAULT_TIME_LIMIT


def test_the_probe_sees_a_solver_when_one_is_used() -> None:
    """The CP-SAT engine does load ortools: the probe above can fail."""
    assert "ortools" in loaded_by("best", "--pool", "9,7,5", "--engine", "cpsat")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_listed_summaries_are_the_commands_own(name: str) -> None:
    """`castell --help` lists each command by a summary kept in `cli.main` (so that listing
    imports nothing): it must stay the first paragraph of the command's own help."""
    module, attribute, summary = COMMANDS[name]
    target = getattr(import_module(f"cli.{module}"), attribute)
    own = target.info.help if isinstance(target, typer.Typer) else inspect.getdoc(target)
    assert isinstance(own, str)
    assert " ".join(own.split("\n\n")[0].split()) == summary
