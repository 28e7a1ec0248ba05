"""`castell verify`: check a tower against the rules, skill ranks and (optionally) a pool."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.panel import Panel

from cli import options
from cli.edge import ExitCode, at_edge, emit_json, fail, out
from cli.inputs import emit_batch, read_inputs
from cli.render import stack, tower_picture, uses_text, violations_table
from models.tower import CheckResult, Tower, check_tower


def verify_tower(tower_text: str, skills: str, pool: str | None, rules: str) -> CheckResult:
    pool_value, ranks, variant = read_inputs(pool, skills, rules)
    return check_tower(Tower.parse(tower_text, variant), ranks, variant, pool_value)


def result_json(result: CheckResult) -> dict[str, Any]:
    uses = result.uses
    return {
        "valid": result.valid,
        "tower": str(result.tower),
        "height": result.tower.height,
        "castellers": result.tower.castellers,
        "uses": uses.as_dict() if uses else None,
        "violations": [v.as_dict() for v in result.violations],
    }


def _show(result: CheckResult) -> None:
    tower = result.tower
    if result.valid:
        verdict = "[bold green]valid[/]"
        body = f"{verdict}   height {tower.height}, {tower.castellers} castellers\n" \
               f"skill uses: {uses_text(result.uses)}"
    else:
        body = f"[bold red]invalid[/]   height {tower.height}, {tower.castellers} castellers"
    out().print(stack(
        tower_picture(tower),
        Panel(body, title=str(tower), expand=False),
        violations_table(result.violations) if result.violations else None,
    ))


@at_edge
def verify(
    tower: Annotated[str | None, typer.Argument(
        help="Tower, bottom level first: '9,9,9,9/7,7,7/5,5/3' or '9x4/7x3/5x2/3'.")] = None,
    skills: options.Skills = "none",
    pool: Annotated[str | None, typer.Option(
        "--pool", "-p", help="Check the castellers against this pool, e.g. '9x4,7x3,5,5,3'.")
    ] = None,
    rules: options.Rules = "standard",
    as_json: options.Json = False,
    batch: options.Batch = None,
    svg: options.Svg = None,
    state_file: options.StateOption = None,
    player: options.Player = None,
    board_file: options.BoardFile = None,
) -> None:
    """Check a tower against the rules and your skill ranks (with --state: a player's team,
    skill ranks and readings in a game).

    Exit 0 when valid, 1 when not, 2 on bad input. With --batch, exit 2 if any line was bad.

    Examples:

      castell verify "9,9,9,9/7,7,7/5,5/3" --skills width=1

      castell verify "9x4/7x3/5x2/3" --pool "9x4,7x3,5x2,3" --json

      echo '{"tower": "6,6/6"}' | castell verify --batch -

      castell verify "9x4/7x3/5x2/3" --state game.json --player Anna
    """
    from models.files import not_an_input

    not_an_input(svg, batch, state_file, board_file, option="--svg")
    if batch is not None:
        if tower is not None:
            fail("give either a TOWER or --batch, not both")
        if pool is not None:
            fail("give either --pool or --batch, not both (each batch line holds its own)")
        from cli.verify_line import VerifyLine  # deferred: pydantic only for --batch

        emit_batch(batch, VerifyLine, lambda line: result_json(
            verify_tower(line.tower, line.skills, line.pool, line.rules)))
    if tower is None:
        fail("missing TOWER (or --batch FILE); see 'castell verify --help'")
    if state_file is not None:
        if pool is not None or skills != "none":
            fail("--state FILE takes the player's team and skills: drop --pool/--skills")
        from cli.game_inputs import player_inputs  # deferred: the game models only for --state

        _, _, pool, skills, rules = player_inputs(state_file, board_file, player)
    elif player is not None:
        fail("--player goes with --state FILE")
    result = verify_tower(tower, skills, pool, rules)
    if svg is not None:
        from cli.svg import save, tower_svg  # deferred: keeps start-up light

        save(tower_svg(result.tower.as_lists(), str(result.tower)), svg)
    if as_json:
        emit_json(result_json(result))
    else:
        _show(result)
    raise typer.Exit(ExitCode.YES if result.valid else ExitCode.NO)

