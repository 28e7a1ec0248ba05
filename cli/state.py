"""`castell state new` and `castell state show`."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from cli import options
from cli.edge import at_edge, emit_json, out
from cli.game import StateArg
from cli.game_inputs import board_from, game_from
from models.files import write_atomic
from models.game import new_game

app = typer.Typer(help="Create and show game state files.", no_args_is_help=True)


@app.command("new")
@at_edge
def new(
    players: Annotated[int, typer.Option(
        "--players", "-n", parser=options.whole(2, 4), metavar="N", help="2 to 4.")] = 3,
    seed: Annotated[int, typer.Option(
        "--seed", parser=options.whole(0, options.MAX_SEED), metavar="N",
        help="Same seed, same deal.")] = 0,
    names: Annotated[str | None, typer.Option(
        "--names", help="Comma-separated player names in turn order.")] = None,
    output: Annotated[str, typer.Option(
        "--out", "-o", metavar="FILE", help="Write the state here ('-' = stdout).")] = "-",
    board_file: options.BoardFile = None,
) -> None:
    """Deal a legal starting state from the board (seeded, reproducible).

    Example:

      castell state new --players 3 --seed 7 --out game.json
    """
    board = board_from(board_file)
    state = new_game(board, players, seed,
                     [n.strip() for n in names.split(",")] if names else None,
                     board_name=str(board_file) if board_file else "default")
    if output == "-":
        typer.echo(state.to_json(), nl=False)
        return
    write_atomic(output, state.to_json())
    typer.echo(f"wrote {output}: {players} players, seed {seed}", err=True)


@app.command("show")
@at_edge
def show(
    state_file: StateArg,
    board_file: options.BoardFile = None,
    as_json: options.Json = False,
) -> None:
    """Show a game state: round, turn, players, regions and festivals to come.

    Example:

      castell state show examples/game/round3.json
    """
    board, state = game_from(state_file, board_file)
    if as_json:
        emit_json(state.model_dump(mode="json"))
        return
    names = {r.id: escape(r.name) for r in board.regions}
    status = "game over" if state.game_over \
        else f"round {state.round}, {escape(state.turn.player)} to play"
    players = Table(title=f"{status} ({state.wheel_side} wheel)")
    for column in ("player", "pawn", "team", "skills", "tokens", "best tower", "tiles"):
        players.add_column(column, overflow="fold")  # wrapped at 80 columns, never cut
    for p in state.players:
        players.add_row(escape(p.name), names.get(p.pawn or "", "-"), _breakable(p.pool),
                        _breakable(p.skills),
                        str(p.special_tokens), str(p.best_tower_score),
                        escape(", ".join(p.claimed_tiles)) or "-")
    regions = Table(title="Regions")
    for column in ("region", "castellers", "local performances", "tokens in row"):
        regions.add_column(column, overflow="fold")
    for region_id, region in state.regions.items():
        tiles = escape(", ".join(f"{t} {board.tile(t).tile}" for t in region.performance_tiles))
        regions.add_row(names[region_id], _breakable(region.castellers), tiles or "-",
                        str(region.special_tokens))
    festivals = Table(title="Festivals")
    for column in ("round", "town", "region", "type", "size tokens", "held"):
        festivals.add_column(column, overflow="fold")
    for f in state.festivals:
        festivals.add_row(str(f.round), escape(f.location), names[f.region], f.type,
                          ",".join(map(str, f.size_tokens)), "yes" if f.resolved else "")
    out().print(players, regions, festivals)


def _breakable(notation: str) -> str:
    """`10x4,8,6x2` as `10x4, 8, 6x2`: a narrow column wraps it between items."""
    return notation.replace(",", ", ")
