"""CLI conventions (issue 14, item 3): --version, -h, help wrapped by the terminal, choices
listed, diagnostics on stderr, `state show` within 80 columns."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from tests.cli.helpers import assert_bad_input, no_crash, run


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert re.fullmatch(r"castell \d+\.\d+\.\d+\S*\n", result.stdout)


@pytest.mark.parametrize("command", [[], ["best"], ["state", "new"], ["puzzle", "generate"]])
def test_h_is_help(command: list[str]) -> None:
    short, long = run(*command, "-h"), run(*command, "--help")
    assert short.exit_code == long.exit_code == 0
    assert short.stdout == long.stdout and "Usage:" in short.stdout


def test_help_prose_is_wrapped_by_the_terminal() -> None:
    # the plan docstring breaks 'the time' / 'limit' in the source; at 120 columns the
    # paragraph flows as one, so the source's break is gone
    wide = CliRunner().invoke(app, ["plan", "--help"], env={"COLUMNS": "120"}).stdout
    assert "3: the time limit came before the proof" in wide
    assert "castell plan game.json --player Anna --turns 5 --goal score --json" in wide


def test_state_show_fits_80_columns_and_cuts_nothing() -> None:
    result = CliRunner().invoke(app, ["state", "show", "examples/game/round3.json"],
                                env={"COLUMNS": "80"})
    no_crash(result)
    assert result.exit_code == 0
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    assert "…" not in result.stdout
    assert "balance=1" in result.stdout and "strength=1" in result.stdout


def test_wrote_lines_go_to_stderr(tmp_path: Path) -> None:
    result = run("puzzle", "sheet", "examples/puzzles/medium.jsonl", "--out",
                 str(tmp_path / "sheets"))
    assert result.exit_code == 0
    assert "wrote" in result.stderr and "wrote" not in result.stdout
    target = tmp_path / "game.json"
    result = run("state", "new", "--out", str(target))
    assert result.exit_code == 0 and result.stdout == "" and "wrote" in result.stderr


@pytest.mark.parametrize(("args", "choices"), [
    (["best", "--pool", "9", "--engine", "nope"], ["cpsat", "search"]),
    (["best", "--pool", "9", "--rules", "nope"], ["standard", "one-fewer", "bottom-base"]),
    (["plan", "examples/game/round3.json", "--goal", "nope"], ["festival", "tile", "score"]),
    (["puzzle", "generate", "--kind", "nope"], ["tallest", "festival", "shape", "any"]),
    (["puzzle", "generate", "--difficulty", "nope"], ["easy", "medium", "hard"]),
    (["wheel", "examples/game/round3.json", "--skill", "nope"], ["width", "special"]),
])
def test_a_bad_choice_lists_the_choices(args: list[str], choices: list[str]) -> None:
    assert_bad_input(run(*args), *choices)


@pytest.mark.parametrize(("args", "listed"), [
    (["best", "--help"], "cpsat"), (["best", "--help"], "bottom-base"),
    (["puzzle", "generate", "--help"], "exhibition"), (["wheel", "--help"], "special"),
])
def test_help_lists_the_choices(args: list[str], listed: str) -> None:
    assert listed in CliRunner().invoke(app, args, env={"COLUMNS": "200"}).stdout


@pytest.mark.parametrize("command", [["tournament"], ["combo", "tournament"],
                                     ["puzzle", "book"]])
def test_help_names_the_dask_extra_whole(command: list[str]) -> None:
    # the help is rich markup: an unescaped "[dask]" was taken for a style and dropped
    shown = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "200"}).stdout
    assert "pip install -e '.[dask]'" in " ".join(shown.replace("\u2502", " ").split())


@pytest.mark.parametrize("args", [["state", "show", "missing.json"], ["score", "missing.json"],
                                  ["puzzle", "check", "missing.jsonl"],
                                  ["board", "--board", "missing.toml"]])
def test_a_missing_file_is_one_line(args: list[str]) -> None:
    assert_bad_input(run(*args), "missing")


def test_the_choice_enums_match_the_core() -> None:
    from cli.castell.game import WheelTile
    from cli.castell.puzzle import PuzzleKind, PuzzleLevel
    from cli.castell.solve import EngineName
    from cli.options import complete_rules
    from models.puzzle import DIFFICULTIES, KINDS
    from models.tower import VARIANTS, Skill
    from planner.tower.api import ENGINES

    # --rules is a variant then switch=value items, so not an enum: it completes them
    assert complete_rules("") == list(VARIANTS)
    assert "standard,prize_ties=turn-order" in complete_rules("standard,prize")
    assert [k.value for k in PuzzleKind] == [*KINDS, "any"]
    assert [d.value for d in PuzzleLevel] == list(DIFFICULTIES)
    assert [e.value for e in EngineName] == list(ENGINES)
    assert [t.value for t in WheelTile] == [s.value for s in Skill] + ["special"]


@pytest.mark.parametrize(("words", "expected"), [
    ("castell route gi", ["girona"]),
    ("castell route terres", ["terres-de-lebre"]),
    ("castell route --board examples/boards/islands.toml il", ["illa"]),
    ("castell plan game.json LP0", [f"LP0{n}" for n in range(1, 10)]),
    ("castell plan game.json --goal t", ["tile"]),
    ("castell best --engine ", ["dp", "cpsat", "search"]),
    ("castell wheel game.json --skill s", ["strength", "special"]),
])
def test_shell_completion_from_the_board(words: str, expected: list[str]) -> None:
    env = {"_CASTELL_COMPLETE": "complete_bash", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split(" ")) - 1)}
    result = CliRunner().invoke(app, [], env=env, prog_name="castell")
    assert result.stdout.split() == expected


@pytest.mark.parametrize("command", [["combo"], ["state"], ["puzzle"], ["verify"], ["route"]])
def test_only_the_root_installs_completion(command: list[str]) -> None:
    assert "--install-completion" in run("--help").stdout
    shown = run(*command, "--help")
    assert shown.exit_code == 0 and "Usage:" in shown.stdout
    assert "--install-completion" not in shown.stdout
    assert "--show-completion" not in shown.stdout


@pytest.mark.parametrize(("args", "says"), [
    (["wheel", "examples/game/round3.json", "--round", "x1"], "whole number"),  # parser=
    (["board", "--board", "missing.toml"], "does not exist"),  # a Path that must exist
    (["board", "--board", "examples"], "is a directory"),  # dir_okay=False
])
def test_typers_own_conversions_fail_as_one_line(args: list[str], says: str) -> None:
    """Typer converts and checks the options (a parser's error, a path that must exist, a
    file not a folder): each refusal is the edge's one line, exit 2."""
    assert_bad_input(run(*args), says)


# The self-contained `--help` examples (no game file of the user's, no redirection) run as
# shown: `combo score ... --stored V14=2` stored gold on a card that is no purse (exit 2).
SELF_CONTAINED = [["board"], ["route"], ["rules"], ["verify"], ["check"], ["schema"],
                  ["combo", "score"], ["combo", "arrange"], ["puzzle", "check"]]


def _examples(command: list[str]) -> list[str]:
    import shlex

    text = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "300"}).stdout
    found = []
    for line in text.splitlines():
        line = line.strip()
        if not (line.startswith("castell ") or "| castell " in line) or ">" in line:
            continue
        if re.search(r"\b(game|real)\.json\b|my_copy|deal\.toml", line):
            continue  # needs the user's own file
        found.append(line)
    assert all(shlex.split(line) for line in found)
    return found


@pytest.mark.parametrize("command", SELF_CONTAINED, ids=" ".join)
def test_self_contained_help_examples_run(command: list[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import shlex

    (tmp_path / "examples").symlink_to(Path("examples").resolve())
    monkeypatch.chdir(tmp_path)
    examples = _examples(command)
    assert examples, command
    for line in examples:
        piped, bar, invoked = line.rpartition("| castell ")
        stdin = shlex.split(piped.removeprefix("echo "))[0] if bar else None
        args = shlex.split(invoked if bar else line.removeprefix("castell "))
        result = CliRunner().invoke(app, args, input=stdin)
        no_crash(result)
        assert result.exit_code in (0, 1), (line, result.stderr)


@pytest.mark.parametrize("args", [["board"], ["wheel", "examples/game/round3.json"],
                                  ["festival", "examples/game/round3.json"],
                                  ["route", "Terres de l'Ebre", "Girona"]], ids=" ".join)
def test_a_narrow_terminal_folds_names_never_cuts_them(args: list[str]) -> None:
    # at 40 columns "Comarques Centrals" was "Comarq…": names wrap instead, whole
    result = CliRunner().invoke(app, args, env={"COLUMNS": "40"})
    no_crash(result)
    assert result.exit_code == 0
    body = [line for line in result.stdout.splitlines() if "┃" not in line]  # headers may cut
    assert not any("…" in line for line in body), result.stdout
