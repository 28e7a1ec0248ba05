"""JSON Lines batches: each line read as its model and answered, a bad line answered with an
error line (the other lines still are). The interfaces give the lines (a file, stdin, a
request body) and print the answers.

Which lines were bad, and which met a bug, is carried on each answer (`BatchItem`), not read
back from the error's message. pydantic is imported when a line is read, not with the module,
so that a command that runs no batch does not load it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from models.errors import SpecError
from models.files import TOO_LONG_NUMBER, check_depth

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError

    from service.results.base import BatchError

M = TypeVar("M", bound="BaseModel")
T = TypeVar("T")
MAX_LINE = 100_000  # characters in one batch line: a line holds a few short notations


@dataclass(frozen=True)
class BatchItem(Generic[T]):
    """One line's answer, or its error line; `bad` and `internal` say which it is."""

    output: T | BatchError
    bad: bool = False  # the line was bad input: `output` is its error line
    internal: bool = False  # the line met a bug (also `bad`)


def answer_lines(lines: Iterable[tuple[int, str]], schema: type[M], handle: Callable[[M], T]
                 ) -> Iterator[BatchItem[T]]:
    """`handle`'s answer to each numbered line read as `schema`; a bad line gives
    `{"line": n, "error": ...}` and we go on."""
    from service.results.base import BatchError, output_of

    for number, line in lines:
        try:
            yield BatchItem(handle(read_line(line, schema)))
        except SpecError as error:
            yield BatchItem(output_of(BatchError, {"line": number, "error": str(error)}),
                            bad=True)
        except Exception as error:  # a bug on one line must not cost the user the others
            message = f"internal error ({type(error).__name__}: {error})"
            yield BatchItem(output_of(BatchError, {"line": number, "error": message}),
                            bad=True, internal=True)


def validation_message(error: ValidationError) -> str:
    """`field.path: message` for each problem, joined by `; `."""
    parts = []
    for problem in error.errors():
        path = ".".join(str(p) for p in problem["loc"]) or "(line)"
        parts.append(f"{path}: {problem['msg']}")
    return "; ".join(parts)


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
