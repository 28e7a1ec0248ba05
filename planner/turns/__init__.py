"""The turn planner: the best actions for a player's next turns (goal win, score, festival or
tile), a time-expanded CP-SAT model solved as lexicographic stages, every plan replayed
through the referee before anyone sees it, and an exhaustive reference over legal action
sequences.

One entry point: `plan(PlanRequest, Clock) -> PlanResult` (`planner.turns.answer`); the
pipeline behind it (`plan_turns`, one horizon; `plan_ahead`, the default horizon carried on)
is exported for the tests and benchmarks that measure it. Its tuning is one frozen
`PlanBudget`, passed down; a goal is a `GoalStrategy` registered in `GOALS`
(`planner.turns.win`, `.score`, `.festival`, `.tile`) over the full plan model (`.full`) and
the lean models (`.lean`)."""

from planner.turns.ahead import plan_ahead
from planner.turns.answer import plan
from planner.turns.budget import DEFAULT_BUDGET, MAX_TURNS, Allotment, PlanBudget
from planner.turns.explain import Step, Target
from planner.turns.forecast import Forecast, Placing, RivalAt
from planner.turns.goals import GOALS, UnknownGoal, goal_strategy
from planner.turns.horizon import ADVICE_GOAL, Goal, build_horizon
from planner.turns.plan import DEFAULT_PLAN_TIME_LIMIT, plan_turns
from planner.turns.replay import Replay, replay
from planner.turns.request import (
    Chances,
    PlanRequest,
    PlanResult,
    RivalModels,
    Rivals,
    RivalTurn,
    RivalUnfinished,
    WeighedTurn,
)
from planner.turns.result import Plan, PlannedFestival, PlannedTurn
from planner.turns.strategy import GoalStrategy, GoalWords
from planner.turns.upcoming import Ahead
from planner.turns.win.answers import WIN, NoRivals

__all__ = [
    "ADVICE_GOAL",
    "DEFAULT_BUDGET",
    "DEFAULT_PLAN_TIME_LIMIT",
    "GOALS",
    "MAX_TURNS",
    "WIN",
    "Ahead",
    "Allotment",
    "Chances",
    "Forecast",
    "Goal",
    "GoalStrategy",
    "GoalWords",
    "NoRivals",
    "Placing",
    "Plan",
    "PlanBudget",
    "PlanRequest",
    "PlanResult",
    "PlannedFestival",
    "PlannedTurn",
    "Replay",
    "RivalAt",
    "RivalModels",
    "RivalTurn",
    "RivalUnfinished",
    "Rivals",
    "Step",
    "Target",
    "UnknownGoal",
    "WeighedTurn",
    "build_horizon",
    "goal_strategy",
    "plan",
    "plan_ahead",
    "plan_turns",
    "replay",
]
