"""A tournament of either game as a batch (`service.batches`): the job that plays chunks of
games (`planner.tournaments.play_game`, with the game's part of a tournament), the records
folded in index order, the summary, and the folder's files; written once for both games, each
game's service module (`service.castell.tournament`, `service.combo.tournament`) giving its
part, its arguments and its own extra files."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from service.batches.engines import open_engine
from service.batches.folder import Folder
from service.batches.games import GameRecords, game_line_fault
from service.batches.runner import run

if TYPE_CHECKING:
    from planner.tournaments import TournamentGame


@dataclass(frozen=True)
class TournamentJob:
    """Games `0..games-1` of the tournament `seed` between `bots` (one a seat), in chunks of
    `chunk_size`; the game's part and `setup` (the board, the cards) travel with the job: a
    remote worker may not have their files."""

    game: TournamentGame[Any, Any, Any]
    setup: Any
    bots: tuple[str, ...]
    seed: int
    games: int
    chunk_size: int

    @property
    def indices(self) -> int:
        return self.games

    def run_chunk(self, indices: range) -> list[str]:
        from planner.tournaments import play_game

        return [json.dumps(play_game(self.game, self.setup, self.bots, self.seed, i).as_dict())
                for i in indices]

    def line_fault(self, index: int, line: str) -> str | None:
        from planner.tournaments import dealt_game

        dealt = dealt_game(self.game, self.bots, self.seed, index)
        return game_line_fault(self.game, self.setup, dealt, line)


@dataclass(frozen=True)
class Played:
    """A tournament played: its summary (JSON data), its records and their lines (for the
    folder's `games.jsonl`), in index order, and the folder it was played in (None: none, and
    no lines kept)."""

    summary: dict[str, Any]
    records: tuple[Any, ...]
    lines: tuple[str, ...]
    folder: Folder | None


def play_tournament(job: TournamentJob, out: str | Path | None, command: str,
                    arguments: dict[str, Any], workers: int = 1, dask: str | None = None,
                    on_progress: Callable[[int], None] | None = None) -> Played:
    """The tournament of `job` on this process, `workers` processes or Dask; with `out`, in
    that folder (its manifest: `command` and `arguments`), continuing any run of the same
    arguments there."""
    folder = None
    if out is not None:
        folder = Folder(out, command, arguments)
        folder.open()
    reducer = GameRecords(job.games, job.game.read_record, keep_lines=folder is not None)
    with open_engine(workers, dask) as engine:
        run(job, reducer, engine, folder, on_progress)
    summary = job.game.summarise(reducer.records, job.setup).as_dict()
    return Played(summary, tuple(reducer.records), tuple(reducer.lines), folder)


def write_results(played: Played, summary_json: str, files: Mapping[str, str]) -> None:
    """Into the tournament's folder, if any: `games.jsonl` (one record a line),
    `summary.json` and the game's own `files` (name -> text)."""
    if played.folder is None:
        return
    played.folder.write("games.jsonl", "".join(line + "\n" for line in played.lines))
    played.folder.write("summary.json", summary_json + "\n")
    for name, text in files.items():
        played.folder.write(name, text)
