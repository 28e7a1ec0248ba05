"""The turn planner's one entry point: `plan(request, clock)`, the answer to a `PlanRequest`
within a `planner.clock.Clock`. The goal's strategy answers it (`GoalStrategy.answer`), asking
the pipeline for plans (`planner.turns.ahead.planned`: the start, the horizon, the model, the
goal's solve, the replay, the explanations, and the default horizon carried on through the next
festival within reach); the CLI and the page (through `service.castell.plans`) and the bots
all ask here.
"""

from __future__ import annotations

from planner.clock import Clock
from planner.turns.ahead import planned
from planner.turns.goals import goal_strategy
from planner.turns.request import PlanRequest, PlanResult
from planner.turns.strategy import Pipeline


def plan(request: PlanRequest, clock: Clock, pipeline: Pipeline = planned) -> PlanResult:
    """The answer to `request` for its goal, its time limit `clock.seconds` (the deterministic
    budget's worth, the wall clock a safety net: `PlanBudget.wall`). `pipeline`: where the
    goal asks for its plans (a test may pass one that records or alters them)."""
    return goal_strategy(request.goal).answer(request, clock, pipeline)
