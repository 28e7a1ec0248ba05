"""Reading user files into pydantic models, with errors that name the field path."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any, TypeVar

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
