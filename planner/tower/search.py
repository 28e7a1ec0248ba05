"""The reference engine: a plain depth-first search over every valid tower of a small pool.

It generates levels bottom-up and asks the `models` checker whether each prefix is valid (validity
is closed under removing the top level, so pruning an invalid prefix loses nothing). It shares no
rule encoding with the CP-SAT model, which is what makes it a test oracle.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from models.tower import (
    CheckResult,
    ExhibitionTile,
    Level,
    Pool,
    Rules,
    SkillRanks,
    Tower,
    check_tower,
    tile_shortfalls,
)
from planner.clock import now
from planner.stopping import stop_requested
from planner.tower.objective import objective_of
from planner.tower.questions import FestivalTower, Question, TileCheck
from planner.tower.result import SolveResult, Status


class _OutOfTime(Exception):
    pass


def _next_levels(remaining: dict[int, int], below: Level | None) -> Iterator[Level]:
    """Every level of one size or two adjacent sizes that could stand on `below`.

    Only cheap necessary conditions are applied here (sizes and counts do not grow); the checker
    decides the rest.
    """
    max_count = below.count if below else sum(remaining.values())
    max_size = below.low if below else max(remaining, default=0)
    for low in sorted(remaining, reverse=True):
        if low > max_size or remaining[low] == 0:
            continue
        highs = [low]
        if low + 1 <= max_size and remaining.get(low + 1, 0) > 0:
            highs.append(low + 1)
        for high in highs:
            upper = range(1, remaining[high] + 1) if high != low else range(0, 1)
            for a, b in product(range(1, remaining[low] + 1), upper):
                if a + b <= max_count:
                    yield Level((high,) * b + (low,) * a)


def _walk(pool: Pool, ranks: SkillRanks, rules: Rules, max_height: int | None,
          deadline: float) -> Iterator[tuple[Tower, CheckResult]]:
    """Every valid tower (with its check), each once."""
    remaining = pool.counts()
    stack: list[Level] = []

    def extend() -> Iterator[tuple[Tower, CheckResult]]:
        if max_height is not None and len(stack) >= max_height:
            return
        for level in _next_levels(remaining, stack[-1] if stack else None):
            if now() > deadline or stop_requested():
                raise _OutOfTime
            tower = Tower((*stack, level))
            result = check_tower(tower, ranks, rules)
            if not result.valid:
                continue
            yield tower, result
            for size in level.sizes:
                remaining[size] -= 1
            stack.append(level)
            yield from extend()
            stack.pop()
            for size in level.sizes:
                remaining[size] += 1

    yield from extend()


def answers(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules
            ) -> tuple[int | None, list[Tower]]:
    """Every tower that answers `question` best (all of them, not one), and their objective:
    the reference for uniqueness. Exhaustive, so for small pools only."""
    limit = question.tile.height if isinstance(question, TileCheck) else None
    best: int | None = None
    found: list[Tower] = []
    for tower, result in _walk(pool, ranks, rules, limit, float("inf")):
        if not _meets(question, tower, result, rules):
            continue
        value = objective_of(question, tower, pool.total)
        if found and value is not None and best is not None and value < best:
            continue
        if not found or (value is not None and best is not None and value > best):
            found = []
        best = value
        found.append(tower)
    return best, found


def _meets(question: Question, tower: Tower, result: CheckResult, rules: Rules) -> bool:
    if isinstance(question, FestivalTower):
        return question.festival.eligible(tower, rules)
    if isinstance(question, TileCheck):
        return not tile_shortfalls(question.tile, result)
    return True


def solve_search(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules, *,
                 time_limit: float = 60.0) -> SolveResult:
    """Answer a tower question by the exhaustive reference search (small pools only)."""
    started = now()
    limit = question.tile.height if isinstance(question, TileCheck) else None
    best: tuple[int, Tower, CheckResult] | None = None
    finished = True
    try:
        for tower, result in _walk(pool, ranks, rules, limit, started + time_limit):
            if not _meets(question, tower, result, rules):
                continue
            value = objective_of(question, tower, pool.total)
            key = value if value is not None else 0
            if best is None or key > best[0]:
                best = (key, tower, result)
            if isinstance(question, TileCheck):
                break
    except _OutOfTime:
        finished = False
    elapsed = now() - started
    if best is None:
        status = Status.INFEASIBLE if finished else Status.UNKNOWN
        return SolveResult(status, None, None, None, None, elapsed, "search",
                           clock_hit=not finished)
    _, tower, result = best
    uses = result.uses
    if isinstance(question, TileCheck) and isinstance(question.tile, ExhibitionTile):
        uses = result.accounting_using(question.tile.skills)
    objective = objective_of(question, tower, pool.total)
    return SolveResult(
        status=Status.OPTIMAL if finished else Status.FEASIBLE,
        tower=tower,
        objective=objective,
        bound=float(objective) if finished and objective is not None else None,
        uses=uses,
        wall_time_s=elapsed,
        engine="search",
        clock_hit=not finished,
    )
