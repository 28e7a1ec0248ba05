"""Upper bounds on a tower's height, level width and festival score, from the pool, ranks
and rules; and whether a tile is in reach of a pool at all."""

from __future__ import annotations

from functools import lru_cache

from models.tower import Festival, Pool, Rules, SkillRanks, Tile
from planner.tower.dp import OutOfTime, dp_tower
from planner.tower.questions import BestTower, FestivalTower, TileCheck


def level_cap(pool: Pool, ranks: SkillRanks, rules: Rules, *, freeable: bool = True) -> int:
    """The most castellers one level can hold: one size, or two adjacent sizes with Mix; and
    no more than the width limit unless Base may free it (`freeable`)."""
    by_sizes = max((pool.count(s) + (pool.count(s + 1) if ranks.mix else 0)
                    for s in pool.sizes), default=0)
    if ranks.base and freeable:
        return by_sizes
    return min(by_sizes, rules.width_limit + ranks.width)


def max_height(pool: Pool, ranks: SkillRanks, rules: Rules) -> int:
    """No valid tower from `pool` is taller than this.

    Level lows fall strictly except at Strength uses, and each is a pool size; level counts fall
    strictly except at Balance uses, starting from at most the bottom level's cap.
    """
    by_sizes = len(pool.sizes) + ranks.strength
    by_counts = level_cap(pool, ranks, rules) + ranks.balance
    if ranks.base > 0 and rules.base_scope == "bottom-only":
        # only the bottom level may be freed: the next one starts the count from the limit
        by_counts = 1 + level_cap(pool, ranks, rules, freeable=False) + ranks.balance
    return max(0, min(pool.total, by_sizes, by_counts))


TALLEST_STATES = 10_000  # the dynamic program's budget (A states) for a bound: <~50 ms


@lru_cache(maxsize=512)
def tallest(pool: Pool, ranks: SkillRanks, rules: Rules, *,
            state_limit: int = TALLEST_STATES) -> int:
    """The height of the tallest valid tower from `pool`: exact, by the dynamic program, when
    it finishes within `state_limit` states (a budget in states, not seconds, so the bound is
    the same on every machine), else `max_height`. More castellers or ranks never lose a tower,
    so for a pool and ranks that are upper bounds this bounds every tower a sub-pool allows."""
    rough = max_height(pool, ranks, rules)
    if rough <= 1:
        return rough
    try:
        tower = dp_tower(BestTower(), pool, ranks, rules, float("inf"), state_limit)
    except OutOfTime:
        return rough
    return min(rough, tower.height if tower is not None else 0)


SCORE_STATES = 50_000  # the dynamic program's budget (A states) for a score bound: 1-25 ms


@lru_cache(maxsize=512)
def festival_cap(festival: Festival, pool: Pool, ranks: SkillRanks, rules: Rules, *,
                 state_limit: int = SCORE_STATES) -> int | None:
    """No tower from a sub-pool of `pool` with ranks up to `ranks` scores more than this at
    `festival`; None when none can compete there. The dynamic program's best score, exact
    for `pool` itself, when it finishes within `state_limit` states (the same bound on every
    machine), else the height bound plus the castellers of the token sizes. More castellers
    or ranks never lose a tower, so for an upper bound on a team it bounds the team's score."""
    if not festival.token_sizes <= set(pool.sizes):
        return None
    height = max_height(pool, ranks, rules)
    if height < rules.festival_min_levels:
        return None
    rough = height + sum(pool.count(z) for z in festival.token_sizes)
    try:
        tower = dp_tower(FestivalTower(festival), pool, ranks, rules, float("inf"), state_limit)
    except OutOfTime:
        return rough
    return None if tower is None else min(rough, festival.score(tower))


@lru_cache(maxsize=512)
def tile_in_reach(tile: Tile, pool: Pool, ranks: SkillRanks, rules: Rules, *,
                  state_limit: int = SCORE_STATES) -> bool:
    """Could a team within `pool` and `ranks` build a tower that meets `tile`: false only when
    the dynamic program proves no tower does (or the tile is taller than the height bound);
    true when it finds one, or runs out of states."""
    if tile.height > max_height(pool, ranks, rules):
        return False
    try:
        return dp_tower(TileCheck(tile), pool, ranks, rules, float("inf"), state_limit) is not None
    except OutOfTime:
        return True
