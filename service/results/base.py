"""The results every use case returns, as pydantic models with one JSON form (`to_json()`):
`castell schema COMMAND` prints their JSON Schema, and the tests validate every command's real
output against them. Every model forbids unknown fields, so a field a use case adds without
adding it here fails at once: the schema cannot drift from the output. The state and puzzle
files are file formats read back by other commands: their schema is the file's own model, and
they carry no `schema_version`.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from service.results import SCHEMA_VERSION

SchemaVersion = Annotated[Literal[1], Field(
    description="The version of this output's schema; raised when a field is renamed, removed "
    "or changes meaning (new fields keep it).")]
TowerStatus = Literal["optimal", "feasible", "infeasible", "unknown"]


def json_line(value: Any) -> str:
    """One JSON object on one line (a lone surrogate from the input escaped, still valid)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, ensure_ascii=True)
    return text


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Output(_Part):
    """One object a command prints."""

    schema_version: SchemaVersion

    def to_json(self) -> str:
        """The one JSON form: one line, fields in the model's order, `schema_version` first,
        the optional fields only when they were given."""
        return json_line(self.model_dump(mode="json", by_alias=True, exclude_unset=True))


class BatchError(Output):
    """A batch line that could not be answered (the other lines still are)."""

    line: int = Field(description="1-based line number in the batch input.")
    error: str


class ErrorDetail(_Part):
    """What went wrong, as the one line on stderr says it."""

    code: Literal["no", "bad_input", "time_limit", "internal"] = Field(
        description="The kind of error, named as its exit code: `no` (1, a refused step or a "
        "proven no), `bad_input` (2), `time_limit` (3), `internal` (4, a bug).")
    message: str = Field(description="The line on stderr, without its `error: `.")
    exit: Literal[1, 2, 3, 4] = Field(description="The command's exit code.")
    reason: str | None = Field(None, description="A refused step's code "
                               "(`models.errors.Reason`), when a refusal ends the command.")


class ErrorOutput(Output):
    """What any command prints with `--json` when it ends on an error before printing its
    own object: a bad input or usage (exit 2), a refusal (1), a time limit (3), a bug (4)."""

    error: ErrorDetail


M = TypeVar("M", bound=Output)


def output_of(model: type[M], data: dict[str, Any]) -> M:
    """A use case's data read through its output model (unknown fields refused)."""
    return model.model_validate({"schema_version": SCHEMA_VERSION, **data})
