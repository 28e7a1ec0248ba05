"""Reading user files into pydantic models, with errors that name the field path."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, TypeVar

from pydantic import BaseModel, ValidationError

from models.errors import SpecError

M = TypeVar("M", bound=BaseModel)


def field_errors(error: ValidationError) -> str:
    """`field.path: message (got value)` for each problem, joined by `; `."""
    parts = []
    for problem in error.errors():
        path = ".".join(str(p) for p in problem["loc"])
        message = problem["msg"].removeprefix("Value error, ")
        shown = "" if problem["type"] == "missing" or not problem["loc"] \
            else f" (got {problem['input']!r})"
        parts.append(f"{path}: {message}{shown}" if path else message)
    return "; ".join(parts)


def validate(schema: type[M], data: Any, source: str) -> M:
    try:
        return schema.model_validate(data)
    except ValidationError as error:
        raise SpecError(f"{source}: {field_errors(error)}") from None


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise SpecError(f"cannot read '{path}': {error.strerror}") from None
    except UnicodeDecodeError:
        raise SpecError(f"'{path}' is not UTF-8 text") from None


def load_toml(schema: type[M], path: Path) -> M:
    try:
        data = tomllib.loads(read_text(path))
    except tomllib.TOMLDecodeError as error:
        raise SpecError(f"{path}: not valid TOML: {error}") from None
    return validate(schema, data, str(path))


def load_json(schema: type[M], path: Path) -> M:
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as error:
        raise SpecError(f"{path}: not valid JSON: {error.msg} at line {error.lineno}") from None
    return validate(schema, data, str(path))


@contextlib.contextmanager
def atomic_open(path: Path | str) -> Iterator[IO[str]]:
    """A text file that appears at `path` only when the `with` block ends without an error.

    It is written as a temporary file in the same folder (so the rename cannot cross a file
    system) and renamed over `path` at the end: a failure, a full disk or Ctrl-C inside the
    block leaves whatever was at `path` as it was, and no temporary file behind.
    """
    target = Path(path)
    try:
        fd, temporary = tempfile.mkstemp(dir=target.parent or Path("."),
                                         prefix=f".{target.name}.", suffix=".tmp")
    except OSError as error:
        raise SpecError(f"cannot write '{target}': {error.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except OSError as error:
        _discard(temporary)
        raise SpecError(f"cannot write '{target}': {error.strerror}") from None
    except BaseException:
        _discard(temporary)
        raise


def write_atomic(path: Path | str, text: str) -> None:
    """Write `text` to `path` atomically (see `atomic_open`)."""
    with atomic_open(path) as handle:
        handle.write(text)


def _discard(temporary: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(temporary)
