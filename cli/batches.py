"""What the batch commands (`puzzle book`, `tournament`, `combo tournament --out/--dask`)
share at the edge: the --dask and --chunk options, the progress bar, the line a continued
tournament starts with, and the one line a stopped batch prints."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from cli import options
from cli.edge import ExitCode, Terminated, fail_interrupted, stop_code, stop_word

if TYPE_CHECKING:
    from service.batches.tournament import Found

# "\\[": the help is rich markup, where a bare "[dask]" is a style tag and vanishes
Dask = Annotated[str | None, typer.Option(
    "--dask", metavar="ADDRESS",
    help="Run the chunks on a Dask cluster: its scheduler (tcp://HOST:8786), or local:N to "
         "start N worker processes here (needs the extra: pip install -e '.\\[dask]').")]

# service.batches.tournament.MAX_CHUNK, kept here so that reading the options loads no batch
# machinery (a test holds them equal); the service refuses a larger chunk for both games
MAX_CHUNK = 1000
Chunk = Annotated[int | None, typer.Option(
    "--chunk", parser=options.whole(1, MAX_CHUNK), metavar="N",
    help="Games a chunk of --out's folder (default: about four chunks a worker, at most 10 "
         "Castell or 40 Castle Combo games, one game of a bot that plans; a folder keeps its "
         "own). The results do not depend on it.")]


class _Rate(ProgressColumn):
    """Units a second, from rich's own moving estimate."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:.2f}/s", style="progress.data.speed")


def batch_progress(what: str, console: Console) -> Progress:
    """The progress bar of a batch on stderr (a terminal only): done/total, rate, ETA."""
    return Progress(what, BarColumn(), MofNCompleteColumn(), _Rate(), TimeElapsedColumn(),
                    "eta", TimeRemainingColumn(), console=console, transient=True,
                    disable=not console.is_terminal)


def found_line(console: Console, json: bool, progress: Progress | None = None,
               task: TaskID | None = None) -> Callable[[Found], None]:
    """What a tournament's folder held, said on stderr before the run goes on (on a terminal
    or not: a continued run that says nothing looks like a new one); the progress bar starts
    from there (its rate and time left count only the games played now)."""

    def say(found: Found) -> None:
        if progress is not None and task is not None:
            progress.reset(task, completed=found.played)
        if found.finished:
            again = "the summary" if json else "the tables"
            console.print(f"already finished: {found.played} of {found.games}; {again} again",
                          highlight=False, soft_wrap=True)
        else:
            console.print(f"continuing: {found.played} of {found.games} played",
                          highlight=False, soft_wrap=True)

    return say


def stopped(folder: str | None, code: ExitCode = ExitCode.INTERRUPTED) -> NoReturn:
    """Ctrl-C (130) or SIGTERM (143) in a batch: one line saying what was kept."""
    word = stop_word(code)
    if folder is None:
        fail_interrupted(f"{word}; nothing written", code)
    fail_interrupted(f"{word}: the finished chunks are kept in {folder}; run the same "
                     "command again to continue", code)


NOTES = logging.getLogger("castell.batches")  # `service.batches.folder`'s


class _Notes(logging.Handler):
    """A batch's notes as lines on stderr (above the progress bar, which redirects it)."""

    def emit(self, record: logging.LogRecord) -> None:
        sys.stderr.write(f"{record.getMessage()}\n")


class batch_stops:  # lower case: used as a `with` block, as contextlib's are
    """Around a batch: Ctrl-C (130), SIGTERM (143), or an error after either (the stop's
    doing: a pool whose workers were ended under it), ends the command with `stopped`'s one
    line, which says what was kept. An error after a stop would otherwise reach the edge's
    plain "interrupted" (one clean-clone CI run printed that on a Ctrl-C of `puzzle book`;
    not seen again in 64 tries). Any other error goes on."""

    def __init__(self, folder: str | None) -> None:
        self.folder = folder
        self.notes = _Notes()

    def __enter__(self) -> None:
        # the batch's notes (a chunk read back damaged, run again) on stderr, one line each
        NOTES.addHandler(self.notes)
        NOTES.propagate = False
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        NOTES.removeHandler(self.notes)
        NOTES.propagate = True
        if kind is None:
            return
        code = (ExitCode.INTERRUPTED if issubclass(kind, KeyboardInterrupt)
                else ExitCode.TERMINATED if issubclass(kind, Terminated)
                else stop_code() if issubclass(kind, Exception) else None)
        if code is not None:
            stopped(self.folder, code)
