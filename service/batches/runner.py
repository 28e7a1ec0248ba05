"""The batch runner: a job is a pure, seeded `run_chunk(indices) -> lines` (result i depends on
the job's arguments and i only) and a reducer that folds the chunks in index order. Chunks run
on any engine (`service.batches.engines`), come back in any order, are written to the folder
as they finish, and are reduced in index order: the same files on any engine, with any number
of workers, stopped and resumed or not.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from typing import Protocol

from planner.stopping import cancel_requested
from service.batches.engines import Engine
from service.batches.folder import Folder

POLL_S = 0.2  # how often the wait wakes up (so Ctrl-C is seen between completions)
RETRIES = 3  # times a local pool is renewed after a worker died, before the run fails


class RunCancelled(Exception):
    """The run's request was cancelled (a Ctrl-C or SIGTERM) and no exception of the signal's
    own reached the runner: its handler may raise inside a finalizer or a fork hook, where
    Python reports the exception instead of raising it (with both cores busy a Castle Combo
    tournament then went on waiting for its chunks for minutes). The edge says how the
    command was stopped."""


class Job(Protocol):
    @property
    def chunk_size(self) -> int:
        """Indices a chunk: 0.5-5 s of work, fixed by the arguments (never by the engine, so
        that any engine can continue a folder)."""
        ...

    @property
    def indices(self) -> int:
        """An upper bound: the reducer may be finished before the last chunk."""
        ...

    def run_chunk(self, indices: range) -> list[str]:
        """One JSON line per index: a function of the job and the indices only."""
        ...

    def line_fault(self, index: int, line: str) -> str | None:
        """Why `line`, a chunk's line read back, is not one this job would have written for
        `index`: its record's schema, types and identity (None: it is; a chunk with a bad
        line is run again, `service.batches.folder`)."""
        ...


class Reducer(Protocol):
    def add(self, lines: list[str]) -> None:
        """The next chunk's lines, in index order."""
        ...

    @property
    def done(self) -> int:
        """Units done (games, puzzles) so far, for the progress bar."""
        ...

    @property
    def finished(self) -> bool:
        ...


@dataclass(frozen=True)
class Ran:
    chunks: int  # chunks the result is made of
    ran: int  # run now
    resumed: int  # read back from the folder


def _found(job: Job, folder: Folder | None, kept: dict[int, list[str]] | None, chunk: int,
           indices: range) -> list[str] | None:
    """Chunk `chunk`'s lines from the folder (None: to run)."""
    if folder is None:
        return None
    if kept is not None:
        return kept.pop(chunk, None)
    return folder.finished(chunk, indices, job.line_fault)


def chunk_range(job: Job, chunk: int) -> range:
    start = chunk * job.chunk_size
    return range(start, min(start + job.chunk_size, job.indices))


def finished_chunks(job: Job, folder: Folder) -> dict[int, list[str]]:
    """The chunks of `job` that `folder` holds whole and valid (each read and checked once),
    by number: what `run` is given when a caller must know them before the run starts."""
    kept = {}
    for chunk in range(-(-job.indices // job.chunk_size)):
        lines = folder.finished(chunk, chunk_range(job, chunk), job.line_fault)
        if lines is not None:
            kept[chunk] = lines
    return kept


def run(job: Job, reducer: Reducer, engine: Engine, folder: Folder | None = None,
        on_progress: Callable[[int], None] | None = None,
        kept: dict[int, list[str]] | None = None) -> Ran:
    """Run `job` until `reducer` is finished (or the indices run out), `engine.slots` chunks
    in flight, skipping the chunks `folder` already holds: `kept`, when they were read and
    checked already (`finished_chunks`; it is emptied as they are used), else each read and
    checked as its turn comes. On Ctrl-C or a failure the chunks in flight are cancelled and
    the engine stopped; the finished chunks stay in the folder."""
    total_chunks = -(-job.indices // job.chunk_size)
    arrived: dict[int, list[str]] = {}
    pending: dict[Future[list[str]], int] = {}
    next_chunk = used = ran = resumed = renewed = 0

    def fold() -> None:
        nonlocal used
        while used in arrived and not reducer.finished:
            reducer.add(arrived.pop(used))
            used += 1
        if on_progress is not None:
            on_progress(reducer.done)

    try:
        while not reducer.finished:
            while len(pending) < engine.slots and next_chunk < total_chunks:
                indices = chunk_range(job, next_chunk)
                found = _found(job, folder, kept, next_chunk, indices)
                if found is not None:
                    arrived[next_chunk] = found
                    resumed += 1
                    fold()
                else:
                    future = engine.executor.submit(job.run_chunk, indices)
                    pending[future] = next_chunk
                next_chunk += 1
                if reducer.finished:
                    break
            if reducer.finished or not pending:
                break
            finished, _ = wait(list(pending), timeout=POLL_S, return_when=FIRST_COMPLETED)
            if cancel_requested():  # the token a signal cancels, whatever became of its raise
                raise RunCancelled("the run was stopped")
            for future in finished:
                try:
                    lines = future.result()
                except engine.broken:  # a worker died: a new pool runs its chunks again
                    if renewed == RETRIES:
                        raise
                    renewed += 1
                    engine.renew()
                    again = sorted(pending.values())
                    pending = {engine.executor.submit(job.run_chunk, chunk_range(job, c)): c
                               for c in again}
                    break
                chunk = pending.pop(future)
                if folder is not None:
                    folder.write_chunk(chunk, chunk_range(job, chunk), lines)
                arrived[chunk] = lines
                ran += 1
            fold()
    except BaseException:
        for future in pending:
            future.cancel()
        engine.stop()
        raise
    if pending:  # chunks past the end of a book that filled up early: not waited for
        for future in pending:
            future.cancel()
        engine.stop()
    fold()
    return Ran(used, ran, resumed)
