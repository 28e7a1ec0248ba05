"""A plan as the table asks for it: the default horizon goes past a festival the plan shows out
of reach, the festivals ahead say which the player could compete in and why not, and the
festival forecast counts the opponents who could get there.

The default horizon runs through the first festival within reach by the bounds
(`planner.turns.upcoming`); the bounds are optimistic, so when the plan through it proves a
best festival score of 0, the next festival within reach is planned through instead (a longer
horizon, on what is left of the same time limit), until one is reached or none is left. No
festival the plan has shown out of reach is ever named as the next one the player could
compete in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from models.game import Action, Board, FestivalSpace, GameState
from models.tower import Rules
from planner.clock import Clock as RequestClock
from planner.clock import now
from planner.stopping import time_left
from planner.tower import Status
from planner.turns.budget import DEFAULT_BUDGET, PlanBudget
from planner.turns.forecast import forecasts
from planner.turns.goals import goal_strategy
from planner.turns.horizon import Goal
from planner.turns.plan import DEFAULT_PLAN_TIME_LIMIT, plan_turns
from planner.turns.request import PlanRequest, PlanResult
from planner.turns.result import Plan
from planner.turns.upcoming import Ahead, first_within_reach


def planned(request: PlanRequest, clock: RequestClock) -> PlanResult:
    """`plan_ahead` of `request`, its time limit the clock's seconds (the pipeline a goal's
    `GoalStrategy.answer` asks)."""
    return plan_ahead(request.state, request.board, request.player, rules=request.rules,
                      turns=request.turns, goal=request.goal, cautious=request.cautious,
                      time_limit=clock.seconds, workers=request.workers, seed=request.seed,
                      fixed=request.fixed, budget=request.budget, compare=request.compare,
                      least_turns=request.least_turns, value_only=request.value_only)


def plan_ahead(state: GameState, board: Board, player: str, *, rules: Rules,
               turns: int | None = None, goal: Goal | None = None, cautious: bool = False,
               time_limit: float = DEFAULT_PLAN_TIME_LIMIT, workers: int = 1, seed: int = 0,
               fixed: Sequence[Action] = (), budget: PlanBudget = DEFAULT_BUDGET,
               compare: bool = True, least_turns: int = 1, value_only: bool = False
               ) -> PlanResult:
    """`plan_turns` (the same arguments), then, for a goal that builds toward the next festival
    (`GoalStrategy.builds_toward_next`: the festival goal) on the default horizon (`turns`
    None), through the next festival within reach while the plan proves 0; each
    plan gets `time_limit` (its deterministic budget) within what is left of the command's;
    a longer one is tried with at least the budget's `retry_least` seconds left."""
    goal = goal or Goal()

    def planned(count: int | None) -> Plan:
        return plan_turns(state, board, player, rules=rules, turns=count, goal=goal,
                          cautious=cautious, time_limit=time_limit, workers=workers,
                          seed=seed, fixed=fixed, budget=budget, compare=compare,
                          least_turns=least_turns, value_only=value_only)

    started = now()
    plan = planned(turns)
    ahead = plan.ahead  # the outlook the plan itself was made with
    untried = None
    while turns is None and _proves_none(plan):
        ahead = shown(ahead, plan)  # what each plan proved stands for the longer ones
        after = first_within_reach(ahead, _last_round(plan))
        if after is None:
            break
        enough = time_left(budget.wall(time_limit)) >= budget.retry_least
        longer = planned(after.turns) if enough else None
        if longer is None or not longer.found:  # no time left for it: the proven 0 stands
            untried = after.space
            break
        plan = longer
    ahead = shown(ahead, plan)
    told = forecasts(plan, board, rules) if plan.found and not value_only else ()
    # the whole call's wall time, forecasts included
    return PlanResult.of(plan, ahead=ahead, next_festival=_next(ahead), untried=untried,
                         forecasts=told, wall_time_s=now() - started)


def _proves_none(plan: Plan) -> bool:
    """The plan is proven, for a goal that builds toward the next festival, to reach no
    festival tower."""
    return (goal_strategy(plan.goal).builds_toward_next and plan.status is Status.OPTIMAL
            and plan.found and not plan.objective)


def _last_round(plan: Plan) -> int:
    return plan.start.round + plan.horizon - 1


def shown(ahead: tuple[Ahead, ...], plan: Plan) -> tuple[Ahead, ...]:
    """`ahead` with what `plan` proved: a plan proven to reach no festival tower shows every
    festival of its horizon out of reach."""
    if not _proves_none(plan):
        return ahead
    return tuple(replace(a, out_of_reach="plan_proves_none")
                 if a.within_reach and a.space.round <= _last_round(plan) else a
                 for a in ahead)


def _next(ahead: tuple[Ahead, ...]) -> FestivalSpace | None:
    """The next festival the player could compete in, as far as the bounds and the plan
    tell: within reach and not shown out of reach."""
    found = first_within_reach(ahead)
    return None if found is None else found.space
