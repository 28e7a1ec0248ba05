"""`castell verify`: check a tower against the rules, skill ranks and (optionally) a pool."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.panel import Panel
from rich.text import Text

from cli import options
from cli.castell.render import stack, tower_picture, uses_text, violations_table
from cli.edge import ExitCode, at_edge, emit_output, fail, out
from cli.inputs import TowerRules, WhatIfRules, batch_lines, emit_items
from service.castell.towers import Asked, Verified, verify_batch
from service.castell.towers import verify as verify_tower


def _show(verified: Verified) -> None:
    result = verified.check
    tower = result.tower
    if result.valid:
        verdict = "[bold green]valid[/]"
        body = f"{verdict}   height {tower.height}, {tower.castellers} castellers\n" \
               f"skill uses: {uses_text(result.uses)}"
    else:
        body = f"[bold red]invalid[/]   height {tower.height}, {tower.castellers} castellers"
    out().print(stack(
        what_if_line(verified.what_if_rules),
        tower_picture(tower),
        Panel(body, title=str(tower), expand=False),
        violations_table(result.violations) if result.violations else None,
    ))


def what_if_line(rules: str | None) -> Text | None:
    """The line a what-if's answer starts with: which readings it used."""
    if rules is None:
        return None
    return Text(f"what-if: readings {rules}, not the game's", style="bold yellow")


@at_edge
def verify(
    tower: Annotated[str | None, typer.Argument(
        help="Tower, bottom level first: '9,9,9,9/7,7,7/5,5/3' or '9x4/7x3/5x2/3'.")] = None,
    skills: options.Skills = "none",
    pool: Annotated[str | None, typer.Option(
        "--pool", "-p", help="Check the castellers against this pool, e.g. '9x4,7x3,5,5,3'.")
    ] = None,
    rules: TowerRules = None,
    as_json: options.Json = False,
    batch: options.Batch = None,
    svg: options.Svg = None,
    state_file: options.StateOption = None,
    player: options.Player = None,
    what_if_rules: WhatIfRules = None,
    board_file: options.BoardFile = None,
) -> None:
    """Check a tower against the rules and your skill ranks (with --state: a player's team,
    skill ranks and readings in a game).

    With --state, --what-if-rules asks under other readings than the game's (the answer says
    so). Exit 0 when valid, 1 when not, 2 on bad input. With --batch, exit 2 if any line was bad.

    Examples:

      castell verify "9,9,9,9/7,7,7/5,5/3" --skills width=1

      castell verify "9x4/7x3/5x2/3" --pool "9x4,7x3,5x2,3" --json

      echo '{"tower": "6,6/6"}' | castell verify --batch -

      castell verify "9x4/7x3/5x2/3" --state game.json --player Anna
    """
    from models.files import not_an_input

    not_an_input(svg, batch, state_file, board_file, field="svg")
    options.not_onto_stdout(svg, as_json)
    if batch is not None:
        if tower is not None:
            fail("give either a TOWER or --batch, not both")
        if pool is not None:
            fail("give either --pool or --batch, not both (each batch line holds its own)")
        emit_items(verify_batch(batch_lines(batch)))
    if tower is None:
        fail("missing TOWER (or --batch FILE); see 'castell verify --help'")
    verified = verify_tower(tower, Asked(pool=pool, skills=skills, rules=rules,
                                         state=state_file, board=board_file, player=player,
                                         what_if_rules=what_if_rules))
    if svg is not None:
        from service.pictures.svg import save, tower_svg  # deferred: keeps start-up light

        save(tower_svg(verified.check.tower.as_lists(), str(verified.check.tower)), svg)
    if as_json:
        emit_output(verified.output())
    else:
        _show(verified)
    raise typer.Exit(ExitCode.YES if verified.valid else ExitCode.NO)
