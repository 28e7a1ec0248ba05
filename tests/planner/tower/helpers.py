"""Checks every solver answer must pass: the `models` checker is the spec."""

from __future__ import annotations

from models.tower import Pool, Rules, SkillRanks, check_tower, meets_tile
from planner.tower.objective import objective_of
from planner.tower.questions import FestivalTower, Question, TileCheck
from planner.tower.result import SolveResult, Status


def assert_sound(result: SolveResult, question: Question, pool: Pool, ranks: SkillRanks,
                 rules: Rules) -> None:
    """A returned tower is valid for the pool and ranks, answers the question, its objective is
    the one the checker computes, and the accounting the engine reports is a valid one."""
    if result.tower is None:
        assert result.status in (Status.INFEASIBLE, Status.UNKNOWN)
        assert result.objective is None
        return
    tower = result.tower
    check = check_tower(tower, ranks, rules, pool)
    assert check.valid, (str(tower), check.violations)
    assert result.uses in check.accountings, (str(tower), result.uses, check.accountings)
    assert result.objective == objective_of(question, tower, pool.total)
    if isinstance(question, FestivalTower):
        assert question.festival.eligible(tower, rules)
        assert result.objective == question.festival.score(tower)
    if isinstance(question, TileCheck):
        assert meets_tile(question.tile, tower, ranks, rules, pool)
        assert result.uses is not None
        if hasattr(question.tile, "skills"):
            assert question.tile.skills <= result.uses.used()
    if result.status is Status.OPTIMAL and result.bound is not None:
        assert result.bound == result.objective
