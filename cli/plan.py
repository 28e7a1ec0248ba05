"""`castell plan`: the best actions for a player's next turns."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cli import complete, options
from cli.edge import (
    SCHEMA_VERSION,
    ExitCode,
    at_edge,
    emit_output,
    err,
    fail_interrupted,
    graceful,
    interrupted,
    out,
)
from cli.game_inputs import game_from
from cli.render import stack, tower_picture
from models.errors import SpecError
from models.files import field_errors
from models.game import Action, Board, FestivalSpace, Move, Recruit, Special, Train
from models.tower import rules_named
from planner.tower import Status
from planner.turns import DEFAULT_PLAN_TIME_LIMIT, Goal, Plan, PlannedTurn, Step, plan_turns
from service.results import plan as out_
from service.results.game import FestivalSpace as OutFestivalSpace

GOALS = ("festival", "tile", "score")


def parse_goal(goal: str, tile: str | None) -> Goal:
    """`festival`, `score`, `tile TILE_ID` (the id as the next argument) or `tile:TILE_ID`."""
    kind, _, inline = goal.strip().lower().partition(":")
    if " " in kind:  # --goal "tile LP07" quoted as one argument, as the help writes it
        kind, _, inline = kind.partition(" ")
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


def parse_fix(text: str, board: Board) -> list[Action]:
    """Actions separated by ';': 'move REGION', 'recruit 7,5', 'train SKILL', 'special move
    REGION', 'special recruit SIZE', 'special claim TILE TOWER' (regions by name or id)."""
    actions: list[Action] = []
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        words = part.split(maxsplit=1)
        verb, rest = words[0].lower(), (words[1].strip() if len(words) > 1 else "")
        special = verb == "special"
        if special:
            words = rest.split(maxsplit=1)
            verb, rest = (words[0].lower() if words else ""), (
                words[1].strip() if len(words) > 1 else "")
        known = ("move", "recruit", "claim") if special else ("move", "recruit", "train")
        if verb not in known:  # 'end': no such action, rather than "needs what or where"
            raise SpecError(f"--fix: unknown action '{part}' (move, recruit, train, "
                            "special move/recruit/claim)", token=part)
        if not rest:
            raise SpecError(f"--fix: '{part}' needs what or where (e.g. 'move girona')",
                            token=part)
        try:
            if verb == "move":
                region = board.find_region(rest).id
                actions.append(Special(kind="move", to=region) if special else Move(to=region))
            elif verb == "recruit":
                sizes = [int(x) for x in rest.replace(" ", "").split(",")]
                actions.append(Special(kind="recruit", size=sizes[0]) if special
                               and len(sizes) == 1 else Recruit(sizes=sizes))
            elif verb == "train" and not special:
                actions.append(Train(skill=rest.lower()))
            elif verb == "claim" and special:
                tile_id, _, tower = rest.partition(" ")
                actions.append(Special(kind="claim", tile=tile_id.upper(), tower=tower.strip()))
            else:
                raise SpecError(f"--fix: unknown action '{part}' (move, recruit, train, "
                                "special move/recruit/claim)", token=part)
        except (ValueError, ValidationError) as error:
            if isinstance(error, SpecError):
                raise
            # pydantic's first line is "1 validation error for Recruit": its fields say what
            reason = field_errors(error) if isinstance(error, ValidationError) \
                else str(error).splitlines()[0]
            raise SpecError(f"--fix: '{part}': {reason}", token=part) from None
    if not actions:
        raise SpecError("--fix: no action given")
    return actions


@at_edge
def plan(
    state_file: options.StateFile,
    tile: Annotated[str | None, typer.Argument(
        metavar="TILE_ID", help="The tile to claim, with --goal tile.", show_default=False,
        autocompletion=complete.tiles)
    ] = None,
    player: Annotated[str | None, typer.Option(
        "--player", help="Whose turns to plan (default: whose turn it is).")] = None,
    turns: Annotated[int | None, typer.Option(
        "--turns", "-n", parser=options.whole(1, 10), metavar="N", show_default=False,
        help="How many of the player's turns to plan (default: through the next festival "
        "they could compete in, at most 10).")] = None,
    goal: Annotated[str, typer.Option(
        "--goal", "-g", help="festival (best festival tower score), tile TILE_ID (claim it "
        "as early as possible) or score (end-of-game points, prizes included).",
        autocompletion=complete.goals)] = "festival",
    cautious: Annotated[bool, typer.Option(
        "--cautious", help="Recruit only where no opponent could recruit first (their reach "
        "in their turns before yours, in turn order). Without it, each recruit is still "
        "marked at risk or not.")] = False,
    fix: Annotated[str | None, typer.Option(
        "--fix", metavar="ACTIONS", help="What-if: fix the first actions of the turn and "
        "re-plan, e.g. 'move girona; recruit 7,5' (also: train SKILL, special move REGION, "
        "special recruit SIZE, special claim TILE TOWER); shows the difference in value.")
    ] = None,
    rules: options.Rules = "standard",
    time_limit: options.TimeLimit = DEFAULT_PLAN_TIME_LIMIT,
    workers: options.Workers = 1,
    board_file: options.BoardFile = None,
    as_json: options.Json = False,
) -> None:
    """Plan a player's next turns: moves, recruits, training, special actions.

    The plan is found by CP-SAT and replayed through the referee before it is printed.
    Opponents are assumed to take no actions (see the assumptions printed with the plan).
    Exit code 0: a proven best plan; 1: proven that the goal cannot be met (a plan toward
    the next festival is still printed); 3: the time limit came before the proof (the best
    plan found is still printed). The same command gives the same plan: the search runs on a
    deterministic budget (--time-limit is also a wall-clock safety net, whose hit is said).

    Examples:

      castell plan game.json --player Anna

      castell plan game.json --player Anna --turns 5 --goal score --json

      castell plan game.json --player Anna --goal tile LP02 --cautious

      castell plan game.json --player Anna --fix "move barcelona"
    """
    data, state = game_from(state_file, board_file)
    wanted = parse_goal(goal, tile)
    fixed = parse_fix(fix, data) if fix is not None else []
    name = state.turn.player if player is None else player
    console = err()
    waiting = console.status(f"planning the turns of {name}...") \
        if console.is_terminal and not as_json else nullcontext()
    with waiting, graceful():
        result = plan_turns(state, data, name, turns=turns, goal=wanted,
                            rules=rules_named(rules), cautious=cautious, time_limit=time_limit,
                            workers=workers, fixed=fixed)
    stopped = interrupted()  # Ctrl-C stopped the solve: the best plan so far, marked
    names = {r.id: r.name for r in data.regions}
    if as_json:
        emit_output(plan_output(result, interrupted=stopped))
    else:
        _render(result, names)
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


def _space(space: FestivalSpace | None) -> OutFestivalSpace | None:
    if space is None:
        return None
    return OutFestivalSpace(round=space.round, location=space.location, region=space.region,
                              size_tokens=list(space.size_tokens))


def plan_output(result: Plan, interrupted: bool = False) -> out_.PlanOutput:
    """`castell plan --json`, built from its output model (`cli.outputs.PlanOutput`)."""
    # the optional fields are given only when they hold (the JSON leaves them out otherwise)
    stop: dict[str, Any] = {"interrupted": True} if interrupted else {}
    fix: dict[str, Any] = {}
    if result.fixed:
        other = result.unfixed
        fix = {"fixed": list(result.fixed),
               "without_fix": None if other is None else out_.UnfixedPlan(
                   status=other.status.value, objective=other.objective,
                   turns=[out_.UnfixedTurn(round=t.round, actions=list(t.actions))
                          for t in other.turns]),
               "difference": _difference(result)}
    return out_.PlanOutput(
        schema_version=SCHEMA_VERSION,
        player=result.player,
        goal=str(result.goal),
        status=result.status.value,
        objective=result.objective,
        bound=_number(result.bound),
        tie_breaks=[out_.PlanTieBreak(name=t.name, value=t.value, proven=t.proven)
                    for t in result.tie_breaks],
        horizon=result.horizon,
        turns=[_turn(t, steps) for t, steps in
               zip(result.turns, result.steps or [()] * len(result.turns), strict=True)],
        festivals=[out_.PlanFestival(
            round=f.round, location=f.location, region=f.region,
            tower=str(f.entry.tower) if f.entry.tower else None, score=f.entry.score,
            rank=f.entry.rank, prize=f.entry.prize, reason=f.entry.reason)
            for f in result.festivals],
        # the next festival the player could compete in (its token sizes are in sight)
        next_festival=_space(result.next_festival),
        target=None if result.target is None else out_.PlanTarget(
            round=result.target.round, location=result.target.location,
            region=result.target.region,
            tower=str(result.target.tower) if result.target.tower else None),
        why_not=list(result.why_not),
        fewest_turns=result.fewest_turns,
        assumptions=list(result.assumptions),
        # refills the plan does not see: those regions' new castellers are not counted on
        unknown_refills=[out_.UnknownRefill(round=r.round, regions=list(r.regions))
                         for r in result.refills],
        # true: the wall clock (--time-limit), not the deterministic budget, stopped the
        # search, so the same command may answer differently
        stopped_by_clock=result.clock_hit,
        **fix,
        wall_time_s=round(result.wall_time_s, 3),
        **stop,
    )


def _turn(turn: PlannedTurn, steps: tuple[Step, ...]) -> out_.PlanTurn:
    return out_.PlanTurn(
        round=turn.round, ends_in=_ends_in(steps), actions=list(turn.actions),
        steps=[out_.PlanStep(action=s.action, where=s.where or None, cost=s.cost,
                             reason=s.reason, at_risk=s.at_risk) for s in steps])


def _ends_in(steps: tuple[Step, ...]) -> str | None:
    moves = [s.where for s in steps if isinstance(s.action, Move)
             or (isinstance(s.action, Special) and s.action.kind == "move")]
    if moves:
        return moves[-1]
    return next((s.where for s in steps if s.where), None)


def _difference(result: Plan) -> int | None:
    """The fixed plan's value less the free plan's (for a tile goal: rounds later, so
    positive is worse there)."""
    other = result.unfixed
    if other is None or result.objective is None or other.objective is None:
        return None
    return result.objective - other.objective


def _number(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value


COST = {"free": "", "paid": "[yellow]paid: 1 token[/]", "free special": "[green]free special[/]"}


def _render(result: Plan, names: dict[str, str]) -> None:
    console = out()
    if not result.found:
        why = {Status.INFEASIBLE: f"proven: no plan of {result.horizon} turn(s) meets the goal "
                                  f"({result.goal})",
               Status.UNKNOWN: "the time limit came before any plan was found"}
        console.print(why.get(result.status, str(result.status)), highlight=False)
        for line in result.why_not:
            console.print(f"  because {escape(line)}", highlight=False)
        if result.goal.kind == "tile" and result.status is Status.INFEASIBLE:
            if result.fewest_turns is not None:
                console.print(f"the fewest turns that claim {result.goal.tile}: "
                              f"[bold]{result.fewest_turns}[/] (--turns "
                              f"{result.fewest_turns})", highlight=False)
            else:
                console.print(f"no horizon up to 10 turns was found to claim "
                              f"{result.goal.tile} within the time limit", highlight=False)
        for line in result.assumptions:
            err().print(Text(f"assuming {line}"), highlight=False)
        return
    table = Table(title=f"Plan for {escape(result.player)}: {result.goal}",
                  caption="numbers give the order of a turn's actions; tokens are special "
                  "action tokens")
    for column in ("round", "action", "cost", "why"):
        table.add_column(column, overflow="fold")
    for turn, steps in zip(result.turns, result.steps or [()] * len(result.turns),
                           strict=True):
        end = _ends_in(steps)
        first = f"{turn.round}" + (f"\nends in {names.get(end, end)}" if end else "")
        if not steps:
            table.add_row(first, "-", "", "nothing to gain this turn")
        for number, step in enumerate(steps, start=1):
            table.add_row(first if number == 1 else "",
                          f"{number}. {escape(_short(step.action, names))}", COST[step.cost],
                          escape(step.reason) + (f" [red](at risk: {escape(step.at_risk)} "
                                                 "could take it first)[/]"
                                                 if step.at_risk else ""))
        table.add_section()
    console.print(table)
    for festival in result.festivals:
        entry = festival.entry
        title = escape(f"{festival.location} ({names.get(festival.region, festival.region)}), "
                       f"round {festival.round}")
        if entry.tower is None:
            console.print(f"{title}: not competing ({_not_competing(entry.reason, names)})",
                          highlight=False)
            continue
        prize = f", {entry.prize}" if entry.prize else ""
        console.print(Panel(stack(tower_picture(entry.tower)), title=title,
                            subtitle=f"score {entry.score}, rank {entry.rank}{prize}",
                            expand=False))
    if result.goal.kind == "festival" and not result.objective:
        console.print(_out_of_reach(result, names), highlight=False)
    console.print(_verdict(result))
    if result.fixed:
        console.print(_what_if(result, names), highlight=False)
    if result.clock_hit:
        console.print("[yellow]the time limit's wall clock stopped the search before its "
                      "deterministic budget: another run may give another plan[/]")
    for line in result.assumptions:
        console.print(Text(f"assuming {line}", style="dim"), highlight=False)


def _not_competing(reason: str | None, names: dict[str, str]) -> str:
    text = reason or "no tower"
    if text.startswith("no valid tower"):
        return "could not compete: " + text
    for region, name in names.items():
        text = text.replace(region, name)
    return text


def _out_of_reach(result: Plan, names: dict[str, str]) -> str:
    upcoming = result.next_festival
    if upcoming is None:
        return "no festival tower is within reach, and no festival is left to plan toward"
    where = names.get(upcoming.region, upcoming.region)
    sizes = ", ".join(map(str, upcoming.size_tokens))
    inside = upcoming.round < result.turns[0].round + result.horizon
    return (f"no festival tower is within reach in {result.horizon} turn(s); the next festival "
            f"you could compete in: {upcoming.location} ({where}), end of round "
            f"{upcoming.round}, sizes {sizes}" + ("" if inside else
            " (beyond the horizon: plan more turns, or omit --turns)")
            + "; the plan builds toward it")


def _what_if(result: Plan, names: dict[str, str]) -> str:
    fixed = "; ".join(_short(a, names) for a in result.fixed)
    other = result.unfixed
    if other is None or other.objective is None:
        return f"what-if ({fixed}): the plan without it found no value to compare"
    diff = _difference(result)
    if diff == 0:
        return f"what-if ({fixed}): as good as the free plan ({other.objective})"
    return (f"what-if ({fixed}): {result.objective} against {other.objective} without it "
            f"({'+' if diff and diff > 0 else ''}{diff})")


def _short(action: Action, names: dict[str, str]) -> str:
    if isinstance(action, Move):
        return f"move to {names.get(action.to, action.to)}"
    if isinstance(action, Recruit):
        return "recruit " + ", ".join(map(str, action.sizes))
    if isinstance(action, Train):
        return f"train {action.skill}"
    assert isinstance(action, Special)
    if action.kind == "move" and action.to is not None:
        return f"special: move to {names.get(action.to, action.to)}"
    return str(action)


def _verdict(result: Plan) -> str:
    goal = {"festival": "best festival score", "tile": f"{result.goal.tile} claimed in round",
            "score": "points"}[result.goal.kind]
    if result.status is Status.OPTIMAL:
        proof = "[bold green]proven optimal[/]"
    elif result.bound is None:
        proof = "[yellow]not proven[/] (no bound yet)"
    elif result.goal.kind == "tile":
        proof = f"[yellow]not proven[/] (no plan claims it before round {_number(result.bound)})"
    else:
        more = _number(result.bound - (result.objective or 0))
        unit = " points" if result.goal.kind == "score" else ""
        proof = f"[yellow]not proven[/] (at most {more}{unit} more than this plan)"
    ties = ", ".join(f"{t.name} {'unknown' if t.value is None else t.value}"
                     + ("" if t.proven else " (not proven)") for t in result.tie_breaks)
    return f"{goal}: [bold]{result.objective}[/], {proof}" + (f"; then {ties}" if ties else "")
