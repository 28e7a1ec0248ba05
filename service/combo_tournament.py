"""`combo tournament`: bots play seeded games; win rates with 95% intervals, scores, and
per-card statistics (as JSON, a table, or a CSV file of the cards)."""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from models.combo import Deck, load_deck
from models.files import atomic_open
from service.results.base import output_of
from service.results.combo import ComboTournamentOutput

# planner.combo.BOT_SAMPLES, kept here so that reading the command's options loads no solver
# (a test holds them equal)
ADVISOR_SAMPLES = 10


@dataclass(frozen=True)
class Tournament:
    output: ComboTournamentOutput
    deck: Deck


def tournament(bots: str, games: int, seed: int, *, workers: int = 1,
               advisor_samples: int = ADVISOR_SAMPLES, cards_file: str | None = None,
               on_game: Callable[[], None] | None = None) -> Tournament:
    """`bots` comma-separated, one per seat; `on_game` is called after each game (progress).
    Deterministic for a seed, whatever the number of workers."""
    from planner.combo import run_tournament

    deck = load_deck(cards_file)
    names = [b.strip() for b in bots.split(",")]
    summary = run_tournament(deck, names, games, seed, workers, advisor_samples,
                             on_game=None if on_game is None else lambda _: on_game())
    return Tournament(output_of(ComboTournamentOutput, summary.as_dict()), deck)


def write_card_csv(path: str | Path, result: Tournament) -> None:
    """The per-card statistics, one row per card of the deck, written atomically."""
    with atomic_open(path) as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["card", "location", "cost", "bought", "bought_per_game",
                         "mean_points", "owners_win_rate"])
        for card in result.deck.cards:
            row = result.output.cards[card.id]
            writer.writerow([card.id, card.location, card.cost, row.bought,
                             row.bought_per_game, row.mean_points, row.owners_win_rate])
