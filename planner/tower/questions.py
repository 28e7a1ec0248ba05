"""The three questions a player asks of a casteller pool."""

from __future__ import annotations

from dataclasses import dataclass

from models.tower import Festival, Tile


@dataclass(frozen=True)
class BestTower:
    """The tallest tower, then the one with the most castellers."""

    def __str__(self) -> str:
        return "best tower"


@dataclass(frozen=True)
class FestivalTower:
    """The highest festival score among towers that may compete at `festival`."""

    festival: Festival

    def __str__(self) -> str:
        return f"festival {self.festival}"


@dataclass(frozen=True)
class TileCheck:
    """Any tower that meets a local performance tile."""

    tile: Tile

    def __str__(self) -> str:
        return str(self.tile)


Question = BestTower | FestivalTower | TileCheck
