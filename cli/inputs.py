"""Turning option text and batch lines into domain values; pydantic errors as `field: message`."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import typer

from cli.edge import ExitCode, emit_json
from models.errors import SpecError
from models.files import MAX_FILE_BYTES, TOO_LONG_NUMBER, check_depth, decode, read_text
from models.tower import Pool, Rules, SkillRanks, rules_named

if TYPE_CHECKING:  # pydantic is imported when a batch line is read, not by every command
    from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound="BaseModel")
MAX_LINE = 100_000  # characters in one batch line: a line holds a few short notations


def read_inputs(pool: str | None, skills: str, rules: str) -> tuple[Pool | None, SkillRanks, Rules]:
    variant = rules_named(rules)
    return (Pool.parse(pool, variant) if pool is not None else None,
            SkillRanks.parse(skills), variant)


def validation_message(error: ValidationError) -> str:
    """`field.path: message` for each problem, joined by `; `."""
    parts = []
    for problem in error.errors():
        path = ".".join(str(p) for p in problem["loc"]) or "(line)"
        parts.append(f"{path}: {problem['msg']}")
    return "; ".join(parts)


def batch_lines(source: str | Path) -> Iterator[tuple[int, str]]:
    """Numbered non-blank lines of a file, or of stdin for `-` (size-capped before reading)."""
    if str(source) == "-":
        text = decode(sys.stdin.buffer.read(MAX_FILE_BYTES + 1), "stdin")
    else:
        text = read_text(Path(source))
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield number, line


def emit_batch(source: str | Path, schema: type[M], handle: Callable[[M], dict[str, Any]]
               ) -> NoReturn:
    """Print one JSON result per line; exit 4 if a line met an internal error, else 2 if any
    line was bad, else 0."""
    bad = internal = False
    for item in run_batch(source, schema, handle):
        bad |= "error" in item
        internal |= str(item.get("error", "")).startswith("internal error")
        emit_json(item)
    raise typer.Exit(ExitCode.INTERNAL if internal else
                     ExitCode.BAD_INPUT if bad else ExitCode.YES)


def run_batch(source: str | Path, schema: type[M], handle: Callable[[M], dict[str, Any]]
              ) -> Iterator[dict[str, Any]]:
    """One result object per line; a bad line gives `{"line": n, "error": ...}` and we go on."""
    for number, line in batch_lines(source):
        try:
            yield handle(read_line(line, schema))
        except SpecError as error:
            yield {"line": number, "error": str(error)}
        except Exception as error:  # a bug on one line must not cost the user the others
            yield {"line": number, "error": f"internal error ({type(error).__name__}: {error})"}


def read_line(line: str, schema: type[M]) -> M:
    """One batch line as `schema`: bounded, JSON, text (no lone surrogates), valid."""
    if len(line) > MAX_LINE:
        raise SpecError(f"the line is {len(line)} characters long; at most {MAX_LINE}")
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise SpecError(f"not JSON: {error.msg} at column {error.colno}") from None
    except RecursionError:
        raise SpecError("nested too deep") from None
    except ValueError:  # Python's int-conversion limit (models.files.parse_json)
        raise SpecError(TOO_LONG_NUMBER) from None
    check_depth(data, "the line")
    from pydantic import ValidationError

    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise SpecError("holds a lone surrogate (\\ud800-\\udfff): not text") from None
    try:
        return schema.model_validate(data)
    except ValidationError as error:
        raise SpecError(validation_message(error)) from None
