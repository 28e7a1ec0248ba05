"""`castell plan`: the best actions for a player's next turns."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cli import complete, options
from cli.edge import (
    ExitCode,
    at_edge,
    emit_json,
    err,
    fail_interrupted,
    graceful,
    interrupted,
    out,
)
from cli.game_inputs import game_from
from cli.render import stack, tower_picture
from models.errors import SpecError
from models.game import Action, Move, Recruit, Special, Train
from models.tower import rules_named
from planner.tower import Status
from planner.turns import DEFAULT_PLAN_TIME_LIMIT, Goal, Plan, plan_turns

GOALS = ("festival", "tile", "score")


def parse_goal(goal: str, tile: str | None) -> Goal:
    """`festival`, `score`, `tile TILE_ID` (the id as the next argument) or `tile:TILE_ID`."""
    kind, _, inline = goal.strip().lower().partition(":")
    if kind not in GOALS:
        raise SpecError(f"unknown goal '{goal}' (goals: festival, tile TILE_ID, score)",
                        token=goal)
    if kind == "tile":
        wanted = inline if inline else tile
        if not wanted or not wanted.strip():
            raise SpecError("--goal tile needs the tile's id, e.g. '--goal tile LP07'")
        return Goal("tile", wanted.strip().upper())
    if tile is not None or inline:
        raise SpecError(f"a tile id ('{tile or inline}') only goes with --goal tile")
    return Goal(kind)  # type: ignore[arg-type]


@at_edge
def plan(
    state_file: options.StateFile,
    tile: Annotated[str | None, typer.Argument(
        metavar="TILE_ID", help="The tile to claim, with --goal tile.", show_default=False,
        autocompletion=complete.tiles)
    ] = None,
    player: Annotated[str | None, typer.Option(
        "--player", help="Whose turns to plan (default: whose turn it is).")] = None,
    turns: Annotated[int, typer.Option("--turns", "-n", parser=options.whole(1, 10), metavar="N",
                                       help="How many of the player's turns to plan.")] = 3,
    goal: Annotated[str, typer.Option(
        "--goal", "-g", help="festival (best festival tower score), tile TILE_ID (claim it "
        "as early as possible) or score (end-of-game points, prizes left out).",
        autocompletion=complete.goals)] = "festival",
    cautious: Annotated[bool, typer.Option(
        "--cautious", help="Count as lost the castellers in regions an opponent stands in "
        "or can reach on their next turn.")] = False,
    rules: options.Rules = options.RuleVariant.STANDARD,
    time_limit: options.TimeLimit = DEFAULT_PLAN_TIME_LIMIT,
    workers: options.Workers = 1,
    board_file: options.BoardFile = None,
    as_json: options.Json = False,
) -> None:
    """Plan a player's next turns: moves, recruits, training, special actions.

    The plan is found by CP-SAT and replayed through the referee before it is printed.
    Opponents are assumed to take no actions (see the assumptions printed with the plan).
    Exit code 0: a proven best plan; 1: proven that the goal cannot be met; 3: the time
    limit came before the proof (the best plan found is still printed).

    Examples:

      castell plan game.json --player Anna

      castell plan game.json --player Anna --turns 5 --goal score --json

      castell plan game.json --player Anna --goal tile LP07 --cautious
    """
    data, state = game_from(state_file, board_file)
    wanted = parse_goal(goal, tile)
    name = state.turn.player if player is None else player
    console = err()
    waiting = console.status(f"planning {turns} turns of {name}...") \
        if console.is_terminal and not as_json else nullcontext()
    with waiting, graceful():
        result = plan_turns(state, data, name, turns=turns, goal=wanted,
                            rules=rules_named(rules), cautious=cautious, time_limit=time_limit,
                            workers=workers)
    stopped = interrupted()  # Ctrl-C stopped the solve: the best plan so far, marked
    if as_json:
        emit_json({**plan_json(result), **({"interrupted": True} if stopped else {})})
    else:
        _render(result)
    if stopped:
        fail_interrupted("interrupted: the plan above is the best found so far")
    raise typer.Exit(int(exit_code(result)))


def exit_code(result: Plan) -> ExitCode:
    if result.status is Status.INFEASIBLE:
        return ExitCode.NO
    if result.status is Status.UNKNOWN or result.status is Status.FEASIBLE:
        return ExitCode.TIME_LIMIT
    if result.goal.kind == "festival" and not result.objective:
        return ExitCode.NO  # proven: no festival tower within reach
    return ExitCode.YES


def action_json(action: Action) -> dict[str, Any]:
    return action.model_dump(mode="json", exclude_none=True)


def plan_json(result: Plan) -> dict[str, Any]:
    return {
        "player": result.player,
        "goal": str(result.goal),
        "status": result.status.value,
        "objective": result.objective,
        "bound": _number(result.bound),
        "tie_breaks": [{"name": t.name, "value": t.value, "proven": t.proven}
                       for t in result.tie_breaks],
        "turns": [{"round": t.round, "actions": [action_json(a) for a in t.actions]}
                  for t in result.turns],
        "festivals": [{"round": f.round, "location": f.location, "region": f.region,
                       "tower": str(f.entry.tower) if f.entry.tower else None,
                       "score": f.entry.score, "rank": f.entry.rank, "prize": f.entry.prize,
                       "reason": f.entry.reason} for f in result.festivals],
        "assumptions": list(result.assumptions),
        "wall_time_s": round(result.wall_time_s, 3),
        "goal_time_s": round(result.goal_time_s, 3),
    }


def _number(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value


def _render(result: Plan) -> None:
    console = out()
    if not result.found:
        why = {Status.INFEASIBLE: f"proven: no plan meets the goal ({result.goal}) within "
                                  "the horizon",
               Status.UNKNOWN: "the time limit came before any plan was found"}
        console.print(why.get(result.status, str(result.status)))
        for line in result.assumptions:
            err().print(Text(f"assuming {line}"), highlight=False)
        return
    table = Table(title=escape(f"Plan for {result.player}: {result.goal}"),
                  caption="numbers give the order of a turn's actions")
    for column in ("round", "move", "recruit", "train", "special"):
        table.add_column(column)
    for turn in result.turns:
        cells: dict[str, list[str]] = {"move": [], "recruit": [], "train": [], "special": []}
        for step, action in enumerate(turn.actions, start=1):
            cells[_column(action)].append(escape(f"{step}. {_short(action)}"))
        table.add_row(str(turn.round), *("\n".join(cells[c]) or "-" for c in cells))
    console.print(table)
    for festival in result.festivals:
        entry = festival.entry
        title = escape(f"{festival.location} ({festival.region}), round {festival.round}")
        if entry.tower is None:
            console.print(f"{title}: not competing ({escape(entry.reason or '')})")
            continue
        prize = f", {entry.prize}" if entry.prize else ""
        console.print(Panel(stack(tower_picture(entry.tower)), title=title,
                            subtitle=f"score {entry.score}, rank {entry.rank}{prize}",
                            expand=False))
    console.print(_verdict(result))
    for line in result.assumptions:
        console.print(Text(f"assuming {line}", style="dim"), highlight=False)


def _column(action: Action) -> str:
    if isinstance(action, Move):
        return "move"
    if isinstance(action, Recruit):
        return "recruit"
    if isinstance(action, Train):
        return "train"
    return "special"


def _short(action: Action) -> str:
    if isinstance(action, Move):
        return action.to
    if isinstance(action, Recruit):
        return ", ".join(map(str, action.sizes))
    if isinstance(action, Train):
        return action.skill
    assert isinstance(action, Special)
    return str(action).removeprefix("special: ")


def _verdict(result: Plan) -> str:
    goal = {"festival": "best festival score", "tile": f"{result.goal.tile} claimed in round",
            "score": "points (prizes left out)"}[result.goal.kind]
    if result.status is Status.OPTIMAL:
        proof = "[bold green]proven optimal[/]"
    else:
        proof = f"[yellow]not proven[/] (no plan does better than {_number(result.bound)})"
    ties = ", ".join(f"{t.name} {'unknown' if t.value is None else t.value}"
                     + ("" if t.proven else " (not proven)") for t in result.tie_breaks)
    return f"{goal}: [bold]{result.objective}[/], {proof}" + (f"; then {ties}" if ties else "")
