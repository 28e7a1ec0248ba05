"""`castell play`: record a real game, one step at a time, through the referee."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.markup import escape

from cli import options
from cli.edge import ExitCode, at_edge, emit_json, fail, out
from cli.game_inputs import game_with_history
from models.errors import NotationError, SpecError
from models.files import write_atomic
from models.game import (
    ActionEntry,
    Board,
    EndTurn,
    GameState,
    HistoryEntry,
    IllegalAction,
    Move,
    Recruit,
    RefillEntry,
    Special,
    TowerChoiceEntry,
    Train,
    record,
    require_refilled,
    undo,
)
from models.tower import Festival, Pool, Rules, SkillRanks, Tower, parse_sizes
from planner.tower import DEFAULT_TIME_LIMIT, festival_tower

VERBS = ("move", "recruit", "train", "special", "end", "refill", "festival-tower", "undo")


def _need(words: list[str], count: int, usage: str) -> None:
    if len(words) < count:
        raise SpecError(f"usage: castell play STATE {usage}")


def _region(board: Board, words: list[str], usage: str) -> str:
    _need(words, 1, usage)
    return board.find_region(" ".join(words)).id


def _sizes(words: list[str], usage: str) -> list[int]:
    _need(words, 1, usage)
    try:
        return parse_sizes(",".join(words), what="castellers")
    except NotationError as error:
        raise SpecError(f"{error} (usage: castell play STATE {usage})") from None


def parse_step(words: list[str], state: GameState, board: Board) -> HistoryEntry | None:
    """The step the words name (None for `undo`); region names as players write them."""
    if not words:
        raise SpecError(f"name an action: {', '.join(VERBS)}")
    verb, rest = words[0].lower(), words[1:]
    player = state.turn.player
    if verb == "move":
        return ActionEntry(player=player, action=Move(to=_region(board, rest, "move REGION")))
    if verb == "recruit":
        sizes = _sizes(rest, "recruit SIZE [SIZE]")
        if len(sizes) > 2:
            raise IllegalAction(f"a recruit takes at most 2 castellers, not {len(sizes)}")
        return ActionEntry(player=player, action=Recruit(sizes=sizes))
    if verb == "train":
        _need(rest, 1, "train SKILL|special")
        return ActionEntry(player=player, action=Train(skill=rest[0].lower()))
    if verb == "special":
        usage = "special recruit SIZE | special move REGION | special claim TILE TOWER"
        _need(rest, 2, usage)
        kind, args = rest[0].lower(), rest[1:]
        if kind == "recruit":
            sizes = _sizes(args, "special recruit SIZE")
            if len(sizes) != 1:
                raise IllegalAction("a special recruit takes exactly 1 casteller")
            return ActionEntry(player=player, action=Special(kind="recruit", size=sizes[0]))
        if kind == "move":
            return ActionEntry(player=player,
                               action=Special(kind="move", to=_region(board, args, usage)))
        if kind == "claim":
            _need(args, 2, "special claim TILE TOWER")
            tile = board.tile(args[0].strip().upper()).id
            return ActionEntry(player=player, action=Special(kind="claim", tile=tile,
                                                             tower=" ".join(args[1:])))
        raise SpecError(f"unknown special action '{kind}' (usage: {usage})", token=kind)
    if verb in ("end", "end-turn"):
        if rest:
            raise SpecError("`end` takes no arguments")
        return ActionEntry(player=player, action=EndTurn())
    if verb == "refill":
        usage = "refill REGION SIZE..."
        split = next((i for i, w in enumerate(rest) if w[:1].isdigit()), len(rest))
        region = _region(board, rest[:split], usage)
        return RefillEntry(region=region, castellers=str(Pool.of(_sizes(rest[split:], usage))))
    if verb == "festival-tower":
        _need(rest, 2, "festival-tower PLAYER TOWER|none")
        name = state.player(rest[0]).name
        text = " ".join(rest[1:])
        return TowerChoiceEntry(player=name, tower=None if text.lower() == "none" else text)
    if verb == "undo":
        if rest:
            raise SpecError("`undo` takes no arguments")
        return None
    raise SpecError(f"unknown action '{words[0]}' (actions: {', '.join(VERBS)})",
                    token=words[0])


def _names(board: Board) -> dict[str, str]:
    return {r.id: r.name for r in board.regions}


def _describe(entry: HistoryEntry | None, board: Board) -> str:
    names = _names(board)
    if entry is None:
        return "undid the last step"
    if isinstance(entry, RefillEntry):
        return f"refill of {names[entry.region]}: {entry.castellers}"
    if isinstance(entry, TowerChoiceEntry):
        return (f"{entry.player} will build {entry.tower} at this round's festival"
                if entry.tower else f"{entry.player} will not compete at this round's festival")
    action = entry.action
    if isinstance(action, Move):
        text = f"move to {names[action.to]}"
    elif isinstance(action, Special) and action.kind == "move" and action.to:
        text = f"special: move to {names[action.to]}"
    else:
        text = str(action)
    return f"{entry.player}: {text}"


def report(before: GameState, after: GameState, board: Board) -> dict[str, Any]:
    """What changed that a player should hear: festivals held, refills, whose turn, the end."""
    held = [s for s in after.festivals if s.result is not None
            and not any(b.location == s.location and b.resolved for b in before.festivals)]
    return {
        "round": after.round,
        "turn": None if after.game_over else after.turn.player,
        "festivals": [{"location": s.location, "region": s.region, "round": s.round,
                       "size_tokens": s.size_tokens,
                       "result": s.result.model_dump(mode="json") if s.result else None}
                      for s in held],
        "drawn": {r: after.regions[r].castellers for r in board.region_ids
                  if after.regions[r].supply.total > before.regions[r].supply.total
                  and after.round != before.round},
        "refills_due": after.refills_due,
        "game_over": after.game_over,
        "final_score": after.final_score.model_dump(mode="json") if after.final_score else None,
    }


def _print_report(news: dict[str, Any], board: Board, dry_run: bool) -> None:
    names = _names(board)
    console = out()
    for held in news["festivals"]:
        result = held["result"]
        console.print(f"[bold]Festival at {escape(held['location'])}[/] "
                      f"({names[held['region']]}, size tokens "
                      f"{','.join(map(str, held['size_tokens']))}):")
        for c in result["competitors"]:
            if c["tower"]:
                prize = f", {c['prize']}" if c["prize"] else ""
                console.print(f"  {escape(c['player'])}: {c['tower']} scores {c['score']} "
                              f"(rank {c['rank']}{prize})")
            elif c["reason"] and "pawn is in" not in c["reason"]:
                console.print(f"  {escape(c['player'])}: {escape(c['reason'])}")
        for token in result["size_tokens"]:
            console.print(f"  size token {token['size']}: "
                          f"{escape(token['player'] or 'nobody')}")
    for region, castellers in news["drawn"].items():
        console.print(f"refill: {names[region]} now holds {castellers}")
    if news["refills_due"]:
        due = ", ".join(f"{names[r]} {n}" for r, n in news["refills_due"].items())
        console.print(f"[yellow]refill due[/]: record the castellers drawn from the bag "
                      f"({due}): castell play STATE refill REGION SIZES...")
    if news["game_over"]:
        final = news["final_score"]
        totals = ", ".join(f"{escape(c['player'])} {c['total']}" for c in final["cards"])
        console.print(f"[bold]Game over.[/] Final score: {totals}. "
                      f"Winner: {escape(', '.join(final['winners']))}")
    elif news["turn"]:
        console.print(f"round {news['round']}: {escape(news['turn'])} to play")
    if dry_run:
        console.print("[dim](dry run: the state file was not changed)[/]")


@at_edge
def play(
    state_file: Annotated[str, typer.Argument(metavar="STATE", help="The game state file.")],
    words: Annotated[list[str], typer.Argument(
        metavar="ACTION...", help="move REGION | recruit SIZE [SIZE] | train SKILL|special | "
        "special recruit SIZE | special move REGION | special claim TILE TOWER | end | "
        "refill REGION SIZE... | festival-tower PLAYER TOWER|none | undo")],
    dry_run: Annotated[bool, typer.Option(
        "--dry-run", help="Show the result; do not write the state file.")] = False,
    time_limit: options.TimeLimit = DEFAULT_TIME_LIMIT,
    board_file: options.BoardFile = None,
    as_json: options.Json = False,
) -> None:
    """Record one step of a real game for the player whose turn it is, and save the state.

    The referee checks the step: an illegal one is refused with its reason (exit 1) and the
    file is left as it was. Every write is atomic. The state keeps its history: `undo` takes
    back the last step. `end` ends the turn; after the last player's turn the round ends:
    festivals are held (each player builds the tower named with `festival-tower`, else their
    best one), the wheel turns, and the regions are refilled (a recorded deal asks for the
    real draws with `refill`).

    Examples:

      castell play game.json move girona

      castell play game.json recruit 7 5

      castell play game.json special claim LP07 "9x4/7x3/5x2/3"

      castell play game.json refill "camp de tarragona" 8 6 3

      castell play game.json festival-tower Anna "9x4/7x3/6,6/3"

      castell play game.json end --dry-run
    """
    board, state = game_with_history(state_file, board_file)

    def finder(pool: Pool, ranks: SkillRanks, fest: Festival, r: Rules) -> Tower | None:
        return festival_tower(pool, ranks, fest, r, time_limit)

    try:
        entry = parse_step(words, state, board)
        if entry is None:
            new = undo(state, board)
        else:
            if isinstance(entry, ActionEntry):
                require_refilled(state)
            new = record(state, board, entry, finder)
    except IllegalAction as error:
        fail(str(error), ExitCode.NO)
    news = report(state, new, board)
    if not dry_run:
        write_atomic(state_file, new.to_json())
    if as_json:
        emit_json({"applied": _describe(entry, board), "written": not dry_run, **news})
        return
    out().print(escape(_describe(entry, board)))
    _print_report(news, board, dry_run)

