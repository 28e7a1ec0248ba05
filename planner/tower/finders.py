"""Tower finders for the referee: the best festival tower and a tower that meets a tile."""

from __future__ import annotations

from models.tower import Festival, Pool, Rules, SkillRanks, Tile, Tower
from planner.tower.api import DEFAULT_TIME_LIMIT, solve
from planner.tower.questions import FestivalTower, TileCheck


def festival_tower(pool: Pool, ranks: SkillRanks, festival: Festival, rules: Rules,
                   time_limit: float = DEFAULT_TIME_LIMIT) -> Tower | None:
    """The player's best festival tower, or None when no tower can compete."""
    if not pool.total:
        return None
    return solve(FestivalTower(festival), pool, ranks, rules, time_limit=time_limit).tower


def tile_tower(pool: Pool, ranks: SkillRanks, tile: Tile, rules: Rules,
               time_limit: float = DEFAULT_TIME_LIMIT) -> Tower | None:
    """A tower of the pool that meets a tile, or None (the referee's tile finder)."""
    if not pool.total:
        return None
    return solve(TileCheck(tile), pool, ranks, rules, time_limit=time_limit).tower
