"""`castell tournament`: Castell bots play seeded whole games, every step through the referee;
per bot the win rate with its 95% interval, scores, margins, points per category and refused
turns, per place in the turn order the same (the first player's advantage), and a picture of
the score distributions.

The games run in chunks on the batch runner (`service.batches`: this process, local
processes or Dask), resumably with an output folder, which keeps every finished chunk,
`games.jsonl` (one record a game), `summary.json` and `scores.svg`. Game i depends on (seed,
i) only (`planner.castell.play_game`), so any engine gives the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from models.errors import SpecError
from models.files import write_atomic
from models.game import Board, load_board
from service.batches.games import GameRecords, is_game_line
from service.results.base import output_of
from service.results.tournament import CastellTournamentOutput

if TYPE_CHECKING:
    from planner.castell import GameRecord, Setup

# bots that plan (seconds a turn: one game a chunk) and the others (a game in about a second)
PLANNING_BOTS = frozenset({"advisor", "cautious", "festival", "score"})
PLANNING_CHUNK, QUICK_CHUNK = 1, 10


@dataclass(frozen=True)
class CastellTournament:
    output: CastellTournamentOutput
    records: tuple[GameRecord, ...]

    def scores_svg(self) -> str:
        """Every game's final score per bot, drawn (`service.pictures.tournament_svg`)."""
        from service.pictures.tournament_svg import score_distributions

        scores: dict[str, list[int]] = {bot: [] for bot in self.output.bots}
        for record in self.records:
            for bot, total in zip(record.bots, record.totals, strict=True):
                scores[bot].append(total)
        rates = {bot: row.win_rate for bot, row in self.output.bots.items()}
        seats = len(self.records[0].bots) if self.records else 0
        title = f"{self.output.games} games of {seats} players: final scores per bot"
        return score_distributions(scores, rates, title)


@dataclass(frozen=True)
class CastellTournamentJob:
    setup: Setup  # the board travels with the job: a remote worker may not have its file
    bots: tuple[str, ...]
    seed: int
    games: int
    chunk_size: int

    @property
    def indices(self) -> int:
        return self.games

    def run_chunk(self, indices: range) -> list[str]:
        from planner.castell import play_game

        return [json.dumps(play_game(self.setup, self.bots, self.seed, i).as_dict())
                for i in indices]

    def valid_line(self, index: int, value: Any) -> bool:
        return is_game_line(index, value, len(self.bots))


def bot_names(bots: str) -> tuple[str, ...]:
    """`advisor,greedy,greedy` as one name a seat, checked (a `SpecError` when wrong)."""
    from planner.castell import check_bots

    names = tuple(b.strip() for b in bots.split(","))
    check_bots(names)
    return names


def _setup(board_file: str | Path | None, rules_text: str | None,
           wheel_side: Literal["standard", "advanced"] | None) -> Setup:
    from models.tower import rules_named
    from planner.castell import Setup

    board: Board = load_board(board_file)
    rules = rules_named(rules_text) if rules_text is not None else None
    return Setup(board, rules, wheel_side)


def castell_tournament(bots: str, games: int, seed: int, out: str | Path | None = None, *,
                       workers: int = 1, dask: str | None = None,
                       board_file: str | Path | None = None, rules: str | None = None,
                       wheel_side: Literal["standard", "advanced"] | None = None,
                       on_progress: Callable[[int], None] | None = None,
                       chunk_size: int | None = None) -> CastellTournament:
    """The tournament (`bots` comma-separated, one per seat, 2-4), in chunks on this process,
    `workers` processes or Dask; with `out`, in that folder, continuing any run of the same
    arguments there. `rules`: the games' readings (None: the board's defaults)."""
    from planner.castell import summarise
    from service.batches import Folder, open_engine, run

    names = bot_names(bots)
    if not 1 <= games <= 1_000_000:
        raise SpecError("the number of games is 1 to 1000000")
    setup = _setup(board_file, rules, wheel_side)
    if chunk_size is None:
        chunk_size = PLANNING_CHUNK if PLANNING_BOTS & set(names) else QUICK_CHUNK
    job = CastellTournamentJob(setup, names, seed, games, chunk_size)
    folder = None
    if out is not None:
        arguments = {"bots": ",".join(names), "games": games, "seed": seed,
                     "board": None if board_file is None else str(board_file),
                     "rules": rules, "wheel side": wheel_side, "chunk": chunk_size}
        folder = Folder(out, "tournament", arguments)
        folder.open()
    from planner.castell import GameRecord

    reducer = GameRecords(games, GameRecord.of)
    with open_engine(workers, dask) as engine:
        run(job, reducer, engine, folder, on_progress)
    summary = summarise(reducer.records)
    result = CastellTournament(output_of(CastellTournamentOutput, summary.as_dict()),
                               tuple(reducer.records))
    if folder is not None:
        folder.write("games.jsonl", "".join(line + "\n" for line in reducer.lines))
        folder.write("summary.json", result.output.to_json() + "\n")
        folder.write("scores.svg", result.scores_svg())
    return result


def write_scores_svg(path: str | Path, result: CastellTournament) -> None:
    """The score picture, written atomically."""
    write_atomic(path, result.scores_svg())
