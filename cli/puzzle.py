"""`castell puzzle generate|check|solve|sheet`: puzzle sets with proven unique solutions."""

from __future__ import annotations

import json
import sys
from contextlib import ExitStack
from enum import StrEnum
from pathlib import Path
from typing import IO, Annotated, Any, cast

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from cli import options
from cli.edge import ExitCode, at_edge, emit_json, err, out
from cli.inputs import batch_lines
from cli.render import tower_picture
from models.errors import SpecError
from models.files import atomic_open, field_errors
from models.puzzle import Difficulty, Kind, Puzzle
from models.tower import rules_named
from planner.puzzles import check_puzzle, generate_one, kind_for, puzzle_key, question_of
from planner.stopping import in_workers
from planner.tower import solve

app = typer.Typer(help="Generate, check, solve and print puzzles with one solution.",
                  no_args_is_help=True)



class PuzzleKind(StrEnum):
    """models.puzzle.KINDS and 'any' (a test keeps the two equal)."""

    TALLEST = "tallest"
    FESTIVAL = "festival"
    SHAPE = "shape"
    EXHIBITION = "exhibition"
    ANY = "any"


class PuzzleLevel(StrEnum):
    """models.puzzle.DIFFICULTIES."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


PuzzleFile = Annotated[Path, typer.Argument(
    metavar="FILE", dir_okay=False, allow_dash=True,
    help="Puzzles, JSON Lines ('-' for stdin).")]


def read_puzzles(source: str | Path) -> list[Puzzle]:
    from pydantic import ValidationError

    puzzles = []
    for number, line in batch_lines(source):
        try:
            puzzles.append(Puzzle.model_validate_json(line))
        except ValidationError as error:
            raise SpecError(f"{source}, line {number}: {field_errors(error)}") from None
    if not puzzles:
        raise SpecError(f"{source} holds no puzzles")
    return puzzles


MAX_REDRAWS = 200  # draws for one index before a set is declared exhausted


def _make(job: tuple[Kind | None, Difficulty, int, int, str], retry: int = 0
          ) -> tuple[tuple[str, ...], str]:
    kind, level, seed, index, rules = job
    puzzle = generate_one(kind_for(kind, index), level, seed, index, rules_named(rules),
                          retry=retry)
    return puzzle_key(puzzle), json.dumps(puzzle.model_dump(mode="json"), ensure_ascii=False)


@app.command("generate")
@at_edge
def generate(
    kind: Annotated[PuzzleKind, typer.Option(
        "--kind", "-k", case_sensitive=False, help="A kind, or 'any' to cycle through them.")
    ] = PuzzleKind.ANY,
    difficulty: Annotated[PuzzleLevel, typer.Option(
        "--difficulty", "-d", case_sensitive=False, help="A measured property.")
    ] = PuzzleLevel.MEDIUM,
    count: Annotated[int, typer.Option(
        "--count", "-n", parser=options.whole(1, options.MAX_PUZZLES), metavar="N",
        help=f"How many puzzles (1 to {options.MAX_PUZZLES}).")] = 10,
    seed: Annotated[int, typer.Option(
        "--seed", parser=options.whole(0, options.MAX_SEED), metavar="N",
        help="Same seed, same puzzles.")] = 0,
    workers: Annotated[int, typer.Option(
        "--workers", parser=options.whole(1, options.MAX_WORKERS), metavar="N",
        help="Processes.")] = 1,
    rules: options.Rules = "standard",
    output: Annotated[str, typer.Option(
        "--out", "-o", metavar="FILE", help="JSON Lines out ('-' = stdout).")] = "-",
    as_json: Annotated[bool, typer.Option(
        "--json", help="With --out FILE: print one JSON object saying what was written. The "
        "puzzles themselves are always JSON Lines, one puzzle a line.")] = False,
) -> None:
    """Generate puzzles whose answer CP-SAT proves unique, graded by measured difficulty.

    Difficulty points = 2 x distinct skills the solution uses + its skill uses + castellers
    the solution leaves out + 1 if the proof needed over 200 search branches; easy <= 3,
    medium <= 7, hard above. Each puzzle records its measurements.

    Examples:

      castell puzzle generate --kind festival --difficulty hard --count 20 --seed 7

      castell puzzle generate --count 200 --workers 2 --out set.jsonl
    """
    chosen = None if kind is PuzzleKind.ANY else cast(Kind, kind.value)
    level: Difficulty = difficulty.value
    jobs = [(chosen, level, seed, index, rules) for index in range(count)]
    console = err()
    with ExitStack() as stack:
        sink = sys.stdout if output == "-" else stack.enter_context(atomic_open(output))
        _run(jobs, workers, sink, console)
    if output == "-":
        return
    if as_json:
        emit_json({"wrote": output, "puzzles": count})
    else:
        console.print(Text(f"wrote {count} puzzles to {output}"))


def _run(jobs: list[tuple[Kind | None, Difficulty, int, int, str]], workers: int,
         sink: IO[str], console: Console) -> None:
    """Puzzles in index order whatever the number of workers (each is a function of its
    index), never one twice: a puzzle that repeats an earlier one of the set is drawn again
    for its index (in index order, so the set is the same for any number of workers); with a
    progress bar on stderr for large runs."""
    count = len(jobs)
    seen: set[tuple[str, ...]] = set()

    def write(job: tuple[Kind | None, Difficulty, int, int, str],
              made: tuple[tuple[str, ...], str]) -> None:
        key, line = made
        retry = 0
        while key in seen:
            retry += 1
            if retry > MAX_REDRAWS:
                raise SpecError(f"puzzle {job[3]} repeated an earlier one {MAX_REDRAWS} times: "
                                "there may not be that many distinct puzzles of this kind and "
                                "difficulty; ask for fewer")
            key, line = _make(job, retry)
        seen.add(key)
        sink.write(line + "\n")

    with Progress("generating", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True,
                  disable=count < 20 or not console.is_terminal) as progress:
        task = progress.add_task("puzzles", total=count)
        if workers == 1:
            for job in jobs:
                write(job, _make(job))
                progress.advance(task)
        else:
            made_by = in_workers(_make, jobs, workers)  # Ctrl-C stops every worker at once
            try:
                for job, made in zip(jobs, made_by, strict=True):
                    write(job, made)
                    progress.advance(task)
            finally:
                made_by.close()  # a failed write ends the workers too


@app.command("check")
@at_edge
def check(puzzle_file: PuzzleFile, as_json: options.Json = False) -> None:
    """Check each puzzle: its solution is valid, optimal and the only one.

    Exit 0 when every puzzle passes, 1 otherwise (the failing ids and a second solution are
    shown).

    Example:

      castell puzzle check examples/puzzles/medium.jsonl
    """
    verdicts = [check_puzzle(p) for p in read_puzzles(puzzle_file)]
    failed = [v for v in verdicts if not v.ok]
    if as_json:
        emit_json({"ok": not failed, "checked": len(verdicts),
                   "failed": [{"id": v.puzzle.id, "problems": list(v.problems),
                               "second": str(v.second) if v.second else None} for v in failed]})
    else:
        for verdict in verdicts:
            if verdict.ok:
                out().print(f"[green]ok[/]   {escape(verdict.puzzle.id)}", highlight=False)
                continue
            out().print("[bold red]FAIL[/] "
                        + escape(f"{verdict.puzzle.id}: {'; '.join(verdict.problems)}"),
                        highlight=False)
            if verdict.second is not None:
                out().print(tower_picture(verdict.second))
        out().print(Text(f"{len(verdicts) - len(failed)} of {len(verdicts)} puzzles pass"
                         + (f"; failing: {', '.join(v.puzzle.id for v in failed)}"
                            if failed else "")))
    raise typer.Exit(ExitCode.NO if failed else ExitCode.YES)


@app.command("solve")
@at_edge
def solve_puzzles(puzzle_file: PuzzleFile, as_json: Annotated[bool, typer.Option(
        "--json", help="JSON Lines: one object per puzzle.")] = False) -> None:
    """Solve each puzzle from scratch (ignoring its recorded solution).

    Example:

      castell puzzle solve examples/puzzles/medium.jsonl --json
    """
    rows: list[dict[str, Any]] = []
    for puzzle in read_puzzles(puzzle_file):
        result = solve(question_of(puzzle), puzzle.team, puzzle.ranks, puzzle.variant)
        rows.append({"id": puzzle.id, "status": str(result.status),
                     "tower": str(result.tower) if result.tower else None,
                     "objective": result.objective,
                     "matches_recorded": str(result.tower) == puzzle.solution})
    if as_json:
        for row in rows:
            emit_json(row)
        return
    table = Table(title="Solutions")
    for column in ("id", "status", "tower", "objective"):
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(escape(row["id"]), row["status"], row["tower"] or "-", str(row["objective"]))
    out().print(table)


@app.command("sheet")
@at_edge
def sheet(
    puzzle_file: PuzzleFile,
    directory: Annotated[str, typer.Option("--out", "-o", metavar="DIR")] = "sheets",
    title: Annotated[str, typer.Option("--title")] = "Castell puzzles",
    as_json: options.Json = False,
) -> None:
    """Printable HTML: puzzles.html (pool, skills, target, a grid to draw in) and answers.html.

    Example:

      castell puzzle sheet examples/puzzles/medium.jsonl --out sheets/
    """
    from cli.sheet import write_sheets  # deferred: keeps start-up light

    puzzles = read_puzzles(puzzle_file)
    written = write_sheets(puzzles, Path(directory), title)
    if as_json:
        emit_json({"wrote": [str(path) for path in written], "puzzles": len(puzzles)})
        return
    for path in written:
        err().print(Text(f"wrote {path}"))
