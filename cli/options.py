"""Options shared by several commands."""

from __future__ import annotations

import contextlib
import math
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from models.errors import SpecError
from models.tower import SWITCHES, VARIANTS, switch_values

# Bounds the game and the solver allow, checked before anything is allocated or solved.
MAX_TIME_LIMIT = 3600.0  # an hour; CP-SAT's deterministic answers need a limit anyway
MAX_SEED = 2**31 - 1  # CP-SAT's random_seed is a 32-bit int
MAX_WORKERS = 64  # CP-SAT threads or puzzle processes
MAX_PUZZLES = 10_000  # one `puzzle generate` run
MAX_ROUNDS = 100  # a board's rounds (the command checks the board's own count)
# planner.tower.DEFAULT_TIME_LIMIT, kept here so that reading a command's options loads no
# tower planner (`castell wheel` and `score` share a module with `festival`); a test keeps
# the two equal
TOWER_TIME_LIMIT = 10.0


def whole(low: int, high: int, what: str = "a whole number") -> Callable[[str], int]:
    """An option parser: ASCII digits only (int() takes '1_0', '+1', fullwidth digits), in
    `low..high`, the range said in the error."""
    def parse(text: str) -> int:
        value = str(text).strip()
        if not re.fullmatch(r"-?[0-9]{1,12}", value) or not low <= int(value) <= high:
            raise typer.BadParameter(f"must be {what} from {low} to {high}, got {text!r}")
        return int(value)
    return parse


def seconds(text: str) -> float:
    """A time limit in seconds: a finite number in 0.001..MAX_TIME_LIMIT (nan refused by name)."""
    raw = str(text).strip()
    try:  # ASCII only: float() reads fullwidth and Arabic-Indic digits, and '1_0'
        value = float(raw) if re.fullmatch(r"[0-9.eE+-]+", raw) else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or not 0.001 <= value <= MAX_TIME_LIMIT:
        raise typer.BadParameter(f"must be a positive number of seconds (0.001 to "
                                 f"{MAX_TIME_LIMIT:g}), got {text!r}")
    return value

def folder(text: str) -> str:
    """A folder to write into: an empty name is refused (it was read as the current folder)."""
    if not str(text).strip():
        raise typer.BadParameter("is empty: give a folder's name")
    return str(text)


Team = Annotated[str | None, typer.Option(
    "--pool", "-p", help="Your team, e.g. '10,9x3,7,7,5x2'.")]
Skills = Annotated[str, typer.Option(
    "--skills", "-s", help="Skill ranks, e.g. 'balance=1,width=2' (unnamed skills are 0).")]
def complete_rules(incomplete: str) -> list[str]:
    """Shell completion for --rules: the variants, then `switch=value` items after a comma."""
    head, comma, last = incomplete.rpartition(",")
    if not comma:
        return [v for v in VARIANTS if v.startswith(last.lower())]
    items = [f"{s}={v}" for s in SWITCHES for v in switch_values(s)]
    return [f"{head},{item}" for item in items if item.startswith(last)]


# Not an enum: a variant may be followed by `switch=value` items (`standard,prize_ties=
# turn-order`), so the choices are completed by `complete_rules` and checked by rules_named,
# whose error lists the variants and suggests the closest name.
Rules = Annotated[str, typer.Option(
    "--rules", "-r", autocompletion=complete_rules,
    help=f"Rule variant ({', '.join(VARIANTS)}), then switch=value items; see `castell rules`.")]
Json = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object.")]
# Files read are paths (the shell completes them) that must exist; '-' is stdin where allowed.
Batch = Annotated[Path | None, typer.Option(
    "--batch", metavar="FILE", dir_okay=False, allow_dash=True,  # (typer checks '-' exists)
    help="JSON Lines in (FILE or '-' for stdin), JSON Lines out.")]
TimeLimit = Annotated[float, typer.Option(
    "--time-limit", "-t", parser=seconds, metavar="SECONDS",
    help=f"Seconds the whole command may take, start-up included (0.001 to {MAX_TIME_LIMIT:g}).")]
Workers = Annotated[int, typer.Option(
    "--workers", parser=whole(1, MAX_WORKERS), metavar="N",
    help=f"CP-SAT worker threads (1 to {MAX_WORKERS}).")]
Seed = Annotated[int, typer.Option(
    "--seed", parser=whole(0, MAX_SEED), metavar="N",
    help="CP-SAT random seed (fixed: same answer).")]
BoardFile = Annotated[Path | None, typer.Option(
    "--board", "-b", metavar="FILE", exists=True, dir_okay=False,
    help="A board TOML file instead of the default board.")]
StateFile = Annotated[Path, typer.Argument(
    metavar="STATE", exists=True, dir_okay=False, help="A game state JSON file.")]
Svg = Annotated[str | None, typer.Option(
    "--svg", metavar="FILE", help="Also draw the tower as an SVG picture.")]
StateOption = Annotated[Path | None, typer.Option(
    "--state", metavar="FILE", exists=True, dir_okay=False, help="Take the team, skill ranks "
    "and readings of a player in this game state (instead of --pool/--skills/--rules).")]
Player = Annotated[str | None, typer.Option(
    "--player", help="With --state: whose team (default: whose turn it is).")]


def show_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"castell {version('castell-planner')}")
        raise typer.Exit()


Version = Annotated[bool, typer.Option(
    "--version", callback=show_version, is_eager=True, help="Print the version and exit.")]


def not_onto_stdout(output: str | None, as_json: bool, option: str = "--svg") -> None:
    """Refuse an output file that is the stream `--json` writes its one object to (`--svg
    /dev/stdout --json` interleaved the picture with the JSON)."""
    if output is None or not as_json:
        return
    same = str(output) == "-"
    with contextlib.suppress(OSError, ValueError, AttributeError):
        here, there = os.fstat(sys.stdout.fileno()), os.stat(output)
        same = same or (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)
    if same:
        raise SpecError(f"{option} '{output}' is the standard output, where --json "
                               "writes its object: give the picture a file of its own")
