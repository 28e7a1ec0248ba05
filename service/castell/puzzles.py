"""Puzzle sets with proven unique solutions: generate a set, check a set (each solution valid,
optimal and the only one), solve a set from scratch, and write its printable sheets.

A puzzle set is JSON Lines, one `models.puzzle.Puzzle` a line (the file format `generate`
writes and the others read). The interfaces give the lines and render the answers.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from models.errors import SpecError
from models.files import field_errors, write_atomic
from models.puzzle import Difficulty, Kind, Puzzle
from models.tower import rules_named
from service.results.base import output_of
from service.results.puzzles import (
    PuzzleCheckOutput,
    PuzzleGenerateOutput,
    PuzzleSheetOutput,
    PuzzleSolveOutput,
)

if TYPE_CHECKING:
    from planner.puzzles import Verdict

MAX_REDRAWS = 200  # draws for one index before a set is declared exhausted

Job = tuple[Kind | None, Difficulty, int, int, str]  # kind (None: cycle), level, seed, index, rules


def read_puzzles(lines: Iterable[tuple[int, str]], source: str | Path) -> list[Puzzle]:
    """The puzzles of numbered JSON lines read from `source` (named in the errors)."""
    from pydantic import ValidationError

    puzzles = []
    seen: dict[str, int] = {}
    for number, line in lines:
        try:
            puzzle = Puzzle.model_validate_json(line)
        except ValidationError as error:
            raise SpecError(f"{source}, line {number}: {field_errors(error)}") from None
        if puzzle.id in seen:  # a set names each puzzle once: the id is how a sheet finds it
            raise SpecError(f"{source}, line {number}: the id '{puzzle.id}' is also the id on "
                            f"line {seen[puzzle.id]}")
        seen[puzzle.id] = number
        puzzles.append(puzzle)
    if not puzzles:
        raise SpecError(f"{source} holds no puzzles")
    return puzzles


# -- generate --------------------------------------------------------------------------------


def _make(job: Job, retry: int = 0) -> tuple[tuple[str, ...], str]:
    """Puzzle `job` as its key and its JSON line (a worker process runs it)."""
    from planner.puzzles import generate_one, kind_for, puzzle_key

    kind, level, seed, index, rules = job
    puzzle = generate_one(kind_for(kind, index), level, seed, index, rules_named(rules),
                          retry=retry)
    return puzzle_key(puzzle), json.dumps(puzzle.model_dump(mode="json"), ensure_ascii=False)


def generate(kind: Kind | None, level: Difficulty, count: int, seed: int, rules: str,
             workers: int, write: Callable[[str], object], made: Callable[[], object],
             wrote: str) -> PuzzleGenerateOutput:
    """`count` puzzles written to `write` one JSON line each (with its newline), in index
    order whatever the number of workers (each is a function of its index), never one twice:
    a puzzle that repeats an earlier one of the set is drawn again for its index (in index
    order, so the set is the same for any number of workers). `made` is called after each
    puzzle (a progress bar); `wrote` names where the lines go, for the answer."""
    from planner.stopping import in_workers

    jobs: list[Job] = [(kind, level, seed, index, rules) for index in range(count)]
    seen: set[tuple[str, ...]] = set()

    def keep(job: Job, drawn: tuple[tuple[str, ...], str]) -> None:
        key, line = drawn
        retry = 0
        while key in seen:
            retry += 1
            if retry > MAX_REDRAWS:
                raise SpecError(f"puzzle {job[3]} repeated an earlier one {MAX_REDRAWS} times: "
                                "there may not be that many distinct puzzles of this kind and "
                                "difficulty; ask for fewer")
            key, line = _make(job, retry)
        seen.add(key)
        write(line + "\n")
        made()

    if workers == 1:
        for job in jobs:
            keep(job, _make(job))
    else:
        drawn_by = in_workers(_make, jobs, workers)  # Ctrl-C stops every worker at once
        try:
            for job, drawn in zip(jobs, drawn_by, strict=True):
                keep(job, drawn)
        finally:
            drawn_by.close()  # a failed write ends the workers too
    return output_of(PuzzleGenerateOutput, {"wrote": wrote, "puzzles": count})


# -- check -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Checked:
    """Each puzzle's verdict (`planner.puzzles.check_puzzle`): its problems, and another
    solution when there is one."""

    verdicts: list[Verdict]

    @property
    def failed(self) -> list[Verdict]:
        return [v for v in self.verdicts if not v.ok]

    def output(self) -> PuzzleCheckOutput:
        return output_of(PuzzleCheckOutput, {
            "ok": not self.failed, "checked": len(self.verdicts),
            "failed": [{"id": v.puzzle.id, "problems": list(v.problems),
                        "second": str(v.second) if v.second else None} for v in self.failed]})


def check(puzzles: list[Puzzle]) -> Checked:
    """Each puzzle's solution is valid, optimal and the only one."""
    from planner.puzzles import check_puzzle

    return Checked([check_puzzle(p) for p in puzzles])


# -- solve -----------------------------------------------------------------------------------


def solve(puzzles: list[Puzzle]) -> list[PuzzleSolveOutput]:
    """Each puzzle solved from scratch (its recorded solution ignored), under its readings."""
    from planner.puzzles import question_of
    from planner.tower import solve as solve_tower

    rows = []
    for puzzle in puzzles:
        result = solve_tower(question_of(puzzle), puzzle.team, puzzle.ranks, puzzle.variant)
        rows.append(output_of(PuzzleSolveOutput, {
            "id": puzzle.id, "status": str(result.status),
            "tower": str(result.tower) if result.tower else None,
            "objective": result.objective,
            "matches_recorded": str(result.tower) == puzzle.solution}))
    return rows


# -- sheet -----------------------------------------------------------------------------------


def sheet(puzzles: list[Puzzle], directory: Path, title: str,
          render: Callable[[list[Puzzle], str, bool], str]) -> PuzzleSheetOutput:
    """The printable sheets, `puzzles.html` and `answers.html`, written to `directory` as
    `render(puzzles, title, answers)` draws them (the page itself is the interface's)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        written = []
        for name, answers in (("puzzles.html", False), ("answers.html", True)):
            path = directory / name
            write_atomic(path, render(puzzles, title, answers))
            written.append(path)
    except OSError as error:
        raise SpecError(f"cannot write sheets to '{directory}': {error.strerror}") from None
    return output_of(PuzzleSheetOutput, {"wrote": [str(path) for path in written],
                                         "puzzles": len(puzzles)})
