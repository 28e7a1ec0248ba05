"""Options shared by several commands."""

from __future__ import annotations

from typing import Annotated

import typer

from models.tower import VARIANTS

Team = Annotated[str | None, typer.Option(
    "--pool", "-p", help="Your team, e.g. '10,9x3,7,7,5x2'.")]
Skills = Annotated[str, typer.Option(
    "--skills", "-s", help="Skill ranks, e.g. 'balance=1,width=2' (unnamed skills are 0).")]
Rules = Annotated[str, typer.Option(
    "--rules", "-r", help=f"Rule variant: {', '.join(VARIANTS)}.")]
Json = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object.")]
Batch = Annotated[str | None, typer.Option(
    "--batch", metavar="FILE", help="JSON Lines in (FILE or '-' for stdin), JSON Lines out.")]
TimeLimit = Annotated[float, typer.Option(
    "--time-limit", "-t", min=0.001, help="Seconds the solver may take.")]
Workers = Annotated[int, typer.Option("--workers", min=1, help="CP-SAT worker threads.")]
Seed = Annotated[int, typer.Option("--seed", help="CP-SAT random seed (fixed: same answer).")]
BoardFile = Annotated[str | None, typer.Option(
    "--board", "-b", metavar="FILE", help="A board TOML file instead of the default board.")]
Svg = Annotated[str | None, typer.Option(
    "--svg", metavar="FILE", help="Also draw the tower as an SVG picture.")]
StateFile = Annotated[str | None, typer.Option(
    "--state", metavar="FILE", help="Take the team, skill ranks and readings of a player in "
    "this game state (instead of --pool/--skills/--rules).")]
Player = Annotated[str | None, typer.Option(
    "--player", help="With --state: whose team (default: whose turn it is).")]
