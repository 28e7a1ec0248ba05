"""`castell wheel`, `castell festival` and `castell score`: reading a game state."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cli import options
from cli.edge import at_edge, emit_output, out
from models.errors import SpecError
from service.castell import REFEREE_TIME_LIMIT, Game
from service.castell.views import festival as festival_view
from service.castell.views import score as score_view
from service.castell.views import wheel as wheel_view


class WheelTile(StrEnum):
    """A skill wheel tile: the five skills (models.tower.Skill) and special."""

    BALANCE = "balance"
    BASE = "base"
    MIX = "mix"
    STRENGTH = "strength"
    WIDTH = "width"
    SPECIAL = "special"


StateArg = options.StateFile


@at_edge
def wheel(
    state_file: StateArg,
    round_: Annotated[int | None, typer.Option(
        "--round", parser=options.whole(1, options.MAX_ROUNDS), metavar="ROUND",
        help="First round to show (default: the state's round).")] = None,
    ahead: Annotated[int, typer.Option(
        "--ahead", parser=options.whole(1, options.MAX_ROUNDS), metavar="N",
        help="How many rounds to show (at most the game's rounds; never past its last).")] = 3,
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
    game = Game.load(state_file, board_file)
    view = wheel_view(game, round_, ahead, skill.value if skill else None)
    if as_json:
        emit_output(view)
        return
    if not view.rounds:
        out().print("The game is over: no round is left on the wheel.", highlight=False)
        return
    board = game.board
    names = {r.id: escape(r.name) for r in board.regions}
    table = Table(title=f"Skill wheel ({view.side} side)")
    table.add_column("region", overflow="fold")
    for row in view.rounds:
        table.add_column(f"round {row.round}", justify="center", overflow="fold")
    for slot in view.rounds[0].slots:
        cells = [f"[bold green]{row.slots[slot]}[/]" if row.slots[slot] == view.skill
                 else row.slots[slot] for row in view.rounds]
        table.add_row(names.get(slot, "All Regions"), *cells)
    out().print(table)
    for where in view.where or []:
        shown = "every region (All Regions slot)" if len(where.regions) == len(
            board.region_ids) else ", ".join(names[w] for w in where.regions) or "nowhere"
        out().print(f"round {where.round}: {view.skill} in {shown}")


@at_edge
def festival(
    state_file: StateArg,
    rules: Annotated[str | None, typer.Option("--rules", hidden=True)] = None,
    time_limit: options.TimeLimit = REFEREE_TIME_LIMIT,
    board_file: options.BoardFile = None,
    as_json: options.Json = False,
) -> None:
    """Preview the festivals held at the end of the state's round, as `end` will hold them.

    Each player in the festival's region competes with the tower they named (`castell play
    STATE festival-tower PLAYER TOWER|none`), else their best festival tower (proven by the
    solver); prizes by the prize chart, size tokens to the most castellers of that size. The
    game's own readings apply.

    Example:

      castell festival game.json
    """
    if rules is not None:
        raise SpecError("--rules is not taken: a festival is held in the game's own readings, "
                        "stored in the state (see `castell state show`)")
    game = Game.load(state_file, board_file)
    view = festival_view(game, time_limit)
    if as_json:
        emit_output(view)
        return
    if not view.festivals:
        names = {r.id: r.name for r in game.board.regions}
        upcoming = view.next
        after = "" if upcoming is None else (
            f" The next festival: end of round {upcoming.round} at {upcoming.location} "
            f"({names[upcoming.region]}), size tokens "
            f"{','.join(map(str, upcoming.size_tokens))}.")
        over = " The game is over." if game.state.game_over else ""
        out().print(Text(f"No festival at the end of round {view.round}.{after or over}"))
        return
    for held in view.festivals:
        tokens = ",".join(map(str, held.size_tokens))
        table = Table(title=f"{escape(held.location)} (type {held.type}), round {held.round}, "
                            f"size tokens {tokens}")
        for column in ("player", "tower", "score", "rank", "prize"):
            table.add_column(column, overflow="fold")
        for e in held.entries:
            reason = f"[dim]{escape(e.reason or '')}[/]"
            table.add_row(escape(e.player), e.tower or reason, str(e.score or "-"),
                          str(e.rank or "-"), e.prize or "-")
        out().print(table)
        for token in held.size_token_winners:
            out().print(Text(f"size token {token.size}: "
                             f"{token.player or 'nobody (no single leader)'}"))


@at_edge
def score(
    state_file: StateArg,
    board_file: options.BoardFile = None,
    as_json: options.Json = False,
) -> None:
    """End-of-game score breakdown per player in the five categories, and the winner.

    Before the game is over it is a standing (the points so far), not a result. Each
    category is itemised: prizes by festival, earned regions, size tokens, tiles and
    collected tokens.

    Example:

      castell score game.json --json
    """
    game = Game.load(state_file, board_file)
    view = score_view(game)
    if as_json:
        emit_output(view)
        return
    rounds = game.board.rounds
    title = "Final score: the game is over" if view.game_over else \
        f"Standing in round {view.round} of {rounds} (not a result: the game goes on)"
    table = Table(title=title)
    table.add_column("player", overflow="fold")
    for header in ("tower", "regions", "prizes", "sizes", "performances"):
        table.add_column(header, justify="right")
    table.add_column("total", justify="right", style="bold")
    for card in view.players:
        table.add_row(escape(card.player), str(card.best_tower), str(card.region_variety),
                      str(card.prizes), str(card.size_tokens), str(card.local_performances),
                      str(card.total))
    out().print(table)
    names = {r.id: r.name for r in game.board.regions}
    for item in view.items:
        prizes = ", ".join(f"{p.prize} at {p.location} (round {p.round}, {p.points})"
                           for p in item.prizes) or "none"
        tiles = ", ".join(f"{t.id} ({t.points})" for t in item.tiles) or "none"
        regions = ", ".join(names[r] for r in item.earned_regions) or "none"
        sizes = ", ".join(map(str, item.size_tokens)) or "none"
        out().print(Text(f"{item.player}: prizes {prizes}; regions {regions}; size tokens "
                         f"{sizes}; tiles {tiles}; collected tokens {item.collected_tokens} "
                         f"({item.collected_token_points})", style="dim"))
    if view.game_over:
        label = "winner" if len(view.winners) == 1 else "tied winners"
        out().print(Text(f"{label}: {', '.join(view.winners)}"))
    else:
        label = "leading" if len(view.winners) == 1 else "level at the top"
        out().print(Text(f"{label} so far: {', '.join(view.winners)} (round {view.round} of "
                         f"{rounds})"))
