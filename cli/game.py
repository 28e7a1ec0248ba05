"""`castell wheel`, `castell festival` and `castell score`: reading a game state."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cli import options
from cli.edge import at_edge, emit_json, out
from cli.game_inputs import game_from
from models.errors import SpecError
from models.game import (
    ALL_REGIONS,
    CATEGORIES,
    SPECIAL,
    rotation_in_round,
    score_game,
    slot_tiles,
    where_offered,
)
from models.tower import Festival, Pool, Rules, SkillRanks, Tower, parse_skill, rules_named

if TYPE_CHECKING:
    from models.game import FestivalSpace, GameState, Outcome


class WheelTile(StrEnum):
    """A skill wheel tile: the five skills (models.tower.Skill) and special."""

    BALANCE = "balance"
    BASE = "base"
    MIX = "mix"
    STRENGTH = "strength"
    WIDTH = "width"
    SPECIAL = "special"


StateArg = options.StateFile


def _wheel_rows(state: GameState, first: int, count: int) -> list[tuple[int, int]]:
    """(round, wheel rotation in that round) for the rounds shown."""
    return [(r, rotation_in_round(state.wheel_rotation, state.round, r))
            for r in range(first, first + count)]


@at_edge
def wheel(
    state_file: StateArg,
    round_: Annotated[int | None, typer.Option(
        "--round", parser=options.whole(1, options.MAX_ROUNDS), metavar="ROUND",
        help="First round to show (default: the state's round).")] = None,
    ahead: Annotated[int, typer.Option(
        "--ahead", parser=options.whole(1, options.MAX_ROUNDS), metavar="N",
        help="How many rounds to show (at most the game's rounds).")] = 3,
    skill: Annotated[WheelTile | None, typer.Option(
        "--skill", case_sensitive=False,
        help="Where and when can I train this skill (or a special tile)?")] = None,
    board_file: options.BoardFile = None,
    as_json: options.Json = False,
) -> None:
    """Which skill each region offers this round and the next ones.

    Examples:

      castell wheel game.json

      castell wheel game.json --skill width --ahead 8
    """
    data, state = game_from(state_file, board_file, pending_refills=True)
    first = round_ or state.round
    if not 1 <= first <= data.rounds:
        raise SpecError(f"--round {first} is not a round of this game (1 to {data.rounds})")
    if ahead > data.rounds:
        raise SpecError(f"--ahead {ahead} is more rounds than the game has ({data.rounds})")
    wanted = None
    if skill is not None:
        wanted = SPECIAL if skill is WheelTile.SPECIAL else parse_skill(skill.value).value
    rows = _wheel_rows(state, first, ahead)
    side = state.wheel_side
    if as_json:
        emit_json({
            "side": side,
            "rounds": [{"round": r, "slots": slot_tiles(data, turn)} for r, turn in rows],
            "skill": wanted,
            "where": [{"round": r, "regions": where_offered(data, turn, wanted, side)}
                      for r, turn in rows] if wanted else None,
        })
        return
    names = {r.id: escape(r.name) for r in data.regions}
    table = Table(title=f"Skill wheel ({state.wheel_side} side)")
    table.add_column("region", overflow="fold")
    for r, _ in rows:
        table.add_column(f"round {r}", justify="center", overflow="fold")
    for slot in [*data.region_ids, ALL_REGIONS]:
        label = names.get(slot, "All Regions")
        cells = []
        for _, turn in rows:
            tile = slot_tiles(data, turn)[slot]
            cells.append(f"[bold green]{tile}[/]" if tile == wanted else tile)
        table.add_row(label, *cells)
    out().print(table)
    if wanted:
        for r, turn in rows:
            where = where_offered(data, turn, wanted, side)
            shown = "every region (All Regions slot)" if len(where) == len(data.region_ids) \
                else ", ".join(names[w] for w in where) or "nowhere"
            out().print(f"round {r}: {wanted} in {shown}")


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    space = outcome.space
    return {
        "round": space.round, "location": space.location, "region": space.region,
        "type": space.type, "size_tokens": space.size_tokens,
        "entries": [{"player": e.player, "eligible": e.eligible, "reason": e.reason,
                     "tower": str(e.tower) if e.tower else None, "score": e.score,
                     "rank": e.rank, "prize": e.prize} for e in outcome.entries],
        "size_token_winners": [{"size": s, "player": p} for s, p in outcome.size_tokens],
    }


def next_festival(state: GameState) -> FestivalSpace | None:
    """The first festival not held yet, from this round on."""
    waiting = [f for f in state.festivals if not f.resolved and f.round >= state.round]
    return min(waiting, key=lambda f: f.round, default=None)


GameRules = Annotated[str | None, typer.Option(
    "--rules", "-r", help="Rule variant and switches (default: the ones the game was started "
    "with; see `castell rules`).")]


def game_rules(state: GameState, rules: str | None) -> Rules:
    return state.game_rules if rules is None else rules_named(rules)


@at_edge
def festival(
    state_file: StateArg,
    rules: GameRules = None,
    time_limit: options.TimeLimit = options.TOWER_TIME_LIMIT,
    board_file: options.BoardFile = None,
    as_json: options.Json = False,
) -> None:
    """Resolve the festivals held at the end of the state's round.

    Each player in the festival's region competes with their best festival tower (found by
    the solver); prizes by the prize chart, size tokens to the most castellers of that size.

    Example:

      castell festival game.json
    """
    data, state = game_from(state_file, board_file, pending_refills=True)
    variant = game_rules(state, rules)

    from models.game import resolve_festival  # deferred: wheel and score hold no festival
    from planner.tower import festival_tower  # deferred: wheel and score need no planner

    def finder(pool: Pool, ranks: SkillRanks, fest: Festival, r: Rules) -> Tower | None:
        return festival_tower(pool, ranks, fest, r, time_limit)

    outcomes = [resolve_festival(state, data, space, variant, finder)
                for space in state.festivals_in(state.round)]
    upcoming = next_festival(state) if not outcomes else None
    if as_json:
        emit_json({"round": state.round, "festivals": [outcome_json(o) for o in outcomes],
                   "next": None if upcoming is None else {
                       "round": upcoming.round, "location": upcoming.location,
                       "region": upcoming.region, "size_tokens": upcoming.size_tokens}})
        return
    if not outcomes:
        names = {r.id: r.name for r in data.regions}
        after = "" if upcoming is None else (
            f" The next festival: end of round {upcoming.round} at {upcoming.location} "
            f"({names[upcoming.region]}), size tokens "
            f"{','.join(map(str, upcoming.size_tokens))}.")
        over = " The game is over." if state.game_over else ""
        out().print(f"No festival at the end of round {state.round}.{after or over}",
                    highlight=False)
        return
    for outcome in outcomes:
        space = outcome.space
        tokens = ",".join(map(str, space.size_tokens))
        table = Table(title=f"{escape(space.location)} (type {space.type}), round {space.round}, "
                            f"size tokens {tokens}")
        for column in ("player", "tower", "score", "rank", "prize"):
            table.add_column(column, overflow="fold")
        for e in outcome.entries:
            reason = f"[dim]{escape(e.reason or '')}[/]"
            table.add_row(escape(e.player), str(e.tower) if e.tower else reason,
                          str(e.score or "-"), str(e.rank or "-"), e.prize or "-")
        out().print(table)
        for size, winner in outcome.size_tokens:
            out().print(Text(f"size token {size}: {winner or 'nobody (no single leader)'}"))


@at_edge
def score(
    state_file: StateArg,
    board_file: options.BoardFile = None,
    as_json: options.Json = False,
) -> None:
    """End-of-game score breakdown per player in the five categories, and the winner.

    Before the game is over it is a standing (the points so far), not a result.

    Example:

      castell score game.json --json
    """
    data, state = game_from(state_file, board_file, pending_refills=True)
    if not state.players:
        raise SpecError("the state has no players")
    cards, winners = score_game(state, data)
    if as_json:
        emit_json({"players": [c.as_dict() for c in cards], "winners": winners,
                   "game_over": state.game_over,
                   "round": None if state.game_over else state.round})
        return
    title = "Final score: the game is over" if state.game_over else \
        f"Standing in round {state.round} of {data.rounds} (not a result: the game goes on)"
    table = Table(title=title)
    table.add_column("player", overflow="fold")
    headers = {"best_tower": "tower", "region_variety": "regions", "prizes": "prizes",
               "size_tokens": "sizes", "local_performances": "performances"}
    for category in CATEGORIES:
        table.add_column(headers[category], justify="right")
    table.add_column("total", justify="right", style="bold")
    for card in cards:
        table.add_row(escape(card.player), *(str(getattr(card, c)) for c in CATEGORIES),
                      str(card.total))
    out().print(table)
    if state.game_over:
        label = "winner" if len(winners) == 1 else "tied winners"
        out().print(Text(f"{label}: {', '.join(winners)}"))
    else:
        label = "leading" if len(winners) == 1 else "level at the top"
        out().print(Text(f"{label} so far: {', '.join(winners)} (round {state.round} of "
                         f"{data.rounds})"))
