"""Batch input and output at the edge: the numbered lines of a file or stdin, one JSON answer
printed per line, and the exit code the lines earned. Reading each line as its model and
answering it is the application layer's (`service.batch`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer

from cli.edge import ExitCode, emit_json, emit_output
from cli.options import complete_rules
from models.errors import SpecError
from models.files import MAX_FILE_BYTES, decode, read_text
from models.tower import VARIANTS

if TYPE_CHECKING:  # pydantic is imported when a batch line is read, not by every command
    from pydantic import BaseModel

    from service.batch import BatchItem

M = TypeVar("M", bound="BaseModel")

# --rules of the tower questions: None when not given, so that with --state it can be refused
# (the game's readings are its own) rather than silently dropped
TowerRules = Annotated[str | None, typer.Option(
    "--rules", "-r", autocompletion=complete_rules, show_default=False,
    help=f"Rule variant ({', '.join(VARIANTS)}; default: standard), then switch=value items; "
    "see `castell rules`. Not with --state: the game's readings are stored in it.")]
WhatIfRules = Annotated[str | None, typer.Option(
    "--what-if-rules", metavar="RULES", autocompletion=complete_rules,
    help="With --state: ask under these readings instead of the game's (a what-if; the "
    "answer says so).")]


def batch_lines(source: str | Path) -> Iterator[tuple[int, str]]:
    """Numbered non-blank lines of a file, or of stdin for `-` (size-capped before reading)."""
    if str(source) == "-":
        if sys.stdin is None:  # `<&-`: no standard input at all
            raise SpecError("--batch -: standard input is closed; give a file instead")
        text = decode(sys.stdin.buffer.read(MAX_FILE_BYTES + 1), "stdin")
    else:
        text = read_text(Path(source))
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield number, line


def emit_items(items: Iterable[BatchItem[Any]]) -> NoReturn:
    """Print one JSON answer per line; exit 4 if a line met an internal error, else 2 if any
    line was bad, else 0."""
    bad = internal = False
    for item in items:
        bad |= item.bad
        internal |= item.internal
        if isinstance(item.output, dict):
            emit_json(item.output)
        else:
            emit_output(item.output)
    raise typer.Exit(ExitCode.INTERNAL if internal else
                     ExitCode.BAD_INPUT if bad else ExitCode.YES)


def emit_batch(source: str | Path, schema: type[M], handle: Callable[[M], dict[str, Any]]
               ) -> NoReturn:
    """A batch whose answers are still dicts (`castell combo score --batch`, until its use
    case returns a result model): each line answered by `handle`, printed, the exit code as
    `emit_items` says."""
    from service.batch import answer_lines

    emit_items(answer_lines(batch_lines(source), schema, handle))
