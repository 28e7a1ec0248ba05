"""How the Castle Combo commands show their answers to a person: rich tables of cards, score
sheets, tableaux as 3x3 grids, and a game as it stands."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cli.edge import out
from models.combo import (
    Deck,
    Grid,
    ScoreSheet,
    ability_text,
    describe,
)
from service.results.combo import (
    ComboAdviceOutput,
    ComboCardsOutput,
    ComboStateOutput,
    ComboStatsOutput,
    ComboTableau,
    ComboTournamentOutput,
)

STYLE = {"castle": "bold blue", "village": "bold green"}


def print_cards(listing: ComboCardsOutput) -> None:
    table = Table(title=escape(f"{listing.source}: {len(listing.cards)} cards"))
    for column in ("id", "name", "location", "cost", "shields", "msg", "discount", "scroll",
                   "ability"):
        table.add_column(column)
    for card in listing.cards:
        table.add_row(Text(card.id, style=STYLE[card.location]), Text(card.name),
                      card.location, str(card.cost), ", ".join(card.shields) or "-",
                      "yes" if card.has_messenger else "", ", ".join(card.discount) or "",
                      Text(describe(card.score)), Text(ability_text(card) or "-"))
    out().print(table)
    for warning in listing.warnings:
        out().print(Text(f"warning: {warning}", style="yellow"))


def _flat(prefix: str, value: Any) -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        return [row for key, inner in value.items() for row in _flat(f"{prefix}.{key}", inner)]
    return [(prefix, value)]


def print_stats(stats: ComboStatsOutput) -> None:
    """One row per number ('costs.castle.4'): this deck, the real game."""
    table = Table(title=escape(f"{stats.source}: statistics against the real game"))
    for column in ("statistic", "this deck", "real game", ""):
        table.add_column(column)
    mine = dict(_flat("", stats.deck.model_dump()))
    for name, real in _flat("", stats.published.model_dump()):
        value = str(mine.get(name, "-"))
        table.add_row(name.lstrip("."), value, str(real),
                      "[green]ok[/]" if value == str(real) else "[red]differs[/]")
    out().print(table)


def sheet_table(title: str, sheet: ScoreSheet) -> Table:
    """A score sheet: each card's line, keys, purses, gold left, the total."""
    return _sheet(title, [(c.cell, c.card, c.face_down, c.scroll, c.counted, c.points)
                          for c in sheet.cards],
                  sheet.keys, sheet.purses, sheet.added, sheet.gold_left, sheet.total)


def _sheet(title: str, cards: list[tuple[str, str, bool, str, int, int]], keys: int,
           purses: Mapping[str, int], added: Mapping[str, int], gold_left: int,
           total: int) -> Table:
    table = Table(title=title)
    for column in ("cell", "card", "scroll", "counted", "points"):
        # a scroll naming its cells is one long word: folded, never cut with an ellipsis
        table.add_column(column, justify="right" if column in ("counted", "points") else "left",
                         overflow="fold" if column == "scroll" else "ellipsis")
    for cell, card, face_down, scroll, counted, points in cards:
        table.add_row(cell, Text(("~" if face_down else "") + card), Text(scroll),
                      "-" if face_down else str(counted), str(points))
    table.add_row("", "keys", "1 per key", str(keys), str(keys))
    on = ", ".join(f"{k} {v}" + (f" (+{added[k]})" if added.get(k) else "")
                   for k, v in purses.items()) or "none"
    table.add_row("", "purses", Text(f"gold on purses: {on}"), "", "")
    table.add_row("", "gold left", "scores nothing (tie-break)", str(gold_left), "0")
    table.add_row("", "[bold]total[/]", "", "", f"[bold]{total}[/]")
    return table


def grid_picture(grid: Grid, deck: Deck, purses: Mapping[str, int] | None = None) -> Table:
    """A tableau as a 3x3 table of cards (id, cost, shields; purse gold when `purses` is
    given: the gold stored in a game, or none for an arrangement)."""
    cells = [[None if slot is None else (slot.card, slot.face_down) for slot in row]
             for row in grid.rows]
    return _grid_table(cells, deck.card, purses)


def _grid_table(rows: list[list[tuple[str, bool] | None]], card_of: Callable[[str], Any],
                purses: Mapping[str, int] | None) -> Table:
    """3x3 cells of (card id, face down) as a table; `card_of` gives a face-up card's id,
    cost, shields, location and capacity (a deck's card or the view's)."""
    table = Table(show_header=False, show_lines=True, padding=(0, 1))
    for _ in range(3):
        table.add_column(width=8, justify="center")
    for row in rows:
        cells = []
        for cell in row:
            if cell is None:
                cells.append(Text("·", style="dim"))
            elif cell[1]:
                cells.append(Text(f"~{cell[0]}", style="dim"))
            else:
                card = card_of(cell[0])
                extra = ""
                if purses is not None and card.capacity:
                    extra = f"\n{purses.get(card.id, 0)}/{card.capacity}g"
                cells.append(Text(f"{card.id}\n{card.cost}g {len(card.shields)}s{extra}",
                                  style=STYLE[card.location]))
        table.add_row(*cells)
    return table


def _row_text(view: ComboStateOutput, location: str) -> Text:
    marker = "► " if view.messenger == location else "  "
    text = Text(f"{marker}{location:<8}", style="bold" if marker.strip() else "")
    if location in view.dead_rows:
        text.append("(out of the game) ", style="red")
    for card_id in view.rows[location]:
        if card_id is None:
            text.append("[ ? ] ", style="dim")
            continue
        card = view.cards[card_id]
        text.append(f"{card.id}", style=STYLE[card.location])
        price = "" if card.price is None else f"{card.price}g"
        text.append(f" ({price}{', ➜' if card.messenger else ''}) ")
    text.append(f" deck {view.decks[location]}, discard {view.discards[location]}",
                style="dim")
    return text


def _tableau_picture(view: ComboStateOutput, tableau: ComboTableau, purses: Mapping[str, int]
                     ) -> Table:
    """A player's tableau from the view (`grid_picture`'s table)."""
    cells = [[None if c is None else (c.card, c.face_down) for c in row]
             for row in tableau.cells]
    return _grid_table(cells, view.cards.__getitem__, purses)


def print_state(view: ComboStateOutput) -> None:
    """Rows, Messenger, each tableau as a 3x3 grid; at the end, the scores and the winner:
    the game's view (`combo show --json`), drawn."""
    if view.game_over:
        status = "game over"
    else:
        status = f"{view.to_play} to play" + (" (key used)" if view.key_used else "")
    out().print(Text(status, style="bold"))
    for location in view.rows:
        out().print(_row_text(view, location))
    if view.pending_reveals:
        out().print(Text("waiting for: reveal " + ", ".join(
            f"{n} {loc}" for loc, n in view.pending_reveals.items()), style="yellow"))
    boards = Table(show_header=True, box=None)
    players = {p.name: p for p in view.players}
    for tableau in view.tableaux:
        player = players[tableau.player]
        head = Text(f"{player.name}: {player.gold} gold, {player.keys} keys", style="bold")
        disc = [f"-{d} {loc}" for loc, d in player.discounts.items() if d]
        if disc:
            head.append(f" ({', '.join(disc)})")
        boards.add_column(head)
    boards.add_row(*(_tableau_picture(view, t, players[t.player].purses)
                     for t in view.tableaux))
    out().print(boards)
    for s in view.scores or []:
        out().print(_sheet(escape(f"{s.player}: {s.total} points"),
                           [(c.cell, c.id, c.face_down, c.scroll, c.counted, c.points)
                            for c in s.cards],
                           s.keys, s.purses, s.purse_added, s.gold_left, s.total))
    if view.winners:
        label = "winner" if len(view.winners) == 1 else "tied winners (they share the win)"
        out().print(Text(f"{label}: {', '.join(view.winners)}", style="bold green"))


def print_advice(advice: ComboAdviceOutput, samples: int, top: int) -> None:
    """The ranking as a table: the best `top` actions."""
    what = "score" if advice.value == "score" else "margin over the best opponent"
    how = "exact (last turn)" if advice.last_turn else \
        f"mean final {what} over up to {samples} sampled completions ± standard error"
    table = Table(title=escape(f"{advice.player}: {len(advice.ranking)} legal actions, {how}"))
    for column in ("#", "action", "value", "±", "samples", "why"):
        table.add_column(column, justify="right" if column in ("#", "value", "±",
                                                               "samples") else "left")
    for rank, item in enumerate(advice.ranking[:top], 1):
        shown = f"{item.value:.2f}" if item.samples and item.value is not None else "-"
        spread = "exact" if item.exact else f"{item.stderr:.2f}" if item.samples else "-"
        table.add_row(str(rank), Text(item.action), shown, spread, str(item.samples),
                      Text(item.reason or ""))
    out().print(table)


def print_summary(summary: ComboTournamentOutput, top: int) -> None:
    """Each bot's results, then the cards by their owners' win rate (the best and worst
    `top`)."""
    bots = Table(title=f"{summary.games} games")
    for column in ("bot", "games", "win rate", "95% interval", "mean score", "sd", "min-max"):
        bots.add_column(column, justify="left" if column == "bot" else "right")
    for bot, seat in summary.bots.items():
        low, high = seat.ci95
        bots.add_row(bot, str(seat.games), f"{seat.win_rate:.1%}", f"{low:.1%}-{high:.1%}",
                     f"{seat.mean_score:.1f}", f"{seat.sd_score:.1f}",
                     f"{seat.min_score}-{seat.max_score}")
    out().print(bots)
    bought = [(k, v) for k, v in summary.cards.items() if v.bought]
    bought.sort(key=lambda kv: (-(kv[1].owners_win_rate or 0.0), kv[0]))
    cards = Table(title=f"cards by their owners' win rate (top and bottom {top}; all in --csv)")
    for column in ("card", "bought/game", "mean points", "owners' win rate"):
        cards.add_column(column, justify="left" if column == "card" else "right")
    shown = bought if len(bought) <= 2 * top else [*bought[:top], *bought[-top:]]
    for card_id, row in shown:
        cards.add_row(card_id, f"{row.bought_per_game:.3f}", f"{row.mean_points or 0.0:.2f}",
                      f"{row.owners_win_rate or 0.0:.1%}")
    out().print(cards)
