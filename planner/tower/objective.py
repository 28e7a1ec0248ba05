"""Objective values of the questions, computed from a tower (shared by both engines)."""

from __future__ import annotations

from models.tower import Tower
from planner.tower.questions import BestTower, FestivalTower, Question


def height_weight(pool_total: int) -> int:
    """The best tower's objective folds height first, then castellers, into one integer:
    height x this + castellers (a pool never holds this many castellers)."""
    return pool_total + 1


def best_key(tower: Tower, pool_total: int) -> int:
    return tower.height * height_weight(pool_total) + tower.castellers


def objective_of(question: Question, tower: Tower, pool_total: int) -> int | None:
    if isinstance(question, BestTower):
        return best_key(tower, pool_total)
    if isinstance(question, FestivalTower):
        return question.festival.score(tower)
    return None
