"""A tournament of either game as a batch (`service.batches`): the job that plays chunks of
games (`planner.tournaments.play_game`, with the game's part of a tournament), the records
folded in index order, the summary, and the folder's files; written once for both games, each
game's service module (`service.castell.tournament`, `service.combo.tournament`) giving its
part, its arguments and its own extra files.

Games a chunk: chosen from the games and the workers (`choose_chunk`: about four chunks a
worker, so that two workers share even a 12-game run), or given (1 to `MAX_CHUNK`, for both
games: `tournament_chunk`); a folder keeps its own (`folder_chunk`: its manifest records the
chunk size, so a run continued with other workers or from an older version reads its chunks
back). The chunk size never changes the records: game i is a function of (seed, i) only.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from models.errors import SpecError
from service.batches.engines import open_engine
from service.batches.folder import Folder, read_manifest
from service.batches.games import GameRecords, game_line_fault
from service.batches.runner import finished_chunks, run

if TYPE_CHECKING:
    from planner.tournaments import TournamentGame

CHUNKS_A_WORKER = 4  # enough to share the games evenly, few enough to keep chunk files few
# games a chunk at most, whatever the game (the CLI's --chunk says the same: cli.batches)
MAX_CHUNK = 1000

# told of each game a chunk plays in this process (`--workers 1`: the progress game by game;
# a worker process's chunks are counted as they finish)
_ON_GAME: ContextVar[Callable[[], None] | None] = ContextVar("on_game", default=None)


def choose_chunk(games: int, workers: int, most: int, rotation: int = 1) -> int:
    """Games a chunk: about `CHUNKS_A_WORKER` chunks for each of `workers`, 1 to `most` (the
    game's cap: the chunk files of a long run stay few; 0 workers: not known, the cap); in
    whole deals (`rotation`: a deal's games, one a seat) where the cap allows. A deal's games
    share their deal, so one process's caches (its festival towers) serve them all: 12 games
    of three greedy bots took 31 s on one worker, 24 s on two in chunks of 2, 17 s on two in
    chunks of 3."""
    if workers <= 0:
        return most
    even = max(1, min(most, -(-games // (CHUNKS_A_WORKER * workers))))
    if rotation <= 1 or most < rotation:
        return even
    return min(most - most % rotation, rotation * -(-even // rotation))


def engine_workers(workers: int, dask: str | None) -> int:
    """The workers of `--workers N` or `--dask local:N`; 0 for a remote scheduler's (not
    known before it is reached)."""
    if dask is None:
        return workers
    text = dask.removeprefix("local:")
    return int(text) if dask.startswith("local:") and text.isdigit() else 0


def folder_chunk(out: str | Path | None) -> int | None:
    """The chunk size of the run in the folder `out` (None: no folder, no run there yet, or
    a manifest that is not a run's, or too large to be one: the folder refuses it when
    opened, `Folder.open`)."""
    if out is None or not (Path(out) / "manifest.json").exists():
        return None
    try:
        found = read_manifest(Path(out) / "manifest.json")
    except SpecError:
        return None
    arguments = found.get("arguments") if isinstance(found, dict) else None
    chunk = arguments.get("chunk") if isinstance(arguments, dict) else None
    return chunk if _a_chunk(chunk) else None


def _a_chunk(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_CHUNK


def tournament_chunk(games: int, out: str | Path | None, workers: int, dask: str | None,
                     most: int, given: int | None = None, rotation: int = 1) -> int:
    """The chunk size of a run: `given` (1 to `MAX_CHUNK`, else a `SpecError`),
    else the folder's own run's, else `choose_chunk`'s (in whole deals of `rotation` games
    where it can)."""
    if given is not None:
        if not _a_chunk(given):
            raise SpecError(f"a chunk is 1 to {MAX_CHUNK} games", field="chunk")
        return given
    kept = folder_chunk(out)
    return kept if kept is not None else \
        choose_chunk(games, engine_workers(workers, dask), most, rotation)


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

        lines = []
        for i in indices:
            lines.append(json.dumps(
                play_game(self.game, self.setup, self.bots, self.seed, i).as_dict()))
            told = _ON_GAME.get()
            if told is not None:
                told()
        return lines

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


@dataclass(frozen=True)
class Found:
    """What a folder held before a run: `played` of the `games` (0: a new run)."""

    played: int
    games: int

    @property
    def finished(self) -> bool:
        return self.played >= self.games


@contextlib.contextmanager
def tournament_folder(out: str | Path | None, command: str, arguments: dict[str, Any]
                      ) -> Iterator[Folder | None]:
    """The folder `out` of a run of `command` with `arguments` (None: no folder), held
    while the block runs: the run and the writing of its results (`play_tournament`,
    `write_results`); let go at its end, whether it finished, failed or was stopped."""
    if out is None:
        yield None
        return
    with Folder(out, command, arguments) as folder:
        yield folder


class _Counted:
    """The progress of a run: the runner's count as each chunk is folded in, and in this
    process each game as it ends (only in the process that made it: a forked worker
    inherits the context, not the terminal)."""

    def __init__(self, on_progress: Callable[[int], None]) -> None:
        self.on_progress = on_progress
        self.done = 0
        self.pid = os.getpid()

    def folded(self, done: int) -> None:
        self.done = done
        self.on_progress(done)

    def one_more(self) -> None:
        if os.getpid() == self.pid:
            self.done += 1
            self.on_progress(self.done)


def play_tournament(job: TournamentJob, folder: Folder | None, workers: int = 1,
                    dask: str | None = None,
                    on_progress: Callable[[int], None] | None = None,
                    on_found: Callable[[Found], None] | None = None) -> Played:
    """The tournament of `job` on this process, `workers` processes or Dask; with `folder`
    (open: `tournament_folder`), in it, continuing any run of the same arguments there
    (`on_found` told first of what the folder held, when it held a run: its chunks are read
    and checked once, for both)."""
    kept = None
    if folder is not None and on_found is not None:
        kept = finished_chunks(job, folder)
        found = Found(sum(len(lines) for lines in kept.values()), job.games)
        if found.played:
            on_found(found)
    reducer = GameRecords(job.games, job.game.read_record, keep_lines=folder is not None)
    counted = _Counted(on_progress) if on_progress is not None else None
    in_here = counted is not None and workers == 1 and dask is None
    token = _ON_GAME.set(counted.one_more if counted is not None and in_here else None)
    try:
        with open_engine(workers, dask) as engine:
            run(job, reducer, engine, folder, None if counted is None else counted.folded,
                kept)
    finally:
        _ON_GAME.reset(token)
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
