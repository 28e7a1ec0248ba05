"""The fast exact engine: a dynamic program over casteller sizes, largest first.

A valid tower is a run of levels per low size, sizes falling bottom to top (the CP-SAT layout's
slots): the run of low size s starts with one level of s castellers, maybe mixed with s + 1
castellers (a Mix use, and a Strength use when it stands on a level of low s + 1), and goes on
with levels of s castellers only, each one a Strength use. Level counts never grow (an equal
count is a Balance use; the one-fewer reading allows only equal or one fewer); a level over the
width limit W + k is freed by Base, and since counts never grow the freed levels are a bottom
prefix, so Base is one more budget. What a level may be depends only on

    A(s, count below, are all size s + 1 castellers still free, Balance/Strength/Mix/Base uses
      left, [level index], [festival tokens seen], [Width used])

the best rest of a tower whose next level has low size at most s, and

    B(s, count below, size s castellers left, the same uses and flags)

the best rest inside the run of low s: one more level of size s, a mixed level of low s - 1
topped by size s castellers (both Strength uses, standing on low s), or on to A(s - 1). Both
are memoised. States are normalised to what can still matter (castellers left capped at what
the levels above could use, a level below wider than anything that can stand on it counted as
one wider than that, uses capped by the levels left), so big pools share states; a mixed level
is split between its two sizes only in the ways that can be best. Branch and bound: each state
is asked with a threshold (what its caller already has, less the caller's score so far) and is
exact only above it; an option whose score plus a bound on what the rest can add (`ceiling`:
levels and castellers the widths above allow, the castellers still left, in a festival the
levels that can hold a token size) cannot beat the threshold or the state's best so far is
not explored, and a state whose stored bound is not enough for a later caller is evaluated
again. The program still covers every valid tower (each one is explored or bounded), so its
answer is a proof; the tower is still re-checked by the `models` checker, like every engine's.

Width (k, how far the limit is raised) is fixed per program: the whole Width rank for every
question but a skill exhibition that asks for Width or Base, which tries every k (a smaller k
may be what lets Base and Width both be used, as in the checker's accountings). A festival is
first solved without its two side conditions (4 levels, every token size present): when that
tower meets them it is optimal, and only otherwise is the program re-run tracking them.

With every skill at rank 0 (how every game starts) `planner.tower.plain` answers instead: a
short exact program for plain towers (see there why), whose tower is checked here the same way.

The program is three modules: this one asks the questions (which programs to run, the checker's
verdict, the result); `planner.tower.dp_space` holds one program's tables, the normal form of
its states and the ceiling; `planner.tower.dp_search` the memoised A and B and the tower they
prove.
"""

from __future__ import annotations

from functools import lru_cache

from models.tower import (
    CheckResult,
    ExhibitionTile,
    Pool,
    Rules,
    ShapeTile,
    Skill,
    SkillRanks,
    Tower,
    check_tower,
    tile_shortfalls,
)
from planner.clock import now
from planner.tower.budget import DEFAULT_TOWER, TowerBudget
from planner.tower.dp_search import Search
from planner.tower.dp_space import NEG, Ask, OutOfMemory, OutOfTime, sizes_inside
from planner.tower.objective import objective_of
from planner.tower.plain import no_ranks, plain_tower
from planner.tower.questions import FestivalTower, Question, TileCheck
from planner.tower.result import SolveResult, Status

__all__ = ["NEG", "Ask", "OutOfMemory", "OutOfTime", "dp_tower", "most_levels", "solve_dp"]


def _program(ask: Ask, pool: Pool, ranks: SkillRanks, rules: Rules, k: int,
             deadline: float, state_limit: int | None = None, stoppable: bool = False,
             budget: TowerBudget = DEFAULT_TOWER) -> Tower | None:
    """The best tower for `ask` with Width raise k (for a tile: any tower that meets it).
    Raises OutOfTime after `deadline`, or beyond `state_limit` A states (a limit that does
    not depend on the machine's speed, for bounds that must be deterministic), or beyond the
    budget's `max_states` in all."""
    if not sizes_inside(pool, rules):
        return None
    most = budget.max_states
    most_states = min(state_limit, most) if state_limit is not None else most
    return Search(ask, pool, ranks, rules, k, deadline, most_states, stoppable, most).tower()


def most_levels(pool: Pool, ranks: SkillRanks, rules: Rules) -> int:
    """At most how many levels a valid tower of `pool` has. A level's smallest size is below
    that of the level under it unless the level is a Strength use: at most one level per size
    plus one per use. Counts never grow: every level holds a count of its own among 1..K (K,
    the width limit raised by Width) but the equal ones (Balance uses) and those over K (Base
    uses). A festival's least height above this is a proof that no tower qualifies."""
    sizes = sum(1 for s, _ in pool.items if rules.min_size <= s <= rules.max_size)
    base = min(ranks.base, 1) if rules.base_scope == "bottom-only" else ranks.base
    by_counts = rules.width_limit + ranks.width + ranks.balance + base
    return min(sizes + ranks.strength, by_counts, pool.total)


@lru_cache(maxsize=64)
def _asks(question: Question, rules: Rules) -> tuple[Ask, ...]:
    """The programs to run, in order, until one gives a tower that answers the question."""
    if isinstance(question, FestivalTower):
        tokens = question.festival.token_sizes
        relaxed = Ask("festival", tokens)
        exact = Ask("festival", tokens, track_tokens=True, min_levels=rules.festival_min_levels)
        return (relaxed, exact)
    if isinstance(question, TileCheck):
        tile = question.tile
        if isinstance(tile, ShapeTile):
            return (Ask("shape", shape=tile.counts),)
        return (Ask("exhibition", points=tile.points, required=tile.skills),)
    return (Ask("best"),)


def _widths(ask: Ask, ranks: SkillRanks) -> list[int]:
    """The Width raises k to try: only an exhibition of Width or Base needs a smaller one."""
    if ask.required & {Skill.WIDTH, Skill.BASE}:
        return list(range(ranks.width + 1))
    return [ranks.width]


def _answers(question: Question, check: CheckResult, rules: Rules) -> bool:
    if not check.valid:
        return False
    if isinstance(question, FestivalTower):
        return question.festival.eligible(check.tower, rules)
    if isinstance(question, TileCheck):
        return not tile_shortfalls(question.tile, check)
    return True


def dp_tower(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules,
             deadline: float, state_limit: int | None = None, stoppable: bool = False,
             budget: TowerBudget = DEFAULT_TOWER) -> Tower | None:
    """The tower the program proves best (for a tile, one that meets it), or None when no
    tower answers the question. Raises OutOfTime after `deadline` (`planner.clock.now`) or
    `state_limit` states."""
    checked = _checked_tower(question, pool, ranks, rules, deadline, state_limit, stoppable,
                             budget)
    return None if checked is None else checked.tower


def _hopeless(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules) -> bool:
    """No tower can answer: a festival's token size missing from the pool or its least height
    above any tower's, an exhibition of a skill without a rank."""
    if isinstance(question, FestivalTower):
        return (not question.festival.token_sizes <= set(pool.sizes)
                or most_levels(pool, ranks, rules) < rules.festival_min_levels)
    if isinstance(question, TileCheck) and isinstance(question.tile, ExhibitionTile):
        return any(ranks[s] == 0 for s in question.tile.skills)
    return False


def _checked_tower(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules,
                   deadline: float, state_limit: int | None = None, stoppable: bool = False,
                   budget: TowerBudget = DEFAULT_TOWER) -> CheckResult | None:
    """`dp_tower`, with the `models` checker's verdict on the tower (every tower the program
    gives is checked, once)."""
    if _hopeless(question, pool, ranks, rules):
        return None
    if no_ranks(ranks):  # the commonest case at the table: a short exact program of its own
        tower = plain_tower(question, pool, rules)
        if tower is None:
            return None
        check = check_tower(tower, ranks, rules, pool)
        if not _answers(question, check, rules):
            raise AssertionError(f"the dp engine's tower {tower} does not answer {question}")
        return check
    asks = _asks(question, rules)
    for n, ask in enumerate(asks):
        last = n == len(asks) - 1
        for k in _widths(ask, ranks):
            tower = _program(ask, pool, ranks, rules, k, deadline, state_limit, stoppable,
                             budget)
            if tower is None:
                continue
            check = check_tower(tower, ranks, rules, pool)
            if _answers(question, check, rules):
                return check
            if last:  # the exact program's tower must answer: anything else is a bug here
                raise AssertionError(f"the dp engine's tower {tower} does not answer {question}")
            break  # the relaxation's optimum misses a side condition: run the exact program
    return None


def solve_dp(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules, *,
             time_limit: float = 10.0, stoppable: bool = False,
             budget: TowerBudget = DEFAULT_TOWER) -> SolveResult:
    """Answer `question` exactly by the dynamic program; `optimal`/`infeasible` are proofs.
    `stoppable`: a cancel of the request, or its deadline, stops it as its time limit would
    (not for the referee's finders: a festival's tower is never cut short by a clock)."""
    started = now()
    try:
        check = _checked_tower(question, pool, ranks, rules, started + time_limit,
                               stoppable=stoppable, budget=budget)
    except OutOfMemory:  # the states kept, not the clock: more time would not help
        elapsed = now() - started
        return SolveResult(Status.UNKNOWN, None, None, None, None, elapsed, "dp",
                           memory_hit=True)
    except OutOfTime:
        elapsed = now() - started
        return SolveResult(Status.UNKNOWN, None, None, None, None, elapsed, "dp",
                           clock_hit=True)
    elapsed = now() - started
    if check is None:
        return SolveResult(Status.INFEASIBLE, None, None, None, None, elapsed, "dp")
    tower = check.tower  # checked by the models checker in `_checked_tower`, like every tower
    uses = check.uses
    if isinstance(question, TileCheck) and isinstance(question.tile, ExhibitionTile):
        uses = check.accounting_using(question.tile.skills)
    objective = objective_of(question, tower, pool.total)
    return SolveResult(
        status=Status.OPTIMAL,
        tower=tower,
        objective=objective,
        bound=None if objective is None else float(objective),
        uses=uses,
        wall_time_s=elapsed,
        engine="dp",
    )
