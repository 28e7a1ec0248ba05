"""What a tournament of either game folds its chunks into: every game record as read back,
and its line as written (for `games.jsonl`); and the check of a chunk's line."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from planner.tournaments import Dealt, TournamentGame

R = TypeVar("R")
S = TypeVar("S")


def game_line_fault(game: TournamentGame[S, Any, Any], setup: S, dealt: Dealt, line: str
                    ) -> str | None:
    """Why `line`, read back from a chunk, is not the record the job would have written for
    game `dealt` (None: it is one it could have): JSON that the game reads as a record, written
    back to the very same line (every field there, of its type, nothing else), its identity
    `dealt`'s (the index, the players, the bots, the deal) and its lists one a player
    (`TournamentGame.record_fault`). Issue 53: `{"index": N, "players": [null, null]}` passed
    and the summary failed on it (exit 4); players `["x", "y"]` changed the results."""
    try:
        data = json.loads(line)
        if not isinstance(data, dict):
            return "not a game record"
        record = game.read_record(data)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError):
        return "not a game record"
    if json.dumps(record.as_dict()) != line:
        return "not a game record as the tournament writes it (a field missing, extra or of " \
            "another type)"
    return game.record_fault(setup, record, dealt)


@dataclass
class GameRecords(Generic[R]):
    """The reducer of a tournament of `games` games: `read` makes a record of a line's JSON;
    the lines are kept for `games.jsonl` (not without a folder to write them to)."""

    games: int
    read: Callable[[dict[str, Any]], R]
    keep_lines: bool = True
    lines: list[str] = field(default_factory=list)
    records: list[R] = field(default_factory=list)

    def add(self, lines: list[str]) -> None:
        if self.keep_lines:
            self.lines += lines
        self.records += [self.read(json.loads(line)) for line in lines]

    @property
    def done(self) -> int:
        return len(self.records)

    @property
    def finished(self) -> bool:
        return len(self.records) >= self.games
