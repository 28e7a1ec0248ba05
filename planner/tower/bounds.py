"""Upper bounds on a tower's height, level width and festival score, from the pool, ranks
and rules; and whether a tile is in reach of a pool at all."""

from __future__ import annotations

import time
from functools import lru_cache

from models.tower import Festival, Pool, Rules, SkillRanks, Tile, Tower
from planner.stopping import stop_requested
from planner.tower.dp import OutOfTime, dp_tower
from planner.tower.questions import BestTower, FestivalTower, Question, TileCheck

# The bounds' programs run on a budget of states (the same bound on every machine: 1-25 ms on
# the teams of a game), and this wall clock as a safety net: a state is far dearer on a team
# of the whole bag with ranks at 150 (50,000 states took 40 s), where the bound falls back to
# its rough form. Only what the state budget decides is cached: a bound the clock cut short
# (a loaded machine can be that slow on an ordinary team) or a stop of the request (a cancel,
# its deadline) is rough this once, so that the same question gets the same bound whenever
# the machine is free again.
BOUND_WALL = 0.15


class _Cut(Exception):
    """The clock or a stop of the request, not the state budget, ended a bound's program."""


def _bound_program(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules,
                   state_limit: int) -> Tower | None:
    deadline = time.perf_counter() + BOUND_WALL
    try:
        return dp_tower(question, pool, ranks, rules, deadline, state_limit, stoppable=True)
    except OutOfTime:
        if stop_requested() or time.perf_counter() > deadline:
            raise _Cut from None
        raise


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


def tallest(pool: Pool, ranks: SkillRanks, rules: Rules, *,
            state_limit: int = TALLEST_STATES) -> int:
    """The height of the tallest valid tower from `pool`: exact, by the dynamic program, when
    it finishes within `state_limit` states (a budget in states, not seconds, so the bound is
    the same on every machine), else `max_height`. More castellers or ranks never lose a tower,
    so for a pool and ranks that are upper bounds this bounds every tower a sub-pool allows."""
    try:
        return _tallest(pool, ranks, rules, state_limit)
    except _Cut:
        return max_height(pool, ranks, rules)


@lru_cache(maxsize=512)
def _tallest(pool: Pool, ranks: SkillRanks, rules: Rules, state_limit: int) -> int:
    rough = max_height(pool, ranks, rules)
    if rough <= 1:
        return rough
    try:
        tower = _bound_program(BestTower(), pool, ranks, rules, state_limit)
    except OutOfTime:
        return rough
    return min(rough, tower.height if tower is not None else 0)


SCORE_STATES = 50_000  # the dynamic program's budget (A states) for a score bound: 1-25 ms


def festival_cap(festival: Festival, pool: Pool, ranks: SkillRanks, rules: Rules, *,
                 state_limit: int = SCORE_STATES) -> int | None:
    """No tower from a sub-pool of `pool` with ranks up to `ranks` scores more than this at
    `festival`; None when none can compete there. The dynamic program's best score, exact
    for `pool` itself, when it finishes within `state_limit` states (the same bound on every
    machine), else the height bound plus the castellers of the token sizes. More castellers
    or ranks never lose a tower, so for an upper bound on a team it bounds the team's score."""
    try:
        return _festival_cap(festival, pool, ranks, rules, state_limit)
    except _Cut:
        return _rough_cap(festival, pool, ranks, rules)


def _rough_cap(festival: Festival, pool: Pool, ranks: SkillRanks, rules: Rules) -> int | None:
    if not festival.token_sizes <= set(pool.sizes):
        return None
    height = max_height(pool, ranks, rules)
    if height < rules.festival_min_levels:
        return None
    return height + sum(pool.count(z) for z in festival.token_sizes)


@lru_cache(maxsize=512)
def _festival_cap(festival: Festival, pool: Pool, ranks: SkillRanks, rules: Rules,
                  state_limit: int) -> int | None:
    rough = _rough_cap(festival, pool, ranks, rules)
    if rough is None:
        return None
    try:
        tower = _bound_program(FestivalTower(festival), pool, ranks, rules, state_limit)
    except OutOfTime:
        return rough
    return None if tower is None else min(rough, festival.score(tower))


def tile_in_reach(tile: Tile, pool: Pool, ranks: SkillRanks, rules: Rules, *,
                  state_limit: int = SCORE_STATES) -> bool:
    """Could a team within `pool` and `ranks` build a tower that meets `tile`: false only when
    the dynamic program proves no tower does (or the tile is taller than the height bound);
    true when it finds one, or runs out of states (or of `BOUND_WALL`)."""
    if tile.height > max_height(pool, ranks, rules):
        return False
    try:
        return _tile_in_reach(tile, pool, ranks, rules, state_limit)
    except _Cut:
        return True


@lru_cache(maxsize=512)
def _tile_in_reach(tile: Tile, pool: Pool, ranks: SkillRanks, rules: Rules,
                   state_limit: int) -> bool:
    try:
        return _bound_program(TileCheck(tile), pool, ranks, rules, state_limit) is not None
    except OutOfTime:
        return True


# the caches behind the bounds, to empty between measured runs (benchmarks/)
tallest.cache_clear = _tallest.cache_clear  # type: ignore[attr-defined]
festival_cap.cache_clear = _festival_cap.cache_clear  # type: ignore[attr-defined]
tile_in_reach.cache_clear = _tile_in_reach.cache_clear  # type: ignore[attr-defined]
