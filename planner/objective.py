"""Objective values of the questions, computed from a tower (shared by both engines)."""

from __future__ import annotations

from models.tower import Tower
from planner.questions import BestTower, FestivalTower, Question


def best_key(tower: Tower, pool_total: int) -> int:
    """Height first, then castellers, folded into one integer."""
    return tower.height * (pool_total + 1) + tower.castellers


def objective_of(question: Question, tower: Tower, pool_total: int) -> int | None:
    if isinstance(question, BestTower):
        return best_key(tower, pool_total)
    if isinstance(question, FestivalTower):
        return question.festival.score(tower)
    return None
