"""Upper bounds on a tower's height, level width and festival score, from the pool, ranks
and rules; and whether a tile is in reach of a pool at all."""

from __future__ import annotations

from functools import lru_cache

from models.tower import Festival, Pool, Rules, SkillRanks, Tile, Tower
from planner.clock import now
from planner.stopping import stop_requested
from planner.tower.budget import DEFAULT_TOWER, TowerBudget
from planner.tower.dp import OutOfTime, dp_tower
from planner.tower.questions import BestTower, FestivalTower, Question, TileCheck

# The bounds' programs run on a budget of states (`TowerBudget.tallest_states`,
# `score_states`: the same bound on every machine) and a wall clock as a safety net
# (`TowerBudget.bound_wall`). Only what the state budget decides is cached: a bound the clock
# cut short or a stop of the request is rough this once (`_Cut`).


class _Cut(Exception):
    """The clock or a stop of the request, not the state budget, ended a bound's program."""


def _bound_program(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules,
                   state_limit: int, budget: TowerBudget) -> Tower | None:
    deadline = now() + budget.bound_wall
    try:
        return dp_tower(question, pool, ranks, rules, deadline, state_limit, stoppable=True,
                        budget=budget)
    except OutOfTime:
        if stop_requested() or now() > deadline:
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


def tallest(pool: Pool, ranks: SkillRanks, rules: Rules, *, state_limit: int | None = None,
            budget: TowerBudget = DEFAULT_TOWER) -> int:
    """The height of the tallest valid tower from `pool`: exact, by the dynamic program, when
    it finishes within `state_limit` states (None: the budget's `tallest_states`; a budget in
    states, not seconds, so the bound is the same on every machine), else `max_height`. More
    castellers or ranks never lose a tower, so for a pool and ranks that are upper bounds this
    bounds every tower a sub-pool allows."""
    limit = budget.tallest_states if state_limit is None else state_limit
    try:
        return _tallest(pool, ranks, rules, limit, budget)
    except _Cut:
        return max_height(pool, ranks, rules)


@lru_cache(maxsize=512)
def _tallest(pool: Pool, ranks: SkillRanks, rules: Rules, state_limit: int,
             budget: TowerBudget) -> int:
    rough = max_height(pool, ranks, rules)
    if rough <= 1:
        return rough
    try:
        tower = _bound_program(BestTower(), pool, ranks, rules, state_limit, budget)
    except OutOfTime:
        return rough
    return min(rough, tower.height if tower is not None else 0)


def festival_cap(festival: Festival, pool: Pool, ranks: SkillRanks, rules: Rules, *,
                 state_limit: int | None = None, budget: TowerBudget = DEFAULT_TOWER
                 ) -> int | None:
    """No tower from a sub-pool of `pool` with ranks up to `ranks` scores more than this at
    `festival`; None when none can compete there. The dynamic program's best score, exact
    for `pool` itself, when it finishes within `state_limit` states (None: the budget's
    `score_states`; the same bound on every machine), else the height bound plus the
    castellers of the token sizes. More castellers or ranks never lose a tower, so for an
    upper bound on a team it bounds the team's score."""
    limit = budget.score_states if state_limit is None else state_limit
    try:
        return _festival_cap(festival, pool, ranks, rules, limit, budget)
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
                  state_limit: int, budget: TowerBudget) -> int | None:
    rough = _rough_cap(festival, pool, ranks, rules)
    if rough is None:
        return None
    try:
        tower = _bound_program(FestivalTower(festival), pool, ranks, rules, state_limit,
                               budget)
    except OutOfTime:
        return rough
    return None if tower is None else min(rough, festival.score(tower))


def tile_in_reach(tile: Tile, pool: Pool, ranks: SkillRanks, rules: Rules, *,
                  state_limit: int | None = None, budget: TowerBudget = DEFAULT_TOWER) -> bool:
    """Could a team within `pool` and `ranks` build a tower that meets `tile`: false only when
    the dynamic program proves no tower does (or the tile is taller than the height bound);
    true when it finds one, or runs out of states (None: the budget's `score_states`) or of
    its wall (`bound_wall`)."""
    if tile.height > max_height(pool, ranks, rules):
        return False
    limit = budget.score_states if state_limit is None else state_limit
    try:
        return _tile_in_reach(tile, pool, ranks, rules, limit, budget)
    except _Cut:
        return True


@lru_cache(maxsize=512)
def _tile_in_reach(tile: Tile, pool: Pool, ranks: SkillRanks, rules: Rules,
                   state_limit: int, budget: TowerBudget) -> bool:
    try:
        return _bound_program(TileCheck(tile), pool, ranks, rules, state_limit,
                              budget) is not None
    except OutOfTime:
        return True


# the caches behind the bounds, to empty between measured runs (benchmarks/)
tallest.cache_clear = _tallest.cache_clear  # type: ignore[attr-defined]
festival_cap.cache_clear = _festival_cap.cache_clear  # type: ignore[attr-defined]
tile_in_reach.cache_clear = _tile_in_reach.cache_clear  # type: ignore[attr-defined]
