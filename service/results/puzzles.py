"""What the puzzle commands answer."""

from __future__ import annotations

from pydantic import Field

from service.results.base import Output, TowerStatus, _Part


class PuzzleGenerateOutput(Output):
    """`castell puzzle generate --out FILE --json`: what was written."""

    wrote: str
    puzzles: int


class PuzzleFailure(_Part):
    id: str
    problems: list[str]
    second: str | None = Field(description="A second solution, if one was found.")


class PuzzleCheckOutput(Output):
    """`castell puzzle check --json`."""

    ok: bool
    checked: int
    failed: list[PuzzleFailure]


class PuzzleSolveOutput(Output):
    """`castell puzzle solve --json`: one line per puzzle (JSON Lines)."""

    id: str
    status: TowerStatus
    tower: str | None
    objective: int | None
    matches_recorded: bool


class PuzzleSheetOutput(Output):
    """`castell puzzle sheet --json`."""

    wrote: list[str]
    puzzles: int
