"""`castell play`: record a real game, one step at a time, through the game handle."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from cli import options
from cli.edge import (
    ExitCode,
    Terminated,
    at_edge,
    emit_output,
    err,
    fail,
    out,
    written_after_stop,
)
from models.errors import Refused
from service.castell import REFEREE_TIME_LIMIT, Game
from service.results import SCHEMA_VERSION
from service.results.game import PlayOutput, RefusedOutput


def _print_report(news: PlayOutput, game: Game, dry_run: bool) -> None:
    board, console = game.board, out()
    names = {r.id: r.name for r in board.regions}
    for held in news.festivals:
        assert held.result is not None
        console.print(f"[bold]Festival at {escape(held.location)}[/] "
                      f"({escape(names[held.region])}, size tokens "
                      f"{','.join(map(str, held.size_tokens))}):")
        for c in held.result.competitors:
            if c.tower:
                prize = f", {c.prize}" if c.prize else ""
                console.print(f"  {escape(c.player)}: {c.tower} scores {c.score} "
                              f"(rank {c.rank}{prize})")
            elif c.reason and game.state.player(c.player).pawn == held.region:
                console.print(f"  {escape(c.player)}: {escape(c.reason)}")
        for token in held.result.size_tokens:
            console.print(f"  size token {token.size}: {escape(token.player or 'nobody')}")
    for region, castellers in news.drawn.items():
        console.print(f"refill: {escape(names[region])} now holds {castellers}")
    if news.refills_due:
        due = ", ".join(f"{names[r]} {n}" for r, n in news.refills_due.items())
        console.print(f"[yellow]refill due[/]: record the castellers drawn from the bag "
                      f"({escape(due)}): castell play STATE refill REGION SIZES...")
    if news.game_over and news.final_score is not None:
        final = news.final_score
        totals = ", ".join(f"{escape(c.player)} {c.total}" for c in final.cards)
        console.print(f"[bold]Game over.[/] Final score: {totals}. "
                      f"Winner: {escape(', '.join(final.winners))}")
    elif news.turn:
        console.print(f"round {news.round}: {escape(news.turn)} to play")
    if dry_run:
        console.print("[dim](dry run: the state file was not changed)[/]")


@at_edge
def play(
    state_file: Annotated[str, typer.Argument(metavar="STATE", help="The game state file.")],
    words: Annotated[list[str], typer.Argument(
        metavar="ACTION...", help="move REGION | recruit SIZE [SIZE] | train SKILL|special | "
        "special recruit SIZE | special move REGION | special claim TILE TOWER | end | "
        "refill REGION SIZE... | festival-tower PLAYER [FESTIVAL] TOWER|none | undo")],
    player: Annotated[str | None, typer.Option(
        "--player", help="Who is playing this step: refused unless it is their turn.")] = None,
    dry_run: Annotated[bool, typer.Option(
        "--dry-run", help="Show the result; do not write the state file.")] = False,
    time_limit: options.TimeLimit = REFEREE_TIME_LIMIT,
    board_file: options.BoardFile = None,
    as_json: options.Json = False,
) -> None:
    """Record one step of a real game for the player whose turn it is, and save the state.

    The referee checks the step: an illegal one is refused with its reason (exit 1) and the
    file is left as it was. Every write is atomic and under a lock, and the file's revision
    goes up by one: two `castell play` at once land one after the other, never one over the
    other. The state keeps its history: `undo` takes back the last step (never a refill drawn
    from the bag in a seeded game). `end` ends the turn; after the last player's turn the
    round ends: festivals are held (each player builds the tower named with
    `festival-tower`, else their best one), the wheel turns, and the regions are refilled (a
    recorded deal asks for the real draws with `refill`).

    Examples:

      castell play game.json move girona

      castell play game.json recruit 7 5

      castell play game.json special claim LP07 "9x4/7x3/5x2/3"

      castell play game.json refill "camp de tarragona" 8 6 3

      castell play game.json festival-tower Anna "9x4/7x3/6,6/3"

      castell play game.json festival-tower Anna "Vilafranca del Penedès" none

      castell play game.json end --dry-run
    """
    loaded: list[int] = []  # the revision the step was made on
    try:
        if dry_run:
            game = Game.load(state_file, board_file)
            news = game.step(words, as_player=player, time_limit=time_limit,
                             confirm_reveal=True)
        else:
            with Game.editing(state_file, board_file) as game:
                loaded.append(game.revision)
                news = game.step(words, as_player=player, time_limit=time_limit,
                                 confirm_reveal=True)
                game.save()
                news = news.model_copy(update={"written": True, "revision": game.revision})
    except (KeyboardInterrupt, Terminated):
        now = written_after_stop(state_file, loaded)
        if now is None:
            raise  # nothing written: interrupted as any command
        err().print(f"saved: revision {now} (stopped after the step was written)")
        return
    except Refused as error:
        if as_json:
            emit_output(RefusedOutput(schema_version=SCHEMA_VERSION, refused=True,
                                      code=error.code.value, reason=str(error)))
        fail(str(error), ExitCode.NO)
    if as_json:
        emit_output(news)
        return
    out().print(escape(news.applied))
    _print_report(news, game, dry_run)
