"""`castell best` and `castell check`: ask the solver for a tower and render its answer."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer
from rich.console import RenderableType
from rich.panel import Panel
from rich.text import Text

from cli import options
from cli.castell.render import stack, tower_picture, uses_text
from cli.castell.verify import what_if_line
from cli.edge import (
    ExitCode,
    at_edge,
    emit_output,
    fail,
    fail_interrupted,
    graceful,
    interrupted,
    out,
)
from cli.inputs import TowerRules, WhatIfRules, batch_lines, emit_items
from models.files import not_an_input
from service.castell import towers
from service.castell.towers import Asked, Solving, TowerReply


class EngineName(StrEnum):
    DP = "dp"
    CPSAT = "cpsat"
    SEARCH = "search"


EngineOption = Annotated[EngineName, typer.Option(
    "--engine", "-e", case_sensitive=False,
    help="dp (the product: exact, milliseconds), cpsat (the CP-SAT model) or search "
         "(exhaustive; small pools only).")]

EXIT_FOR = {"optimal": ExitCode.YES, "infeasible": ExitCode.NO,
            "feasible": ExitCode.TIME_LIMIT, "unknown": ExitCode.TIME_LIMIT}


def _status_line(reply: TowerReply) -> str:
    status = reply.status
    if status == "optimal" and not interrupted():
        return "[bold green]optimal[/] (proven)" if not reply.is_tile \
            else "[bold green]achievable[/] (a tower meets the tile)"
    if interrupted():
        return f"[bold yellow]interrupted[/] ({status}): the best answer found before Ctrl-C"
    if status == "feasible":
        return "[bold yellow]feasible[/]: the time limit came before a proof of optimality"
    if status == "infeasible":
        return "[bold red]not achievable[/] (proven)"
    if reply.result.memory_hit:
        return ("[bold yellow]unknown[/]: the memory bound (the most states the dynamic "
                "program keeps) came before any answer; the cpsat engine keeps fewer")
    return "[bold yellow]unknown[/]: the time limit came before any answer"


def _summary(reply: TowerReply) -> str:
    result, festival = reply.result, reply.festival
    lines = [f"status: {_status_line(reply)}"]
    tower = result.tower
    if tower is not None:
        if festival is not None:
            matches = festival.matches(tower)
            lines.append(f"score: {tower.height} levels + {matches} matching castellers "
                         f"= [bold]{tower.height + matches}[/]")
            if result.bound is not None and reply.status != "optimal":
                lines.append(f"bound: no tower scores more than {int(result.bound)}")
        else:
            lines.append(f"height {tower.height}, {tower.castellers} castellers")
        lines.append(f"skill uses: {uses_text(result.uses)}")
    lines.append(f"[dim]{result.engine}, {result.wall_time_s * 1000:.1f} ms[/]")
    return "\n".join(lines)


def _why_not(reply: TowerReply) -> RenderableType | None:
    why = reply.why_not
    if why is None:
        return None
    text = Text()
    for reason in why.reasons:
        text.append(f"• {reason}\n")
    if why.suggestions:
        text.append("\nAny one of these would make it achievable:\n", style="bold")
        for suggestion in why.suggestions:
            text.append(f"  • {suggestion}\n")
    elif why.complete:
        text.append("\nNo single extra casteller or +1 rank makes it achievable.\n", style="bold")
    if not why.complete:  # what the time limit left untried is not claimed either way
        text.append("\nThe time limit came before every extra casteller and +1 rank was tried"
                    + (": there may be more." if why.suggestions else "; none found so far.")
                    + "\n", style="bold")
    parts: list[RenderableType] = [Panel(text, title="why not", expand=False)]
    if why.closest and why.closest.tower:
        parts.append(Text("Closest: your tallest tower", style="bold"))
        parts.append(tower_picture(why.closest.tower))
    return stack(*parts)


def _reach_line(reply: TowerReply) -> Text | None:
    """`best` of a game's player without a festival: which festival it took, if any."""
    name, space = reply.looked_for, reply.reached
    if name is None:
        return None
    if space is None:
        return Text(f"No festival left that {name} can reach: the tallest tower instead.")
    tokens = ",".join(map(str, space.size_tokens))
    return Text(f"{name}'s next reachable festival: {space.location}, end of round "
                f"{space.round}, size tokens {tokens}")


def _show(reply: TowerReply) -> None:
    tower = reply.result.tower
    out().print(stack(
        what_if_line(reply.what_if_rules),
        _reach_line(reply),
        tower_picture(tower) if tower else None,
        Panel(_summary(reply), title=reply.title, expand=False),
        _why_not(reply),
    ))


def _finish(reply: TowerReply, as_json: bool, svg: str | None) -> None:
    tower = reply.result.tower
    stopped = interrupted()  # Ctrl-C stopped the solve: its best answer so far, marked
    if svg is not None and tower is not None and not stopped:
        from service.pictures.svg import save, tower_svg  # deferred: keeps start-up light

        save(tower_svg(tower.as_lists(), str(tower)), svg)
    if as_json:
        emit_output(reply.output(interrupted=stopped))
    else:
        _show(reply)
    if stopped:
        fail_interrupted("interrupted: the answer above is the best found so far")
    raise typer.Exit(EXIT_FOR[reply.status])


@at_edge
def best(
    pool: options.Team = None,
    skills: options.Skills = "none",
    festival: Annotated[str | None, typer.Option(
        "--festival", "-f", help="The festival's size tokens, e.g. '6,3'.")] = None,
    rules: TowerRules = None,
    time_limit: options.TimeLimit = options.TOWER_TIME_LIMIT,
    engine: EngineOption = EngineName.DP,
    workers: options.Workers = 1,
    seed: options.Seed = 0,
    as_json: options.Json = False,
    batch: options.Batch = None,
    svg: options.Svg = None,
    state_file: options.StateOption = None,
    player: options.Player = None,
    what_if_rules: WhatIfRules = None,
    board_file: options.BoardFile = None,
) -> None:
    """Your best tower: the tallest (then widest), or with --festival the best festival score.

    With --state, the team, skill ranks and readings are a player's in that game, and with
    no --festival the next festival the player can still reach is used; --what-if-rules asks
    under other readings instead (the answer says so).

    Exit 0 proven best, 1 no tower can compete, 2 bad input, 3 time limit before a proof (the
    best tower found so far is still printed).

    Examples:

      castell best --pool "9x4,7x3,6,6,5x2,3" --skills width=1 --festival 6,3

      castell best --pool "10,9x3,7,7,5x2" --skills balance=1 --json

      castell best --state game.json --player Anna
    """
    not_an_input(svg, batch, state_file, board_file, field="svg")
    options.not_onto_stdout(svg, as_json)
    if batch is not None:
        if pool is not None or festival is not None:
            fail("give either --pool or --batch, not both (each batch line holds its own pool, "
                 "festival and options)")
        emit_items(towers.best_batch(batch_lines(batch), workers, seed))
    if pool is None and state_file is None and player is None:
        fail("missing --pool (or --batch FILE); see 'castell best --help'")
    asked = Asked(pool=pool, skills=skills, rules=rules, state=state_file, board=board_file,
                  player=player, what_if_rules=what_if_rules)
    with graceful():
        reply = towers.best(asked, festival, Solving(engine.value, time_limit, workers, seed))
    _finish(reply, as_json, svg)


@at_edge
def check(
    tile: Annotated[str | None, typer.Argument(
        help="The tile: 'shape:4-3-2-1' or 'exhibition:4:balance+width'.")] = None,
    pool: options.Team = None,
    skills: options.Skills = "none",
    rules: TowerRules = None,
    time_limit: options.TimeLimit = options.TOWER_TIME_LIMIT,
    engine: EngineOption = EngineName.DP,
    workers: options.Workers = 1,
    seed: options.Seed = 0,
    as_json: options.Json = False,
    batch: options.Batch = None,
    svg: options.Svg = None,
    state_file: options.StateOption = None,
    player: options.Player = None,
    what_if_rules: WhatIfRules = None,
    board_file: options.BoardFile = None,
) -> None:
    """Can you claim a local performance tile? Shows a tower that meets it, or why not.

    The tile is its text or its id on the board (`LP09`). With --state, the team, skill
    ranks and readings are a player's in that game (--what-if-rules: other readings, said).

    Exit 0 achievable, 1 proven not achievable, 2 bad input, 3 time limit before an answer.

    Examples:

      castell check shape:4-3-2-1 --pool "9x4,7x3,5x2,3" --skills width=1

      castell check exhibition:4:balance+width --pool "9x4,7x3,5x2,3" --skills width=1

      castell check LP09 --state game.json --player Anna
    """
    not_an_input(svg, batch, state_file, board_file, field="svg")
    options.not_onto_stdout(svg, as_json)
    if batch is not None:
        if tile is not None:
            fail("give either a TILE or --batch, not both")
        if pool is not None:
            fail("give either --pool or --batch, not both (each batch line holds its own)")
        emit_items(towers.check_batch(batch_lines(batch), workers, seed))
    if tile is None or (pool is None and state_file is None and player is None):
        fail("missing TILE or --pool (or --batch FILE); see 'castell check --help'")
    asked = Asked(pool=pool, skills=skills, rules=rules, state=state_file, board=board_file,
                  player=player, what_if_rules=what_if_rules)
    with graceful():
        reply = towers.check(tile, asked, Solving(engine.value, time_limit, workers, seed))
    _finish(reply, as_json, svg)
