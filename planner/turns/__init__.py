"""The turn planner: the best actions for a player's next turns (goal festival, tile or score),
a time-expanded CP-SAT model solved as lexicographic stages, every plan replayed through the
referee before anyone sees it, and an exhaustive reference over legal action sequences.

Its tuning is one frozen `PlanBudget`, passed down; a goal is a `GoalStrategy`
(`planner.turns.festival`, `.score`, `.tile`) over the full plan model (`.full`) and the lean
models (`.lean`)."""

from planner.turns.ahead import PlanAhead, plan_ahead
from planner.turns.budget import DEFAULT_BUDGET, MAX_TURNS, Allotment, PlanBudget
from planner.turns.explain import Step, Target
from planner.turns.forecast import Forecast, Placing, RivalAt
from planner.turns.horizon import ADVICE_GOAL, Goal, build_horizon
from planner.turns.plan import DEFAULT_PLAN_TIME_LIMIT, plan_turns
from planner.turns.replay import Replay, replay
from planner.turns.result import Plan, PlannedFestival, PlannedTurn
from planner.turns.upcoming import Ahead

__all__ = [
    "ADVICE_GOAL",
    "DEFAULT_BUDGET",
    "DEFAULT_PLAN_TIME_LIMIT",
    "MAX_TURNS",
    "Ahead",
    "Allotment",
    "Forecast",
    "Goal",
    "Placing",
    "Plan",
    "PlanAhead",
    "PlanBudget",
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
