"""Tower finders for the referee: the best festival tower and a tower that meets a tile."""

from __future__ import annotations

from functools import lru_cache

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
    return _tile_tower(pool, ranks, tile, rules, time_limit)


# The referee asks this for every tile of the region a player stands in each time it lists
# the legal actions (every page drawn, every bot's step) and the answer depends on its
# arguments alone: the dynamic program is exact here (not stoppable), so an answer kept is
# the answer again. Bounded: a team, its ranks and a tile are a few hundred bytes.
@lru_cache(maxsize=4096)
def _tile_tower(pool: Pool, ranks: SkillRanks, tile: Tile, rules: Rules,
                time_limit: float) -> Tower | None:
    return solve(TileCheck(tile), pool, ranks, rules, time_limit=time_limit).tower
