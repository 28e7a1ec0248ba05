"""The goals of the turn planner, registered once: each goal's strategy (`GoalStrategy`), which
owns its name, words, unit, option and horizon policy, by name (`Goal.kind`), in the order a
user is shown them (the advice's goal first). A new goal is one entry here and its package.
"""

from __future__ import annotations

from planner.turns.festival.goal import FestivalGoal
from planner.turns.horizon import Goal
from planner.turns.score.goal import ScoreGoal
from planner.turns.strategy import GoalStrategy
from planner.turns.tile.goal import TileGoal
from planner.turns.win.goal import WinGoal

GOALS: dict[str, GoalStrategy] = {goal.name: goal for goal in (
    WinGoal(), ScoreGoal(), FestivalGoal(), TileGoal())}


class UnknownGoal(ValueError):
    """A goal no strategy is registered for."""


def goal_strategy(goal: Goal) -> GoalStrategy:
    """The strategy of `goal`'s kind (`UnknownGoal`: none)."""
    found = GOALS.get(goal.kind)
    if found is None:
        raise UnknownGoal(f"no goal '{goal.kind}' (goals: {', '.join(GOALS)})")
    return found
