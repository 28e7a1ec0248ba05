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


M = TypeVar("M", bound=Output)


def output_of(model: type[M], data: dict[str, Any]) -> M:
    """A use case's data read through its output model (unknown fields refused)."""
    return model.model_validate({"schema_version": SCHEMA_VERSION, **data})
