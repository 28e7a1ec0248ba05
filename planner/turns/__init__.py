"""The turn planner: the best actions for a player's next turns (goal festival, tile or score),
a time-expanded CP-SAT model solved as lexicographic stages, every plan replayed through the
referee before anyone sees it, and an exhaustive reference over legal action sequences."""

from planner.turns.ahead import PlanAhead, plan_ahead
from planner.turns.explain import Step, Target
from planner.turns.forecast import Forecast, Placing, RivalAt
from planner.turns.horizon import Goal, build_horizon
from planner.turns.plan import (
    DEFAULT_PLAN_TIME_LIMIT,
    Plan,
    PlannedFestival,
    PlannedTurn,
    plan_turns,
)
from planner.turns.replay import Replay, replay
from planner.turns.upcoming import Ahead

__all__ = [
    "DEFAULT_PLAN_TIME_LIMIT",
    "Ahead",
    "Forecast",
    "Goal",
    "Placing",
    "Plan",
    "PlanAhead",
    "PlannedFestival",
    "PlannedTurn",
    "Replay",
    "RivalAt",
    "Step",
    "Target",
    "build_horizon",
    "plan_ahead",
    "plan_turns",
    "replay",
]
