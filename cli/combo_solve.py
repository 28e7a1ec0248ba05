"""`castell combo arrange | advise | tournament`: the Castle Combo solvers, on the `combo` app."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cli import options
from cli.combo import CardsFile, _load, app, sheet_table
from cli.edge import ExitCode, at_edge, emit_json, fail, out
from models.combo import MAX_GOLD, MAX_KEYS, Deck, GameState, Grid, Slot, cell_pos, load_deck
from models.errors import ProvenNo, SpecError
from planner.combo import (
    ArrangeQuestion,
    ArrangeResult,
    Limits,
    Status,
    arrangement_question,
    best_arrangement,
    offsets_for,
    parse_cards,
)

MAX_DETERMINISTIC_TIME = 600.0


def _fixed(text: str | None, slots: list[Slot]) -> dict[str, tuple[int, int]]:
    """`C07@top-left,V12@centre` -> card id -> cell."""
    found: dict[str, tuple[int, int]] = {}
    if not text:
        return found
    if len(text) > 400:
        raise SpecError("--fixed is at most 400 characters")
    ids = {s.card for s in slots}
    for part in text.split(","):
        card_id, sep, cell = part.strip().partition("@")
        card_id = card_id.strip().lstrip("~")
        if not sep:
            raise SpecError(f"--fixed: '{part}' is not CARD@CELL (e.g. C07@top-left)")
        if card_id not in ids:
            raise SpecError(f"--fixed: '{card_id}' is not one of the cards to arrange")
        if card_id in found:
            raise SpecError(f"--fixed: '{card_id}' is fixed twice")
        found[card_id] = cell_pos(cell.strip())
    return found


def _from_state(state: GameState, name: str | None, cards: str, keys: int | None,
                gold: int | None) -> ArrangeQuestion:
    """The best completion of a player's tableau in progress with the given cards."""
    names = [p.name for p in state.now.players]
    if name is None:
        raise SpecError(f"--from needs --player (one of {', '.join(names)})")
    player = next((p for p in state.now.players if p.name == name), None)
    if player is None:
        raise SpecError(f"no player '{name}' in the game (players: {', '.join(names)})")
    deck = state.deck()
    have = [Slot(p.card, p.face_down) for p in player.tableau]
    more = parse_cards(cards, deck) if cards.strip() else []
    if len(have) + len(more) != 9:
        raise SpecError(f"{name} has {len(have)} cards: give {9 - len(have)} more to complete "
                        f"the tableau, got {len(more)}")
    relative = {p.card: (p.row, p.column) for p in player.tableau}
    return arrangement_question(
        deck, [*have, *more], keys=player.keys if keys is None else keys,
        gold=player.gold if gold is None else gold, stored=dict(player.purses),
        pinned=relative, offsets=offsets_for(relative.values()))


def _grid_picture(grid: Grid, deck: Deck) -> Table:
    table = Table(show_header=False, show_lines=True, padding=(0, 1))
    for _ in range(3):
        table.add_column(width=8, justify="center")
    for row in grid.rows:
        cells = []
        for slot in row:
            if slot is None:
                cells.append(Text("·"))
            elif slot.face_down:
                cells.append(Text(f"~{slot.card}", style="dim"))
            else:
                style = "bold blue" if deck.card(slot.card).location == "castle" \
                    else "bold green"
                cells.append(Text(slot.card, style=style))
        table.add_row(*cells)
    return table


def _report(result: ArrangeResult, deck: Deck, as_json: bool) -> None:
    if result.status is Status.INFEASIBLE:
        raise ProvenNo("no arrangement: the fixed cards cannot all stand where they are put")
    if result.grid is None:
        fail("the time limit came before any arrangement was found; raise --time-limit",
             ExitCode.TIME_LIMIT)
    if as_json:
        emit_json(result.as_dict())
    else:
        proof = "proven optimal" if result.status is Status.OPTIMAL \
            else f"best found, not proven (bound {result.bound})"
        out().print(Text(f"{result.total} points, {proof} ({result.wall_time_s:.3f} s)",
                         style="bold"))
        out().print(_grid_picture(result.grid, deck))
        assert result.sheet is not None
        out().print(sheet_table(escape(str(result.grid)), result.sheet))
    if result.status is not Status.OPTIMAL:
        raise typer.Exit(int(ExitCode.TIME_LIMIT))


@app.command("arrange")
@at_edge
def arrange_cmd(
    cards: Annotated[str, typer.Argument(
        metavar="CARDS",
        help="The nine cards, comma-separated, face-down ones marked '~': 'C07,V12,~C20,...' "
             "(with --from: only the cards still to come).")],
    cards_file: CardsFile = None,
    keys: Annotated[int | None, typer.Option(
        "--keys", min=0, max=MAX_KEYS, help="Keys at the end (default 0; with --from, the "
                                            "player's).")] = None,
    gold: Annotated[int | None, typer.Option(
        "--gold", min=0, max=MAX_GOLD, help="Gold left over, put on purses exactly (default "
                                            "0; with --from, the player's).")] = None,
    fixed: Annotated[str | None, typer.Option(
        "--fixed", metavar="CARD@CELL,...",
        help="Cards already placed: C07@top-left,V12@centre (cells: top-left, top, top-right, "
             "left, centre, right, bottom-left, bottom, bottom-right).")] = None,
    from_state: Annotated[str | None, typer.Option(
        "--from", metavar="STATE",
        help="Complete a player's tableau in progress from a game state file.")] = None,
    player: Annotated[str | None, typer.Option(
        "--player", help="Whose tableau (with --from).")] = None,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", min=0.01, max=MAX_DETERMINISTIC_TIME,
        help="CP-SAT deterministic time limit (about seconds); the same limit gives the same "
             "answer.")] = 10.0,
    as_json: options.Json = False,
) -> None:
    """The proven best 3x3 arrangement of nine cards, leftover gold on purses exactly.

    Exit 0 proven optimal, 1 no arrangement fits the fixed cards, 2 bad input, 3 the time
    limit came first (the best arrangement found is still shown).

    Examples:

      castell combo arrange C01,C05,C12,V03,V07,V18,V22,~C30,V31 --keys 2 --gold 6

      castell combo arrange C01,C05,C12,V03,V07,V18,V22,~C30,V31 --fixed C01@centre --json

      castell combo arrange V10,C14 --from game.json --player Ana
    """
    if from_state is not None:
        if fixed or cards_file:
            raise SpecError("--from takes the cards and placed cards from the game; leave out "
                            "--fixed and --cards")
        state = _load(from_state)
        q = _from_state(state, player, cards, keys, gold)
    else:
        if player is not None:
            raise SpecError("--player goes with --from STATE")
        deck = load_deck(cards_file)
        slots = parse_cards(cards, deck)
        q = arrangement_question(deck, slots, keys=keys or 0, gold=gold or 0,
                                 pinned=_fixed(fixed, slots))
    limits = Limits(deterministic_time=time_limit, wall_time=max(10 * time_limit, 10.0))
    _report(best_arrangement(q, limits), q.deck, as_json)
