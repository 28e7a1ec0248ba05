"""`castell puzzle generate|book|check|solve|sheet`: puzzle sets with proven unique solutions."""

from __future__ import annotations

import sys
from contextlib import ExitStack
from enum import StrEnum
from pathlib import Path
from typing import Annotated, cast

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from cli import options
from cli.batches import Dask, batch_progress, batch_stops
from cli.castell.render import tower_picture
from cli.edge import ExitCode, at_edge, emit_output, err, out
from cli.inputs import batch_lines
from models.files import atomic_open
from models.puzzle import Difficulty, Kind, Puzzle
from service.castell import puzzles as use

# shell completion is installed from the root command only (`castell --install-completion`)
app = typer.Typer(help="Generate, check, solve and print puzzles with one solution.",
                  no_args_is_help=True, add_completion=False)

MAX_BOOK = 1_000_000

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


KindOption = Annotated[PuzzleKind, typer.Option(
    "--kind", "-k", case_sensitive=False, help="A kind, or 'any' to cycle through them.")]
LevelOption = Annotated[PuzzleLevel, typer.Option(
    "--difficulty", "-d", case_sensitive=False, help="A measured property.")]
PuzzleFile = Annotated[Path, typer.Argument(
    metavar="FILE", dir_okay=False, allow_dash=True,
    help="Puzzles, JSON Lines ('-' for stdin).")]


def read_puzzles(source: str | Path) -> list[Puzzle]:
    return use.read_puzzles(batch_lines(source), source)


@app.command("generate")
@at_edge
def generate(
    kind: KindOption = PuzzleKind.ANY,
    difficulty: LevelOption = PuzzleLevel.MEDIUM,
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
    console = err()
    with ExitStack() as stack, _progress(count, console) as progress:
        sink = sys.stdout if output == "-" else stack.enter_context(atomic_open(output))
        task = progress.add_task("puzzles", total=count)
        written = use.generate(chosen, level, count, seed, rules, workers, sink.write,
                               lambda: progress.advance(task), output)
    if output == "-":
        return
    if as_json:
        emit_output(written)
    else:
        console.print(Text(f"wrote {count} puzzles to {output}"))


def _progress(count: int, console: Console) -> Progress:
    """A progress bar on stderr for large runs on a terminal."""
    return Progress("generating", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=True,
                    disable=count < 20 or not console.is_terminal)


# --- book: big sets in resumable chunks, here or on a Dask cluster ----------------------------

@app.command("book")
@at_edge
def book(
    out_dir: Annotated[str, typer.Option(
        "--out", "-o", metavar="DIR", parser=options.folder,
        help="The book's folder: manifest, finished chunks, puzzles.jsonl, sheets/. Run the "
             "same command again to continue a stopped book.")],
    count: Annotated[int, typer.Option(
        "--count", "-n", parser=options.whole(1, MAX_BOOK), metavar="N",
        help=f"How many puzzles (1 to {MAX_BOOK:,}).")] = 100,
    kind: KindOption = PuzzleKind.ANY,
    difficulty: LevelOption = PuzzleLevel.MEDIUM,
    seed: Annotated[int, typer.Option(
        "--seed", parser=options.whole(0, options.MAX_SEED), metavar="N",
        help="Same seed, same book.")] = 0,
    rules: options.Rules = "standard",
    sheets: Annotated[bool, typer.Option(
        "--sheets", help="Also printable HTML sheets and answer keys, by chapter.")] = False,
    chapter: Annotated[int, typer.Option(
        "--chapter", parser=options.whole(1, 1000), metavar="N",
        help="Puzzles a chapter of the sheets.")] = 50,
    workers: Annotated[int, typer.Option(
        "--workers", parser=options.whole(1, options.MAX_WORKERS), metavar="N",
        help="Local processes (the book does not depend on it).")] = 1,
    dask: Dask = None,
    as_json: options.Json = False,
) -> None:
    """A book of puzzles with proven unique answers: the first N distinct puzzles of the
    seed's candidate stream, the same on any number of workers or machines. Finished chunks
    are kept in DIR (Ctrl-C: exit 130); the same command continues, other arguments are refused.

    Examples:

      castell puzzle book --count 200 --difficulty easy --out book/ --sheets

      castell puzzle book --count 10000 --out book/ --dask tcp://scheduler:8786
    """
    from cli.castell.sheet import render_sheet  # deferred: keeps start-up light
    from service.castell.puzzle_book import BookJob
    from service.castell.puzzle_book import book as make_book

    level: Difficulty = difficulty.value
    job = BookJob(None if kind is PuzzleKind.ANY else cast(Kind, kind.value), level, seed,
                  rules, count)
    console = err()
    with batch_stops(out_dir), batch_progress("puzzles", console) as progress:
        task = progress.add_task("puzzles", total=count)
        written = make_book(job, out_dir, workers=workers, dask=dask,
                            sheets=render_sheet if sheets else None, chapter=chapter,
                            on_progress=lambda done: progress.update(task, completed=done))
    if as_json:
        emit_output(written)
        return
    resumed = f" ({written.chunks_resumed} chunks resumed)" if written.chunks_resumed else ""
    console.print(Text(f"wrote {written.puzzles} puzzles to {written.wrote[0]}{resumed}"))
    if sheets:
        console.print(Text(f"sheets: {len(written.wrote) - 1} pages under "
                           f"{Path(out_dir) / 'sheets'}"))


@app.command("check")
@at_edge
def check(puzzle_file: PuzzleFile, as_json: options.Json = False) -> None:
    """Check each puzzle: its solution is valid, optimal and the only one.

    Exit 0 when every puzzle passes, 1 otherwise (the failing ids and a second solution are
    shown).

    Example:

      castell puzzle check examples/puzzles/medium.jsonl
    """
    checked = use.check(read_puzzles(puzzle_file))
    verdicts, failed = checked.verdicts, checked.failed
    if as_json:
        emit_output(checked.output())
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
    rows = use.solve(read_puzzles(puzzle_file))
    if as_json:
        for row in rows:
            emit_output(row)
        return
    table = Table(title="Solutions")
    for column in ("id", "status", "tower", "objective"):
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(escape(row.id), row.status, row.tower or "-", str(row.objective))
    out().print(table)


@app.command("sheet")
@at_edge
def sheet(
    puzzle_file: PuzzleFile,
    directory: Annotated[str, typer.Option("--out", "-o", metavar="DIR",
                                                   parser=options.folder)] = "sheets",
    title: Annotated[str, typer.Option("--title")] = "Castell puzzles",
    as_json: options.Json = False,
) -> None:
    """Printable HTML: puzzles.html (pool, skills, target, a grid to draw in) and answers.html.

    Example:

      castell puzzle sheet examples/puzzles/medium.jsonl --out sheets/
    """
    from cli.castell.sheet import render_sheet  # deferred: keeps start-up light

    written = use.sheet(read_puzzles(puzzle_file), Path(directory), title, render_sheet)
    if as_json:
        emit_output(written)
        return
    for path in written.wrote:
        err().print(Text(f"wrote {path}"))
