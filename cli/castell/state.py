"""`castell state new` and `castell state show`."""

from __future__ import annotations

from typing import Annotated, Literal

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cli import options
from cli.edge import at_edge, emit_output, out
from models.errors import SpecError
from models.files import not_an_input, write_atomic
from models.game import load_board
from service.castell import Game
from service.castell.setup import players_of, shown, start_game, started
from service.results.castell_view import CastellView

WheelSide = Annotated[Literal["standard", "advanced"] | None, typer.Option(
    "--wheel-side", help="standard (with the All Regions slot) or advanced (No Regions); "
    "default: the board's (or the deal file's) side.")]


def _players(players: str, names: str | None) -> tuple[int, list[str] | None]:
    """`--players 3` (with `--names`, the turn order) or `--players Anna,Biel,Carla`."""
    count, listed = players_of(players)
    if listed is None:
        return count, [n.strip() for n in names.split(",")] if names else None
    if names:
        raise SpecError("give the names once: --players Anna,Biel or --players 2 --names ...")
    return count, listed


# shell completion is installed from the root command only (`castell --install-completion`)
app = typer.Typer(help="Create and show game state files.", no_args_is_help=True,
                  add_completion=False)


@app.command("new")
@at_edge
def new(
    players: Annotated[str | None, typer.Option(
        "--players", "-n", help="How many players (2-4; default 3), or their names in turn "
        "order: Anna,Biel,Carla. With --deal: the deal's players.", show_default=False)] = None,
    seed: Annotated[int, typer.Option(
        "--seed", parser=options.whole(0, options.MAX_SEED), metavar="N",
        help="Same seed, same deal.")] = 0,
    names: Annotated[str | None, typer.Option(
        "--names", help="Comma-separated player names in turn order.")] = None,
    deal: Annotated[str | None, typer.Option(
        "--deal", metavar="FILE", help="The real deal (a TOML file: see `castell state "
        "template`); refills then ask for the real draws.")] = None,
    rules: Annotated[str, typer.Option(
        "--rules", "-r", help="The game's readings, stored in the state: a variant and "
        "switches, e.g. standard,prize_ties=turn-order (see `castell rules`).")] = "standard",
    wheel_side: WheelSide = None,
    output: Annotated[str, typer.Option(
        "--out", "-o", metavar="FILE", help="Write the state here ('-' = stdout).")] = "-",
    board_file: options.BoardFile = None,
    as_json: options.Json = False,
) -> None:
    """Start a game: a seeded random deal (reproducible), or the real one with --deal.

    With --json: one object saying what was started (the state inside it with --out -).

    Examples:

      castell state new --players 3 --seed 7 --out game.json

      castell state template --players Anna,Biel,Carla > deal.toml

      castell state new --players Anna,Biel,Carla --deal deal.toml --out game.json

      castell state new --players Anna,Biel --rules standard,special_move=any -o game.json
    """
    not_an_input(output, deal, board_file)
    board = load_board(board_file)
    count, listed = _players("3" if players is None else players, names)
    state = start_game(board, str(board_file) if board_file else "default",
                       None if players is None else count, listed, seed, deal,
                       rules, wheel_side)
    how = f"the deal in {deal}" if deal is not None else f"seed {seed}"
    if output != "-":
        write_atomic(output, state.to_json())
    if as_json:
        emit_output(started(state, None if output == "-" else output, seed, deal))
        return
    if output == "-":
        typer.echo(state.to_json(), nl=False)
        return
    typer.echo(f"wrote {output}: {len(state.players)} players, {how}, rules "
               f"{state.game_rules.name}", err=True)


@app.command("template")
@at_edge
def template(
    players: Annotated[str, typer.Option(
        "--players", "-n", help="How many players (2-4), or their names in turn order.")
    ] = "3",
    seed: Annotated[int, typer.Option(
        "--seed", help="The example values are this seed's deal.")] = 0,
    board_file: options.BoardFile = None,
) -> None:
    """Print a commented deal file to fill in with the real deal (for `state new --deal`).

    The values in it are a seeded example deal: replace them with what is on the table.

    Example:

      castell state template --players Anna,Biel,Carla > deal.toml
    """
    from models.game import deal_template  # deferred: not what `state show` needs

    board = load_board(board_file)
    count, listed = _players(players, None)
    if not 2 <= count <= 4:
        raise SpecError(f"--players: 2 to 4 players, not {count}")
    default = ["Anna", "Biel", "Carla", "Dani"][:count]
    typer.echo(deal_template(board, listed or default, seed))


@app.command("show")
@at_edge
def show(
    state_file: options.StateFile,
    board_file: options.BoardFile = None,
    as_json: options.Json = False,
    svg: Annotated[str | None, typer.Option(
        "--svg", metavar="FILE", help="Also draw the game on the map as an SVG picture.")
    ] = None,
    view: Annotated[bool, typer.Option(
        "--view", help="The game as every screen shows it: the legal steps of the player "
        "to move, labelled, and the history with each step's round and player (the table "
        "page's own view; with --json, its JSON).")] = False,
) -> None:
    """Show a game state: round, turn, players, regions and festivals to come.

    With --json: the state file's fields, `schema_version` first; that output is itself a
    state file every command reads (`castell state show game.json --json > copy.json`).

    Examples:

      castell state show examples/game/round3.json

      castell state show game.json --svg game.svg

      castell state show game.json --view --json
    """
    not_an_input(svg, state_file, board_file, field="svg")
    options.not_onto_stdout(svg, as_json)
    game = Game.load(state_file, board_file)
    if svg is not None:
        from service.pictures.svg import game_map, save  # deferred: keeps start-up light

        save(game_map(game.board, game.view()), svg)
    if view:
        _print_view(game, as_json)
        return
    if as_json:
        emit_output(shown(game))
        return
    _print_state(game.view())


def _print_state(seen: CastellView) -> None:
    """The game's view as tables: players, regions, festivals, then notes."""
    names = {r.id: escape(r.name) for r in seen.regions}
    status = "game over" if seen.game_over else f"round {seen.round}, " + (
        f"{escape(seen.to_play)} to play" if seen.to_play else "refills due")
    players = Table(title=f"{status} ({seen.wheel_side} wheel)")
    for column in ("player", "pawn", "team", "skills", "tokens", "best tower", "tiles"):
        players.add_column(column, overflow="fold")  # wrapped at 80 columns, never cut
    for p in seen.players:
        players.add_row(escape(p.name), names.get(p.pawn or "", "-"), _breakable(p.team),
                        _breakable(_skills(p.skills)), str(p.special_tokens),
                        str(p.best_tower), escape(", ".join(p.claimed_tiles)) or "-")
    regions = Table(title="Regions")
    for column in ("region", "castellers", "local performances", "tokens in row"):
        regions.add_column(column, overflow="fold")
    for region in seen.regions:
        tiles = escape(", ".join(f"{t.id} {t.tile}" for t in region.tiles))
        regions.add_row(names[region.id], _breakable(region.castellers), tiles or "-",
                        str(region.special_tokens))
    out().print(players, regions, _festivals(seen))
    for note in _notes(seen):
        out().print(Text(note))


def _skills(skills: dict[str, int]) -> str:
    """The trained skills as the notation writes them (`balance=1,strength=2`)."""
    return ",".join(f"{name}={rank}" for name, rank in skills.items() if rank) or "none"


def _festivals(seen: CastellView) -> Table:
    prizes = {(h.round, h.location): ", ".join(f"{c.player} {c.prize}" for c in h.competitors
                                               if c.prize) or "held" for h in seen.held}
    festivals = Table(title="Festivals")
    for column in ("round", "town", "region", "type", "size tokens", "held"):
        festivals.add_column(column, overflow="fold")
    for f in seen.festivals:
        held = prizes.get((f.round, f.location), "yes") if f.held else ""
        festivals.add_row(str(f.round), escape(f.location), escape(f.region_name), f.type,
                          ",".join(map(str, f.size_tokens)), escape(held))
    return festivals


def _notes(seen: CastellView) -> list[str]:
    names = {r.id: r.name for r in seen.regions}
    notes = [f"rules: {seen.rules}",
             f"deal: {seen.deal}" + (f" (seed {seen.seed})" if seen.deal == "seeded" else ""),
             f"history: {len(seen.history)} steps recorded"]
    if seen.refills_due:
        notes.append("refill due: " + ", ".join(f"{names[r]} draws {n}"
                                                 for r, n in seen.refills_due.items()))
    named = [f"{n.player}" + (f" at {n.location}" if n.location else "")
             + f" {n.tower or 'not competing'}" for n in seen.named_towers]
    if named:
        notes.append("festival towers named: " + ", ".join(named))
    if seen.final_scores is not None:
        notes.append("final score: " + ", ".join(
            f"{who} {total}" for who, total in seen.final_scores.items())
            + f"; winner: {', '.join(seen.winners)}")
    return notes


def _breakable(notation: str) -> str:
    """`10x4,8,6x2` as `10x4, 8, 6x2`: a narrow column wraps it between items."""
    return notation.replace(",", ", ")


def _print_view(game: Game, as_json: bool) -> None:
    """The game's view: its JSON, or its legal steps and history as tables."""
    seen = game.view()
    if as_json:
        emit_output(seen)
        return
    steps = Table(title=f"{escape(seen.to_play)}: legal steps" if seen.to_play
                  else "no step to take now")
    for column in ("step", "what it does"):
        steps.add_column(column, overflow="fold")
    for step in seen.actions:
        steps.add_row(escape(step.step), escape(step.label))
    history = Table(title=f"history: {len(seen.history)} steps")
    for column in ("round", "player", "step"):
        history.add_column(column, overflow="fold")
    for line in seen.history:
        history.add_row(str(line.round), escape(line.player or "-"), escape(line.step))
    out().print(steps, history)
