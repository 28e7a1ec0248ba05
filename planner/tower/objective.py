"""Objective values of the questions, computed from a tower (shared by both engines)."""

from __future__ import annotations

from models.tower import Tower
from planner.tower.questions import BestTower, FestivalTower, Question


def height_weight(pool_total: int) -> int:
    """The best tower's objective folds height first, then castellers, into one integer:
    height x this + castellers (a pool never holds this many castellers)."""
    return pool_total + 1


def best_key(tower: Tower, pool_total: int) -> int:
    """The best-tower objective: height first, then castellers."""
    return tower.height * height_weight(pool_total) + tower.castellers


def objective_of(question: Question, tower: Tower, pool_total: int) -> int | None:
    """A question's objective value for a tower (None for a tile check)."""
    if isinstance(question, BestTower):
        return best_key(tower, pool_total)
    if isinstance(question, FestivalTower):
        return question.festival.score(tower)
    return None
