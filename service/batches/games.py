"""What a tournament of either game folds its chunks into: every game record as read back,
and its line as written (for `games.jsonl`); and the check of a chunk's line."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

R = TypeVar("R")


def is_game_line(index: int, value: Any, seats: int) -> bool:
    """A game record of game `index` (its index, a seat per bot)."""
    return (isinstance(value, dict) and value.get("index") == index
            and isinstance(value.get("players"), list) and len(value["players"]) == seats)


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
