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


class PuzzleBookOutput(Output):
    """`castell puzzle book --json`: the book's folder and what the run did."""

    folder: str
    wrote: list[str] = Field(description="The book (puzzles.jsonl), then any sheets.")
    puzzles: int
    candidates: int = Field(description="Candidates of the stream the book was drawn from "
                                        "(repeats and misses passed over).")
    chunks: int = Field(description="Chunks of candidates the book is made of.")
    chunks_run: int = Field(description="Chunks run by this command.")
    chunks_resumed: int = Field(description="Finished chunks read back from the folder.")
    engine: str = Field(description="Where the chunks ran.")
