"""`combo tournament`: bots play seeded games; win rates with 95% intervals, scores, and
per-card statistics (as JSON, a table, or a CSV file of the cards). With an output folder
(`tournament_batch`) the games run in chunks on any engine (`service.batches`), resumably:
the folder keeps every finished chunk, `games.jsonl`, `summary.json` and `cards.csv`."""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from models.combo import Deck, load_deck
from models.errors import SpecError
from models.files import write_atomic
from service.batches.tournament import (
    Found,
    TournamentJob,
    play_tournament,
    tournament_chunk,
    tournament_folder,
    write_results,
)
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
    Deterministic for a seed, whatever the number of workers: `tournament_batch`'s games
    without a folder, in the chunks both games' tournaments choose (`tournament_chunk`; in
    this process the progress is game by game all the same)."""
    from planner.tournaments import MAX_GAMES, MAX_WORKERS

    if not 1 <= games <= MAX_GAMES:
        raise SpecError(f"the number of games is 1..{MAX_GAMES}", field="games")
    if not 1 <= workers <= MAX_WORKERS:
        raise SpecError(f"the number of workers is 1..{MAX_WORKERS}", field="workers")
    told = 0

    def progress(done: int) -> None:
        nonlocal told
        for _ in range(done - told):
            if on_game is not None:
                on_game()
        told = done

    return tournament_batch(bots, games, seed, None, workers=workers,
                            advisor_samples=advisor_samples, cards_file=cards_file,
                            on_progress=progress)


def card_csv(result: Tournament) -> str:
    """The per-card statistics as CSV, one row per card of the deck."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["card", "location", "cost", "bought", "bought_per_game",
                     "mean_points", "owners_win_rate"])
    for card in result.deck.cards:
        row = result.output.cards[card.id]
        writer.writerow([card.id, card.location, card.cost, row.bought,
                         row.bought_per_game, row.mean_points, row.owners_win_rate])
    return text.getvalue()


def write_card_csv(path: str | Path, result: Tournament) -> None:
    """The per-card statistics, written atomically."""
    write_atomic(path, card_csv(result))


# -- in chunks, resumable --------------------------------------------------------------------

ADVISOR_CHUNK = 1  # an advisor game is 5-10 s of work: one a chunk
QUICK_CHUNK = 40  # greedy and random games take 20-50 ms


def combo_job(deck: Deck, bots: tuple[str, ...], seed: int, games: int,
              advisor_samples: int = ADVISOR_SAMPLES, chunk_size: int = QUICK_CHUNK
              ) -> TournamentJob:
    """The batch job of a Castle Combo tournament (`service.batches.tournament`)."""
    from planner.combo import COMBO, ComboSetup

    return TournamentJob(COMBO, ComboSetup(deck, advisor_samples), bots, seed, games,
                         chunk_size)


def _arguments(job: TournamentJob, cards_file: str | None) -> dict[str, Any]:
    deck = hashlib.sha256(repr(job.setup.deck.cards).encode()).hexdigest()[:16]
    return {"--bots": ",".join(job.bots), "--games": job.games, "--seed": job.seed,
            "--advisor-samples": job.setup.advisor_samples, "--cards": cards_file,
            "the deck's cards (digest)": deck, "chunk": job.chunk_size}


def tournament_batch(bots: str, games: int, seed: int, out: str | Path | None, *,
                     workers: int = 1, dask: str | None = None,
                     advisor_samples: int = ADVISOR_SAMPLES, cards_file: str | None = None,
                     on_progress: Callable[[int], None] | None = None,
                     chunk_size: int | None = None,
                     on_found: Callable[[Found], None] | None = None) -> Tournament:
    """The tournament of `tournament`, run in chunks on `--workers`/`--dask`; with `out`, in
    that folder, continuing any run of the same arguments there (`on_found`: told how many
    games it held). The summary is the same as `tournament`'s, whatever the engine.
    `chunk_size`: games a chunk (by default the folder's run's, or chosen from the games and
    the workers: one advisor game, at most 40 quick ones, 0.5-10 s of work)."""
    from planner.combo import GameRecord

    deck = load_deck(cards_file)
    names = tuple(b.strip() for b in bots.split(","))
    GameRecord.check_bots(names)
    most = ADVISOR_CHUNK if "advisor" in names else QUICK_CHUNK
    chunk_size = tournament_chunk(games, out, workers, dask, most, chunk_size,
                                  rotation=len(names))
    job = combo_job(deck, names, seed, games, advisor_samples, chunk_size)
    with tournament_folder(out, "combo tournament", _arguments(job, cards_file)) as folder:
        played = play_tournament(job, folder, workers, dask, on_progress, on_found)
        result = Tournament(output_of(ComboTournamentOutput, played.summary), deck)
        write_results(played, result.output.to_json(), {"cards.csv": card_csv(result)})
    return result
