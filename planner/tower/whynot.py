"""Why a festival or tile cannot be met, the closest tower, and the single changes that help."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from models.tower import (
    SKILL_ORDER,
    ExhibitionTile,
    Pool,
    Rules,
    ShapeTile,
    Skill,
    SkillRanks,
    count_steps,
    width_accountings,
)
from models.tower.skills import MAX_RANK
from planner.stopping import stop_requested
from planner.tower.questions import BestTower, FestivalTower, Question, TileCheck
from planner.tower.result import SolveResult, Status

Solver = Callable[[Question, Pool, SkillRanks], SolveResult]


@dataclass(frozen=True)
class Suggestion:
    """One change that makes the question achievable."""

    add_casteller: int | None = None
    add_rank: Skill | None = None

    def as_dict(self) -> dict[str, object]:
        """The suggestion as JSON."""
        if self.add_casteller is not None:
            return {"add_casteller": self.add_casteller}
        return {"add_rank": str(self.add_rank)}

    def __str__(self) -> str:
        if self.add_casteller is not None:
            return f"one more casteller of size {self.add_casteller}"
        return f"+1 {self.add_rank} rank"


@dataclass(frozen=True)
class WhyNot:
    """Why a question has no answer: the reasons, the closest tower, single-change suggestions."""
    reasons: tuple[str, ...]
    closest: SolveResult | None
    suggestions: tuple[Suggestion, ...]
    complete: bool  # every re-solve behind the suggestions was proven


def _shape_reasons(tile: ShapeTile, pool: Pool, ranks: SkillRanks, rules: Rules) -> list[str]:
    counts = tile.counts
    reasons = []
    if sum(counts) > pool.total:
        reasons.append(f"the shape needs {sum(counts)} castellers; the pool has {pool.total}")
    balanced, broken = count_steps(counts, rules)
    reasons += [f"the shape breaks R4: {v.message}" for v in broken]
    if len(balanced) > ranks.balance:
        reasons.append(f"the shape repeats a level's width {len(balanced)} time(s); "
                       f"that needs Balance {len(balanced)}, your rank is {ranks.balance}")
    if not width_accountings(counts, ranks, rules):
        reasons.append(f"its widest level ({max(counts)}) is over the width limit these Width "
                       "and Base ranks allow")
    return reasons


def _reasons(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules,
             tallest: int | None) -> list[str]:
    reasons: list[str] = []
    if isinstance(question, FestivalTower):
        need = rules.festival_min_levels
        for size in sorted(question.festival.token_sizes - set(pool.sizes), reverse=True):
            reasons.append(f"the pool has no casteller of size {size}")
        if tallest is not None and tallest < need:
            reasons.append(f"the tallest tower these ranks allow has {tallest} levels; "
                           f"festivals need {need}")
        if not reasons:
            sizes = " and a ".join(map(str, sorted(question.festival.token_sizes, reverse=True)))
            reasons.append(f"no valid tower of {need} or more levels holds a {sizes}")
    elif isinstance(question, TileCheck) and isinstance(question.tile, ShapeTile):
        reasons = _shape_reasons(question.tile, pool, ranks, rules)
        if tallest is not None and tallest < question.tile.height:
            reasons.append(f"the tallest tower this pool and these ranks allow has {tallest} "
                           f"levels; the shape has {question.tile.height}")
        if not reasons:
            reasons.append(f"no valid tower from this pool has the shape {question.tile}")
    elif isinstance(question, TileCheck) and isinstance(question.tile, ExhibitionTile):
        tile = question.tile
        for skill in tile.ordered_skills():
            if ranks[skill] == 0:
                reasons.append(f"the tile asks for {skill.value.title()}; your rank is 0")
        if tallest is not None and tallest < tile.points:
            reasons.append(f"the tallest tower these ranks allow has {tallest} levels; "
                           f"the tile needs exactly {tile.points}")
        if not reasons:
            names = "+".join(s.value for s in tile.ordered_skills())
            reasons.append(f"no valid {tile.points}-level tower uses {names} together")
    return reasons


def explain(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules,
            solver: Solver) -> WhyNot:
    """Explain a proven 'no' for `question`; `solver` re-solves each single change."""
    closest = solver(BestTower(), pool, ranks) if pool.total else None
    tallest = closest.tower.height if closest and closest.tower and closest.proven else None
    suggestions: list[Suggestion] = []
    complete = True
    changes = [(pool.add(size), ranks, Suggestion(add_casteller=size)) for size in rules.sizes]
    changes += [(pool, ranks.plus(skill), Suggestion(add_rank=skill)) for skill in SKILL_ORDER
                if ranks[skill] < MAX_RANK]  # no rank goes past the whole bag
    for changed_pool, changed_ranks, suggestion in changes:
        if stop_requested():  # the time limit (or a cancel): the re-solves left are unknown
            complete = False
            break
        answer = solver(question, changed_pool, changed_ranks)
        complete &= answer.proven
        if answer.found:
            suggestions.append(suggestion)
    if closest is not None and closest.status is Status.UNKNOWN:
        closest = None
    return WhyNot(tuple(_reasons(question, pool, ranks, rules, tallest)), closest,
                  tuple(suggestions), complete)
