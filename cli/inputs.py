"""Turning option text and batch lines into domain values; pydantic errors as `field: message`."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import typer
from pydantic import BaseModel, ValidationError

from cli.edge import ExitCode, emit_json
from models.errors import SpecError
from models.tower import Pool, Rules, SkillRanks, rules_named

M = TypeVar("M", bound=BaseModel)


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


def batch_lines(source: str) -> Iterator[tuple[int, str]]:
    """Numbered non-blank lines of a file, or of stdin for `-`."""
    if source == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(source).read_text(encoding="utf-8")
        except OSError as error:
            raise SpecError(f"cannot read batch file '{source}': {error.strerror}") from None
        except UnicodeDecodeError:
            raise SpecError(f"batch file '{source}' is not UTF-8 text") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield number, line


def emit_batch(source: str, schema: type[M], handle: Callable[[M], dict[str, Any]]
               ) -> NoReturn:
    """Print one JSON result per line; exit 2 if any line was bad, else 0."""
    bad = False
    for item in run_batch(source, schema, handle):
        bad |= "error" in item
        emit_json(item)
    raise typer.Exit(ExitCode.BAD_INPUT if bad else ExitCode.YES)


def run_batch(source: str, schema: type[M], handle: Callable[[M], dict[str, Any]]
              ) -> Iterator[dict[str, Any]]:
    """One result object per line; a bad line gives `{"line": n, "error": ...}` and we go on."""
    for number, line in batch_lines(source):
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            yield {"line": number, "error": f"not JSON: {error.msg} at column {error.colno}"}
            continue
        try:
            item = schema.model_validate(data)
        except ValidationError as error:
            yield {"line": number, "error": validation_message(error)}
            continue
        try:
            yield handle(item)
        except SpecError as error:
            yield {"line": number, "error": str(error)}
