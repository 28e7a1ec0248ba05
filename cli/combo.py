"""`castell combo`: Castle Combo's cards, exact end scores, and a game to play or record."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import BaseModel, ConfigDict, Field
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cli import options
from cli.edge import at_edge, emit_output, out
from cli.inputs import emit_batch
from models.combo import (
    CELLS,
    LOCATIONS,
    MAX_GOLD,
    MAX_KEYS,
    PUBLISHED,
    READINGS,
    Card,
    ComboRules,
    Deck,
    GameState,
    Grid,
    Location,
    ScoreSheet,
    cell_pos,
    deck_stats,
    describe,
    discount,
    effect_file,
    final_scores,
    group_words,
    load_deck,
    load_state,
    new_game,
    pending_reveals,
    recorded_game,
    replay_problem,
    score_tableau,
)
from models.combo import (
    play as play_actions,
)
from models.errors import SpecError
from models.files import not_an_input, parse_toml, read_text, validate, write_atomic

app = typer.Typer(help="Castle Combo: cards, exact end scores, a game to play or record, and "
                       "solvers (best arrangement, turn advice, bot tournaments).",
                  no_args_is_help=True)

CardsFile = Annotated[str | None, typer.Option(
    "--cards", "-c", metavar="FILE", help="A card file (TOML); default: the invented sample deck.")]
StateArg = Annotated[str, typer.Argument(metavar="STATE", help="A Castle Combo game state file.")]
_STYLE = {"castle": "bold blue", "village": "bold green"}


# --- cards ---------------------------------------------------------------------------------------

def _abilities(card: Card) -> str:
    parts = []
    for effect in card.ability:
        flat = effect_file(effect)
        parts.append(", ".join(f"{k}={v}" for k, v in flat.items()))
    return "; ".join(parts) or "-"


def _flat(prefix: str, value: Any) -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        return [row for key, inner in value.items() for row in _flat(f"{prefix}.{key}", inner)]
    return [(prefix, value)]


def _stats_rows(stats: dict[str, Any]) -> list[tuple[str, str, str]]:
    """One row per number: 'costs.castle.4', this deck, the real game."""
    mine = dict(_flat("", stats))
    return [(name.lstrip("."), str(mine.get(name, "-")), str(real))
            for name, real in _flat("", PUBLISHED)]


@app.command("cards")
@at_edge
def cards(
    cards_file: CardsFile = None,
    stats: Annotated[bool, typer.Option(
        "--stats", help="Compare the deck's shield, cost, Messenger and purse statistics with "
                        "the real game's.")] = False,
    as_json: options.Json = False,
) -> None:
    """List a deck's cards, or (--stats) compare its statistics with the real game's.

    Examples:

      castell combo cards

      castell combo cards --cards my_copy.toml --stats --json
    """
    deck = load_deck(cards_file)
    if stats:
        got = deck_stats(deck)
        matches = {key: got[key] == PUBLISHED[key] for key in PUBLISHED}
        if as_json:
            from service.results.base import output_of
            from service.results.combo import ComboStatsOutput  # deferred: only for --json

            emit_output(output_of(ComboStatsOutput, {
                "source": deck.source, "deck": got, "published": PUBLISHED,
                "matches": matches, "all_match": all(matches.values())}))
            return
        table = Table(title=escape(f"{deck.source}: statistics against the real game"))
        for column in ("statistic", "this deck", "real game", ""):
            table.add_column(column)
        for name, mine, real in _stats_rows(got):
            table.add_row(name, mine, real, "[green]ok[/]" if mine == real else "[red]differs[/]")
        out().print(table)
        return
    if as_json:
        from service.results.base import output_of
        from service.results.combo import ComboCardsOutput  # deferred: only for --json

        emit_output(output_of(ComboCardsOutput, {
            "source": deck.source, "warnings": list(deck.warnings), "cards": list(deck.cards)}))
        return
    table = Table(title=escape(f"{deck.source}: {len(deck.cards)} cards"))
    for column in ("id", "name", "location", "cost", "shields", "msg", "discount", "scroll",
                   "ability"):
        table.add_column(column)
    for card in deck.cards:
        table.add_row(Text(card.id, style=_STYLE[card.location]), Text(card.name),
                      card.location, str(card.cost), ", ".join(card.shields) or "-",
                      "yes" if card.has_messenger else "", ", ".join(card.discount) or "",
                      Text(describe(card.score)), Text(_abilities(card)))
    out().print(table)
    for warning in deck.warnings:
        out().print(Text(f"warning: {warning}", style="yellow"))


# --- score ----------------------------------------------------------------------------------------

def _stored(text: str | None, grid: Grid) -> dict[str, int]:
    """`CELL=N,...` (a cell name such as top-left, or a card id) -> card id -> gold."""
    found: dict[str, int] = {}
    if not text:
        return found
    if len(text) > 400:
        raise SpecError("--stored is at most 400 characters")
    for part in text.split(","):
        where, sep, amount = part.strip().partition("=")
        if not sep:
            raise SpecError(f"--stored: '{part}' is not CELL=N (e.g. top-left=3)")
        if not amount.strip().isdigit() or len(amount.strip()) > 5:
            raise SpecError(f"--stored: the gold '{amount.strip()}' in '{part}' is not a whole "
                            "number from 0 to 99999")
        where = where.strip()
        if where in CELLS:
            slot = grid.at(cell_pos(where))
            if slot is None:
                raise SpecError(f"--stored: the {where} cell is empty")
            card = slot.card
        else:
            card = where
        if card in found:
            raise SpecError(f"--stored: '{where}' is given twice")
        found[card] = int(amount)
    return found


def sheet_table(title: str, sheet: ScoreSheet) -> Table:
    table = Table(title=title)
    for column in ("cell", "card", "scroll", "counted", "points"):
        # a scroll naming its cells is one long word: folded, never cut with an ellipsis
        table.add_column(column, justify="right" if column in ("counted", "points") else "left",
                         overflow="fold" if column == "scroll" else "ellipsis")
    for c in sheet.cards:
        table.add_row(c.cell, Text(("~" if c.face_down else "") + c.card), Text(c.scroll),
                      "-" if c.face_down else str(c.counted), str(c.points))
    table.add_row("", "keys", "1 per key", str(sheet.keys), str(sheet.keys))
    purses = ", ".join(f"{k} {v}" + (f" (+{sheet.added[k]})" if sheet.added.get(k) else "")
                       for k, v in sheet.purses.items()) or "none"
    table.add_row("", "purses", Text(f"gold on purses: {purses}"), "", "")
    table.add_row("", "gold left", "scores nothing (tie-break)", str(sheet.gold_left), "0")
    table.add_row("", "[bold]total[/]", "", "", f"[bold]{sheet.total}[/]")
    return table


class ScoreLine(BaseModel):
    """One line of `castell combo score --batch`."""

    model_config = ConfigDict(extra="forbid")

    tableau: str
    keys: Annotated[int, Field(ge=0, le=MAX_KEYS)] = 0
    gold: Annotated[int, Field(ge=0, le=MAX_GOLD)] = 0
    stored: str | None = None


def _score_one(deck: Deck, tableau: str, keys: int, gold: int,
               stored: str | None) -> ScoreSheet:
    grid = Grid.parse(tableau)
    return score_tableau(grid, deck, keys, gold, _stored(stored, grid))


@app.command("score")
@at_edge
def score(
    tableau: Annotated[str | None, typer.Argument(
        metavar="TABLEAU",
        help="Rows top to bottom split by '/': 'C07,V12,-/V03,~C20,-/-,-,-'.")] = None,
    cards_file: CardsFile = None,
    keys: Annotated[int, typer.Option("--keys", min=0, max=MAX_KEYS,
                                      help="Keys at the end.")] = 0,
    gold: Annotated[int, typer.Option("--gold", min=0, max=MAX_GOLD,
                                      help="Gold left over (put on purses here).")] = 0,
    stored: Annotated[str | None, typer.Option(
        "--stored", metavar="CELL=N,...",
        help="Gold already on purse cards, by cell (top-left=3) or card id (V07=3).")] = None,
    batch: options.Batch = None,
    as_json: options.Json = False,
) -> None:
    """The exact end score of a tableau: every scroll, keys, leftover gold put on purses.

    With --batch, each line is {"tableau": ..., "keys": n, "gold": n, "stored": "CELL=N,..."}
    and each answer the --json object (or {"line": n, "error": ...}); exit 2 if any line was bad.

    Examples:

      castell combo score "C07,V12,C01/V03,~C20,V05/C11,V14,V22" --keys 3 --gold 7

      castell combo score "C07,V12,C01/V03,~C20,V05/C11,V14,V22" --stored C11=2 --json

      echo '{"tableau": "C01,C02,-/-,-,-/-,-,-", "gold": 4}' | castell combo score --batch -
    """
    deck = load_deck(cards_file)
    if batch is not None:
        if tableau is not None:
            raise SpecError("give either a TABLEAU or --batch, not both")
        emit_batch(batch, ScoreLine, lambda line: _score_one(
            deck, line.tableau, line.keys, line.gold, line.stored).as_dict())
    if tableau is None:
        raise SpecError("missing TABLEAU (or --batch FILE); see 'castell combo score --help'")
    sheet = _score_one(deck, tableau, keys, gold, stored)
    if as_json:
        from service.results.base import output_of
        from service.results.combo import ComboScoreOutput  # deferred: only for --json

        emit_output(output_of(ComboScoreOutput, sheet.as_dict()))
        return
    out().print(sheet_table(str(Grid.parse(tableau)), sheet))


# --- a game ---------------------------------------------------------------------------------------

def _rules(readings: list[str] | None) -> ComboRules:
    values: dict[str, Any] = {}
    for item in readings or []:
        name, sep, value = item.partition("=")
        if not sep or name.strip() not in READINGS:
            raise SpecError(f"--reading '{item}': write NAME=VALUE, NAME one of "
                            f"{', '.join(READINGS)}")
        values[name.strip()] = value.strip()
    return validate(ComboRules, values, "--reading")


def _deal(path: str, deck: Deck) -> tuple[list[str], list[str]]:
    data = parse_toml(read_text(Path(path)), path)
    unknown = sorted(set(data) - {"castle", "village"})
    if unknown:
        raise SpecError(f"{path}: unknown key '{unknown[0]}' (castle, village)")
    rows = []
    for location in LOCATIONS:
        row = data.get(location)
        if not isinstance(row, list) or not all(isinstance(c, str) for c in row):
            raise SpecError(f"{path}: '{location}' is a list of 3 card ids")
        rows.append(row)
    return rows[0], rows[1]


def _save(state: GameState, path: str) -> None:
    if path == "-":
        typer.echo(state.to_json(), nl=False)
    else:
        write_atomic(path, state.to_json())


@app.command("new")
@at_edge
def new(
    players: Annotated[str, typer.Option(
        "--players", "-p", help="2-5 comma-separated names, in seating (clockwise) order.")],
    seed: Annotated[int, typer.Option("--seed", min=0, help="Same seed, same game.")] = 0,
    cards_file: CardsFile = None,
    deal: Annotated[str | None, typer.Option(
        "--deal", metavar="FILE",
        help="Record a real game: a TOML file with the dealt rows (castle = [...], "
             "village = [...]); needs --first.")] = None,
    first: Annotated[str | None, typer.Option(
        "--first", help="Who starts (default: drawn by the seed).")] = None,
    reading: Annotated[list[str] | None, typer.Option(
        "--reading", metavar="NAME=VALUE",
        help=f"Choose a reading: {'; '.join(f'{k}: {v}' for k, v in READINGS.items())}.")]
        = None,
    output: Annotated[str, typer.Option(
        "--out", "-o", metavar="FILE", help="Write the state here ('-' = stdout).")] = "-",
) -> None:
    """Start a game: shuffle (seeded) and deal, or record a real deal with --deal.

    Examples:

      castell combo new --players Ana,Ben --seed 5 --out game.json

      castell combo new --players Ana,Ben,Cem --deal rows.toml --first Ben --out real.json
    """
    not_an_input(output, deal, cards_file)
    deck = load_deck(cards_file)
    names = players.split(",")
    rules = _rules(reading)
    if deal is not None:
        if first is None:
            raise SpecError("--deal records a real game: say who starts with --first")
        castle, village = _deal(deal, deck)
        state = recorded_game(deck, names, castle, village, first.strip(), rules)
    else:
        state = new_game(deck, names, seed, rules, first.strip() if first else None)
    _save(state, output)
    if output != "-":
        typer.echo(f"wrote {output}: {', '.join(p.name for p in state.now.players)}; "
                   f"{state.now.player.name} starts", err=True)


def grid_picture(grid: Grid, deck: Deck, purses: Mapping[str, int] | None = None) -> Table:
    """A tableau as a 3x3 table of cards (id, cost, shields; purse gold when `purses` is
    given: the gold stored in a game, or none for an arrangement)."""
    table = Table(show_header=False, show_lines=True, padding=(0, 1))
    for _ in range(3):
        table.add_column(width=8, justify="center")
    for row in grid.rows:
        cells = []
        for slot in row:
            if slot is None:
                cells.append(Text("·", style="dim"))
            elif slot.face_down:
                cells.append(Text(f"~{slot.card}", style="dim"))
            else:
                card = deck.card(slot.card)
                extra = ""
                if purses is not None and card.capacity:
                    extra = f"\n{purses.get(card.id, 0)}/{card.capacity}g"
                cells.append(Text(f"{card.id}\n{card.cost}g {len(card.shields)}s{extra}",
                                  style=_STYLE[card.location]))
        table.add_row(*cells)
    return table


def _row_text(state: GameState, location: Location) -> Text:
    deck = state.deck()
    table = state.now
    marker = "► " if table.messenger == location else "  "
    text = Text(f"{marker}{location:<8}", style="bold" if marker.strip() else "")
    if location in table.dead:
        text.append("(out of the game) ", style="red")
    for card_id in table.rows[location]:
        if card_id is None:
            text.append("[ ? ] ", style="dim")
            continue
        card = deck.card(card_id)
        price = max(0, card.cost - discount(table.player, deck, card.location))
        text.append(f"{card.id}", style=_STYLE[card.location])
        text.append(f" ({price}g{', ➜' if card.has_messenger else ''}) ")
    text.append(f" deck {len(table.decks[location])}, discard {len(table.discard[location])}",
                style="dim")
    return text


def emit_state(state: GameState) -> None:
    from service.results.base import output_of
    from service.results.combo import ComboStateOutput  # deferred: only for --json

    emit_output(output_of(ComboStateOutput, state_json(state)))


def state_json(state: GameState) -> dict[str, Any]:
    table = state.now
    deck = state.deck()
    data: dict[str, Any] = {
        "game_over": table.game_over,
        "to_play": None if table.game_over else table.player.name,
        "key_used": table.key_used,
        "messenger": table.messenger,
        "rows": {loc: list(table.rows[loc]) for loc in LOCATIONS},
        "dead_rows": list(table.dead),
        "pending_reveals": pending_reveals(table),
        "players": [{"name": p.name, "gold": p.gold, "keys": p.keys,
                     "tableau": str(p.grid()), "cards": len(p.tableau),
                     "purses": dict(p.purses),
                     "discounts": {loc: discount(p, deck, loc) for loc in LOCATIONS}}
                    for p in table.players],
        "history": [e.model_dump() for e in state.history],
    }
    if table.game_over:
        scores, winners = final_scores(state)
        data["scores"] = [{"player": s.player, **s.sheet.as_dict()} for s in scores]
        data["winners"] = winners
    return data


def _print_state(state: GameState) -> None:
    table = state.now
    deck = state.deck()
    if table.game_over:
        status = "game over"
    else:
        status = f"{table.player.name} to play" + (" (key used)" if table.key_used else "")
    out().print(Text(status, style="bold"))
    out().print(_row_text(state, "castle"))
    out().print(_row_text(state, "village"))
    waiting = pending_reveals(table)
    if waiting:
        out().print(Text("waiting for: reveal " + ", ".join(f"{n} {loc}"
                                                              for loc, n in waiting.items()),
                         style="yellow"))
    boards = Table(show_header=True, box=None)
    for player in table.players:
        head = Text(f"{player.name}: {player.gold} gold, {player.keys} keys", style="bold")
        disc = [f"-{discount(player, deck, loc)} {loc}" for loc in LOCATIONS
                if discount(player, deck, loc)]
        if disc:
            head.append(f" ({', '.join(disc)})")
        boards.add_column(head)
    boards.add_row(*(grid_picture(p.grid(), state.deck(), p.purses) for p in table.players))
    out().print(boards)
    if table.game_over:
        scores, winners = final_scores(state)
        for s in scores:
            out().print(sheet_table(escape(f"{s.player}: {s.sheet.total} points"), s.sheet))
        label = "winner" if len(winners) == 1 else "tied winners (they share the win)"
        out().print(Text(f"{label}: {', '.join(winners)}", style="bold green"))


def _load(path: str) -> GameState:
    state = load_state(path)
    problem = replay_problem(state)
    if problem:
        raise SpecError(f"{path}: {problem}")
    return state


@app.command("show")
@at_edge
def show(
    state_file: StateArg,
    svg: Annotated[str | None, typer.Option(
        "--svg", metavar="FILE", help="Also draw the tableaux as an SVG picture.")] = None,
    as_json: options.Json = False,
) -> None:
    """Show a game: rows, Messenger, each tableau as a 3x3 grid; at the end, the scores.

    After the last turn it shows each player's score breakdown and the winner.

    Example:

      castell combo show game.json --svg tableaux.svg
    """
    not_an_input(svg, state_file, option="--svg")
    state = _load(state_file)
    if svg is not None:
        from cli.combo_svg import tableaux  # deferred: keeps start-up light

        deck = state.deck()
        items = [(p.name, p.grid(), score_tableau(p.grid(), deck, p.keys, p.gold, p.purses))
                 for p in state.now.players]
        write_atomic(svg, tableaux(items, deck).as_svg())
    if as_json:
        emit_state(state)
        return
    _print_state(state)
    if svg is not None:
        out().print(Text(f"tableaux drawn to {svg}"))


@app.command("play")
@at_edge
def play(
    state_file: StateArg,
    actions: Annotated[list[str], typer.Argument(
        metavar="ACTION...",
        help="'key move', 'key renew', 'buy V12 at 0,1' (adding 'choose 2', 'discard C07' or "
             "'neighbour Ben' when the card's ability asks), 'flip C03 at 1,1', "
             "'reveal V12 C03', 'undo'.")],
    as_json: options.Json = False,
) -> None:
    """Play actions in order and save the game; an illegal action changes nothing.

    Positions `at ROW,COLUMN` are relative to your first card (rows down, columns right).

    Examples:

      castell combo play game.json "key move" "buy V12 at 0,1 choose 2"

      castell combo play game.json "flip C03 at 1,1"

      castell combo play real.json reveal V12 C03

      castell combo play game.json undo
    """
    if len(actions) > 100:
        raise SpecError("at most 100 actions at a time")
    state = _load(state_file)
    state = play_actions(state, group_words(actions))
    write_atomic(state_file, state.to_json())
    if as_json:
        emit_state(state)
        return
    _print_state(state)

