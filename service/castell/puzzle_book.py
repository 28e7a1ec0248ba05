"""`puzzle book`: a book of N puzzles with proven unique solutions, made in chunks on any
engine (`service.batches`), resumable in its folder, and printable by chapter.

The book is the first N distinct puzzles of the candidate stream `candidate(seed, i)`,
i = 0, 1, 2, ... in index order: candidate i is a function of the arguments and i alone, so
which worker made it never matters, and the book is the same on one process, a pool or a Dask
cluster. A candidate that repeats an earlier one is passed over (unlike `puzzle generate`,
which redraws in place, a loop that cannot be split).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from models.errors import SpecError
from models.puzzle import Difficulty, Kind, Puzzle
from models.tower import rules_named
from service.batches import Folder, open_engine, run
from service.castell.puzzles import sheet
from service.results.base import output_of
from service.results.puzzles import PuzzleBookOutput

CHUNK = 20  # candidates a chunk: 0.4 s (easy) to 2 s (hard) of work
SPARE = 100  # candidates beyond 4 x N before the stream is declared exhausted
NONE = "null"  # the line of a candidate index that gave no puzzle
BOOK = "puzzles.jsonl"


@dataclass(frozen=True)
class BookJob:
    kind: Kind | None  # None: the kinds in turn
    level: Difficulty
    seed: int
    rules: str
    count: int
    chunk_size: int = CHUNK

    @property
    def indices(self) -> int:
        return 4 * self.count + SPARE

    def run_chunk(self, indices: range) -> list[str]:
        return [candidate(self, i) for i in indices]

    def line_fault(self, index: int, line: str) -> str | None:
        """Why `line` is not candidate `index` as this book writes it: a puzzle of the kind,
        difficulty, rules and id candidate `index` has, written back to the same line, or
        none for that candidate (`null`)."""
        from planner.puzzles import kind_for

        if line == NONE:
            return None
        try:
            puzzle = Puzzle.model_validate_json(line)
        except ValidationError:
            return "not a puzzle"
        if _line(puzzle) != line:
            return "not a puzzle as the book writes it"
        if (puzzle.id, puzzle.kind, puzzle.rules, puzzle.difficulty.get("level")) != \
                (f"{self.seed}-{index:04d}", kind_for(self.kind, index),
                 rules_named(self.rules).name, self.level):
            return f"not candidate {index} of this book (its id, kind, rules or difficulty)"
        return None


def _line(puzzle: Puzzle) -> str:
    return json.dumps(puzzle.model_dump(mode="json"), ensure_ascii=False)


def candidate(job: BookJob, index: int) -> str:
    """Candidate `index` of the stream, as its JSON line (`null` when it gave no puzzle)."""
    from planner.puzzles import generate_one, kind_for

    try:
        puzzle = generate_one(kind_for(job.kind, index), job.level, job.seed, index,
                              rules_named(job.rules))
    except RuntimeError:  # no unique puzzle of this level within the attempts: pass it over
        return NONE
    return _line(puzzle)


@dataclass
class BookReducer:
    """The first `count` distinct puzzles, in index order."""

    count: int
    lines: list[str] = field(default_factory=list)
    candidates: int = 0
    _seen: set[tuple[str, ...]] = field(default_factory=set)

    def add(self, lines: list[str]) -> None:
        from planner.puzzles import puzzle_key

        for line in lines:
            if self.finished:
                return
            self.candidates += 1
            if line == NONE:
                continue
            key = puzzle_key(Puzzle.model_validate_json(line))
            if key not in self._seen:
                self._seen.add(key)
                self.lines.append(line)

    @property
    def done(self) -> int:
        return len(self.lines)

    @property
    def finished(self) -> bool:
        return len(self.lines) >= self.count


def arguments(job: BookJob) -> dict[str, object]:
    """What decides the book (the manifest): the engine and the sheets do not."""
    return {"--count": job.count, "--kind": job.kind or "any", "--difficulty": job.level,
            "--seed": job.seed, "--rules": job.rules, "chunk": job.chunk_size}


def book(job: BookJob, out: str | Path, *, workers: int = 1, dask: str | None = None,
         sheets: Callable[[list[Puzzle], str, bool], str] | None = None, chapter: int = 50,
         on_progress: Callable[[int], None] | None = None) -> PuzzleBookOutput:
    """Make (or continue) the book in folder `out`: `puzzles.jsonl`, and with `sheets` (the
    page renderer, the interface's) `sheets/chapter-NNN/{puzzles,answers}.html` of `chapter`
    puzzles each."""
    rules_named(job.rules)  # an unknown rules name is refused before any worker starts
    with Folder(out, "puzzle book", arguments(job)) as folder:  # held until the book ends
        reducer = BookReducer(job.count)
        with open_engine(workers, dask) as engine:
            ran = run(job, reducer, engine, folder, on_progress)
        if not reducer.finished:
            raise SpecError(f"only {reducer.done} distinct puzzles among the first "
                            f"{reducer.candidates} candidates: there may not be {job.count} "
                            "distinct puzzles of this kind and difficulty; ask for fewer")
        wrote = [str(folder.write(BOOK, "".join(line + "\n" for line in reducer.lines)))]
        if sheets is not None:
            wrote += _sheets(reducer.lines, folder.path / "sheets", chapter, sheets)
    return output_of(PuzzleBookOutput, {
        "folder": str(folder.path), "wrote": wrote, "puzzles": reducer.done,
        "candidates": reducer.candidates, "chunks": ran.chunks, "chunks_run": ran.ran,
        "chunks_resumed": ran.resumed, "engine": engine.name})


def _sheets(lines: list[str], directory: Path, chapter: int,
            render: Callable[[list[Puzzle], str, bool], str]) -> list[str]:
    puzzles = [Puzzle.model_validate_json(line) for line in lines]
    wrote = []
    for number, start in enumerate(range(0, len(puzzles), chapter), 1):
        part = puzzles[start:start + chapter]
        title = f"Castell puzzles, chapter {number} (puzzles {start + 1}-{start + len(part)})"
        wrote += sheet(part, directory / f"chapter-{number:03d}", title, render).wrote
    return wrote
