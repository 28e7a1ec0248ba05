"""What the batch commands (`puzzle book`, `combo tournament --out/--dask`) share at the
edge: the --dask option, the progress bar, and the one line a stopped batch prints."""

from __future__ import annotations

from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from cli.edge import ExitCode, fail_interrupted, stop_code

Dask = Annotated[str | None, typer.Option(
    "--dask", metavar="ADDRESS",
    help="Run the chunks on a Dask cluster: its scheduler (tcp://HOST:8786), or local:N to "
         "start N worker processes here (needs the extra: pip install -e '.[dask]').")]


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


def stopped(folder: str | None, code: ExitCode = ExitCode.INTERRUPTED) -> NoReturn:
    """Ctrl-C (130) or SIGTERM (143) in a batch: one line saying what was kept."""
    word = "terminated" if code == ExitCode.TERMINATED else "interrupted"
    if folder is None:
        fail_interrupted(f"{word}; nothing written", code)
    fail_interrupted(f"{word}: the finished chunks are kept in {folder}; run the same "
                     "command again to continue", code)


def stopped_if_interrupted(folder: str | None) -> None:
    """An error in a batch after Ctrl-C or SIGTERM is the stop's doing (a pool whose workers
    were ended under it): the same one line as the stop itself, not the plain "interrupted"
    of the edge, which does not know what was kept (one clean-clone CI run printed that on a
    Ctrl-C of `puzzle book`; not seen again in 64 tries)."""
    code = stop_code()
    if code is not None:
        stopped(folder, code)
