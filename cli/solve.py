"""`castell best` and `castell check`: ask the solver for a tower and render its answer."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import BaseModel, ConfigDict, Field
from rich.console import RenderableType
from rich.panel import Panel
from rich.text import Text

from cli import options
from cli.edge import (
    ExitCode,
    at_edge,
    emit_json,
    fail,
    fail_interrupted,
    graceful,
    interrupted,
    out,
)
from cli.game_inputs import player_inputs, tile_text
from cli.inputs import emit_batch, read_inputs
from cli.render import stack, tower_picture, uses_text
from models.errors import SpecError
from models.files import not_an_input
from models.game import next_reachable_festival
from models.tower import Festival, parse_tile
from planner.tower import (
    DEFAULT_TIME_LIMIT,
    ENGINES,
    Answer,
    BestTower,
    Engine,
    FestivalTower,
    Question,
    Status,
    TileCheck,
    answer,
    height_weight,
)


class EngineName(StrEnum):
    DP = "dp"
    CPSAT = "cpsat"
    SEARCH = "search"


EngineOption = Annotated[EngineName, typer.Option(
    "--engine", "-e", case_sensitive=False,
    help="dp (the product: exact, milliseconds), cpsat (the CP-SAT model) or search "
         "(exhaustive; small pools only).")]

EXIT_FOR = {Status.OPTIMAL: ExitCode.YES, Status.INFEASIBLE: ExitCode.NO,
            Status.FEASIBLE: ExitCode.TIME_LIMIT, Status.UNKNOWN: ExitCode.TIME_LIMIT}


class SolveLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pool: str
    skills: str = "none"
    rules: str = "standard"
    engine: str = "dp"
    time_limit: float = Field(DEFAULT_TIME_LIMIT, ge=0.001, le=options.MAX_TIME_LIMIT,
                              allow_inf_nan=False)


class BestLine(SolveLine):
    """One line of `castell best --batch`."""

    festival: str | None = None


class CheckLine(SolveLine):
    """One line of `castell check --batch`."""

    tile: str


def _engine(name: str) -> Engine:
    for engine in ENGINES:
        if name == engine:
            return engine
    raise SpecError(f"unknown engine '{name}' (engines: {', '.join(ENGINES)})", token=name)


def run_question(line: BestLine | CheckLine, workers: int = 1, seed: int = 0) -> Answer:
    pool, ranks, rules = read_inputs(line.pool, line.skills, line.rules)
    assert pool is not None  # the line's pool is required
    question: Question
    if isinstance(line, CheckLine):
        question = TileCheck(parse_tile(line.tile))
    elif line.festival is not None:
        question = FestivalTower(Festival.parse(line.festival, rules))
    else:
        question = BestTower()
    return answer(question, pool, ranks, rules, engine=_engine(line.engine),
                  time_limit=line.time_limit, workers=workers, seed=seed)


def _number(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value


CLOCK_HIT_SHARE = 0.9  # of the time limit, run by an unproven solve: see `answer_json`


def answer_json(reply: Answer, time_limit: float | None = None) -> dict[str, Any]:
    result, question = reply.result, reply.question
    tower = result.tower
    bound: float | int | None = _number(result.bound)
    if isinstance(question, BestTower) and bound is not None:
        bound = int(bound) // height_weight(reply.pool.total)  # the proven bound on the height
    why = reply.why_not
    data: dict[str, Any] = {
        "status": str(result.status),
        "tower": str(tower) if tower else None,
        "levels": tower.as_lists() if tower else None,
        "height": tower.height if tower else None,
        "castellers": tower.castellers if tower else None,
        "score": result.objective if isinstance(question, FestivalTower) else None,
        "uses": result.uses.as_dict() if result.uses else None,
        "bound": bound,
        "wall_time_s": round(result.wall_time_s, 6),
        # an unproven solve that ran (nearly) its whole time limit: the wall clock, not the
        # deterministic budget (planner.tower.configure: it ends a solve well within the limit
        # unless the machine is very busy), stopped it, so the answer may differ from one run
        # (or machine) to the next. Inferred here: the tower solve reports no clock hit itself
        "stopped_by_clock": time_limit is not None and not result.proven
        and result.wall_time_s >= CLOCK_HIT_SHARE * time_limit,
        "engine": result.engine,
        "reasons": list(why.reasons) if why else [],
        "closest": str(why.closest.tower) if why and why.closest and why.closest.tower else None,
        "suggestions": [s.as_dict() for s in why.suggestions] if why else [],
    }
    if isinstance(question, TileCheck):
        # null when the time limit came first: neither a yes nor a proven no
        data["achievable"] = {Status.OPTIMAL: True, Status.INFEASIBLE: False}.get(result.status)
    return data


def _status_line(reply: Answer) -> str:
    status = reply.result.status
    if status is Status.OPTIMAL and not interrupted():
        return "[bold green]optimal[/] (proven)" if not isinstance(reply.question, TileCheck) \
            else "[bold green]achievable[/] (a tower meets the tile)"
    if interrupted():
        return f"[bold yellow]interrupted[/] ({status}): the best answer found before Ctrl-C"
    if status is Status.FEASIBLE:
        return "[bold yellow]feasible[/]: the time limit came before a proof of optimality"
    if status is Status.INFEASIBLE:
        return "[bold red]not achievable[/] (proven)"
    return "[bold yellow]unknown[/]: the time limit came before any answer"


def _summary(reply: Answer) -> str:
    result, question = reply.result, reply.question
    lines = [f"status: {_status_line(reply)}"]
    tower = result.tower
    if tower is not None:
        if isinstance(question, FestivalTower):
            matches = question.festival.matches(tower)
            lines.append(f"score: {tower.height} levels + {matches} matching castellers "
                         f"= [bold]{tower.height + matches}[/]")
            if result.bound is not None and result.status is not Status.OPTIMAL:
                lines.append(f"bound: no tower scores more than {int(result.bound)}")
        else:
            lines.append(f"height {tower.height}, {tower.castellers} castellers")
        lines.append(f"skill uses: {uses_text(result.uses)}")
    lines.append(f"[dim]{result.engine}, {result.wall_time_s * 1000:.1f} ms[/]")
    return "\n".join(lines)


def _why_not(reply: Answer) -> RenderableType | None:
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
    else:
        text.append("\nNo single extra casteller or +1 rank makes it achievable.\n", style="bold")
    parts: list[RenderableType] = [Panel(text, title="why not", expand=False)]
    if why.closest and why.closest.tower:
        parts.append(Text("Closest: your tallest tower", style="bold"))
        parts.append(tower_picture(why.closest.tower))
    return stack(*parts)


def _show(reply: Answer) -> None:
    tower = reply.result.tower
    out().print(stack(
        tower_picture(tower) if tower else None,
        Panel(_summary(reply), title=str(reply.question), expand=False),
        _why_not(reply),
    ))


def _finish(reply: Answer, as_json: bool, svg: str | None, time_limit: float) -> None:
    tower = reply.result.tower
    stopped = interrupted()  # Ctrl-C stopped the solve: its best answer so far, marked
    if svg is not None and tower is not None and not stopped:
        from cli.svg import save, tower_svg  # deferred: keeps start-up light

        save(tower_svg(tower.as_lists(), str(tower)), svg)
    if as_json:
        emit_json({**answer_json(reply, time_limit), **({"interrupted": True} if stopped else {})})
    else:
        _show(reply)
    if stopped:
        fail_interrupted("interrupted: the answer above is the best found so far")
    raise typer.Exit(EXIT_FOR[reply.result.status])


def _no_team_options(pool: str | None, skills: str) -> None:
    if pool is not None or skills != "none":
        fail("--state FILE takes the player's team and skills: drop --pool/--skills")


def _batch(source: str | Path, schema: type[BestLine] | type[CheckLine], workers: int,
           seed: int) -> None:
    def handle(line: BestLine | CheckLine) -> dict[str, Any]:
        return answer_json(run_question(line, workers, seed), line.time_limit)

    emit_batch(source, schema, handle)


@at_edge
def best(
    pool: options.Team = None,
    skills: options.Skills = "none",
    festival: Annotated[str | None, typer.Option(
        "--festival", "-f", help="The festival's size tokens, e.g. '6,3'.")] = None,
    rules: options.Rules = "standard",
    time_limit: options.TimeLimit = DEFAULT_TIME_LIMIT,
    engine: EngineOption = EngineName.DP,
    workers: options.Workers = 1,
    seed: options.Seed = 0,
    as_json: options.Json = False,
    batch: options.Batch = None,
    svg: options.Svg = None,
    state_file: options.StateOption = None,
    player: options.Player = None,
    board_file: options.BoardFile = None,
) -> None:
    """Your best tower: the tallest (then widest), or with --festival the best festival score.

    With --state, the team, skill ranks and readings are a player's in that game, and with
    no --festival the next festival the player can still reach is used.

    Exit 0 proven best, 1 no tower can compete, 2 bad input, 3 time limit before a proof (the
    best tower found so far is still printed).

    Examples:

      castell best --pool "9x4,7x3,6,6,5x2,3" --skills width=1 --festival 6,3

      castell best --pool "10,9x3,7,7,5x2" --skills balance=1 --json

      castell best --state game.json --player Anna
    """
    not_an_input(svg, batch, state_file, board_file, option="--svg")
    if batch is not None:
        if pool is not None or festival is not None:
            fail("give either --pool or --batch, not both (each batch line holds its own pool, "
                 "festival and options)")
        _batch(batch, BestLine, workers, seed)
    if state_file is not None:
        _no_team_options(pool, skills)
        data, game, pool, skills, rules = player_inputs(state_file, board_file, player)
        if festival is None:
            name = player or game.turn.player
            space = next_reachable_festival(game, data, name)
            if space is None and not as_json:
                out().print(Text(f"No festival left that {name} can reach: the tallest "
                                 "tower instead."), highlight=False)
            elif space is not None:
                festival = ",".join(map(str, space.size_tokens))
                if not as_json:
                    out().print(Text(f"{name}'s next reachable festival: {space.location}, "
                                     f"end of round {space.round}, size tokens {festival}"))
    elif player is not None:
        fail("--player goes with --state FILE")
    if pool is None:
        fail("missing --pool (or --batch FILE); see 'castell best --help'")
    line = BestLine(pool=pool, skills=skills, rules=rules, engine=engine.value,
                    time_limit=time_limit, festival=festival)
    with graceful():
        reply = run_question(line, workers, seed)
    _finish(reply, as_json, svg, line.time_limit)


@at_edge
def check(
    tile: Annotated[str | None, typer.Argument(
        help="The tile: 'shape:4-3-2-1' or 'exhibition:4:balance+width'.")] = None,
    pool: options.Team = None,
    skills: options.Skills = "none",
    rules: options.Rules = "standard",
    time_limit: options.TimeLimit = DEFAULT_TIME_LIMIT,
    engine: EngineOption = EngineName.DP,
    workers: options.Workers = 1,
    seed: options.Seed = 0,
    as_json: options.Json = False,
    batch: options.Batch = None,
    svg: options.Svg = None,
    state_file: options.StateOption = None,
    player: options.Player = None,
    board_file: options.BoardFile = None,
) -> None:
    """Can you claim a local performance tile? Shows a tower that meets it, or why not.

    The tile is its text or its id on the board (`LP09`). With --state, the team, skill
    ranks and readings are a player's in that game.

    Exit 0 achievable, 1 proven not achievable, 2 bad input, 3 time limit before an answer.

    Examples:

      castell check shape:4-3-2-1 --pool "9x4,7x3,5x2,3" --skills width=1

      castell check exhibition:4:balance+width --pool "9x4,7x3,5x2,3" --skills width=1

      castell check LP09 --state game.json --player Anna
    """
    not_an_input(svg, batch, state_file, board_file, option="--svg")
    if batch is not None:
        if tile is not None:
            fail("give either a TILE or --batch, not both")
        if pool is not None:
            fail("give either --pool or --batch, not both (each batch line holds its own)")
        _batch(batch, CheckLine, workers, seed)
    if state_file is not None:
        _no_team_options(pool, skills)
        data, _, pool, skills, rules = player_inputs(state_file, board_file, player)
        if tile is not None:
            tile = tile_text(tile, data)
    elif player is not None:
        fail("--player goes with --state FILE")
    elif tile is not None and ":" not in tile:
        from models.game import load_board  # deferred: only a tile id needs the board

        tile = tile_text(tile, load_board(board_file))
    if tile is None or pool is None:
        fail("missing TILE or --pool (or --batch FILE); see 'castell check --help'")
    line = CheckLine(pool=pool, skills=skills, rules=rules, engine=engine.value,
                     time_limit=time_limit, tile=tile)
    with graceful():
        reply = run_question(line, workers, seed)
    _finish(reply, as_json, svg, line.time_limit)
