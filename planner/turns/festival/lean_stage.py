"""The lean models' part of a plan's first stage: the festival goal solved on the lean model
(`planner.turns.lean`) and its plan held (or hinted) in the full model's stages, and the goal
stage's result merged with a lean model's status and bound (the festival goal's, or the score
goal's from `planner.turns.score_start`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from planner.tower import Status
from planner.turns.lean import LeanGoal, LeanResult, lean_goal
from planner.turns.model import PlanModel
from planner.turns.stages import Stage, StagedResult, hint_held, holdable

# the festival goal's first stage on the lean model, on a short horizon (Design notes)
LEAN_GOAL = True
# ... when the stages' budget is at least this many units (a 8.4 s limit; Design notes)
LEAN_LEAST_WORK = 1.0
# of the stages' budget, for the lean goal on a short horizon (Design notes)
LEAN_SHORT_SHARE = 1.25
# the most each tie-break stage takes after a lean goal, in units (Design notes)
LEAN_TIE_BREAK_WORK = 0.25
# horizons up to this many turns (0: none) use the lean goal too, held or hinted (Design notes)
LEAN_LONG_TURNS = 5
# a proven lean plan first spends the fewest tokens it can at its score (Design notes)
LEAN_SPARE_WORK = 0.1
LEAN_LONG_SHARE = 0.75  # of the stages' budget, for the lean solve (0.9 units at 10 s)
LEAN_HINT_WORK = 0.1  # the most the full model may take to complete the lean plan


def goal_on_lean(model: PlanModel, stages: list[Stage], work: float,
                 wall_left: Callable[[], float], seed: int, workers: int, long: bool
                 ) -> tuple[LeanGoal | None, LeanResult | None, float]:
    """The festival goal's first stage on the lean model (`planner.turns.lean`), where it
    pays (`LEAN_GOAL` on a short horizon, `LEAN_LONG_TURNS` on a `long` one, on a budget of
    at least `LEAN_LEAST_WORK`). A lean plan the full model can hold is held in `stages[0]`
    (only the tower is left to find) and returned first, when proven or on a short horizon;
    a long horizon's unproven plan is completed in the full model and hinted there, and its
    result is returned second (its bound may still be the tighter). Also returns the budget
    left for the full model's stages."""
    if work < LEAN_LEAST_WORK or (len(model.horizon.turns) > LEAN_LONG_TURNS if long
                                  else not LEAN_GOAL):
        return None, None, work
    if long:  # a short presolve, no LP, a share of the budget; the fewest tokens at its score
        found = lean_goal(model, work=LEAN_LONG_SHARE * work, time_limit=wall_left(),
                          seed=seed, workers=workers, linearization=0, light=True,
                          spare_work=LEAN_SPARE_WORK)
    else:  # more units than the stages' budget: the lean model's cost less CPU (Design notes)
        found = lean_goal(model, work=LEAN_SHORT_SHARE * work, time_limit=wall_left(),
                          seed=seed, workers=workers)
    if found is None:  # no festival in reach: the full model's stage is trivial
        return None, None, work
    # what the full model's stages have left (on a short horizon, at least the tie-break's own)
    work = max(0.01 if long else LEAN_TIE_BREAK_WORK + 0.01, work - found.result.work)
    # no plan within the budget, or (never seen) one the full model cannot hold: the full
    # model's own goal stage on what is left
    if not (found.holds and holdable(model.model, (*stages[0].held, *found.holds))):
        return None, found.result if long else None, work
    held = replace(stages[0], held=stages[0].held + found.holds)
    if not long or found.result.status is Status.OPTIMAL:
        stages[0] = held
        return found, None, work
    _, spent = hint_held(model.model, held, work=LEAN_HINT_WORK, time_limit=wall_left(),
                         workers=workers, seed=seed)
    return None, found.result, max(0.01, work - spent)


def with_lean_score(result: StagedResult, lean: LeanResult, held: bool) -> StagedResult:
    """The score goal's stage after the lean score model: the lean bound where tighter (it
    bounds every plan), and the only bound when the stage `held` the lean plan's route (its
    own proof is then of that route alone); proven when the plan reaches the bound. Its time
    is both solves'."""
    result = _with_lean_time(result, lean)
    bound = lean.bound
    if not held and result.first_bound is not None:
        bound = result.first_bound if bound is None else min(bound, result.first_bound)
    if not result.values or result.values[0] is None:
        return replace(result, first_bound=bound)
    proven = bound is not None and result.values[0] >= bound
    status = Status.OPTIMAL if proven else Status.FEASIBLE
    return replace(result, first_bound=bound, status=status,
                   proven=(proven, *result.proven[1:]))


def with_lean(result: StagedResult, lean: LeanResult) -> StagedResult:
    """The goal stage's status and bound are the lean model's (the full model's goal stage
    only found the tower for the lean plan); its time is both solves'."""
    proven = lean.status is Status.OPTIMAL
    return replace(_with_lean_time(result, lean), status=lean.status, first_bound=lean.bound,
                   proven=(proven, *result.proven[1:]))


def with_lean_bound(result: StagedResult, lean: LeanResult) -> StagedResult:
    """The full model's goal stage after a lean hint: the lean model's bound where tighter
    (both bound the same best festival score), proven when the plan reaches it; its time is
    both solves'."""
    result = _with_lean_time(result, lean)
    if lean.bound is None or (result.first_bound is not None
                              and lean.bound >= result.first_bound):
        return result
    proven = result.values[0] is not None and result.values[0] >= lean.bound
    return replace(result, first_bound=lean.bound,
                   status=Status.OPTIMAL if proven else result.status,
                   proven=(proven or result.proven[0], *result.proven[1:]))


def _with_lean_time(result: StagedResult, lean: LeanResult) -> StagedResult:
    """The goal stage's result counting the lean solve too: its time, branches, clock hit."""
    return replace(result, clock_hit=result.clock_hit or lean.clock_hit,
                   branches=result.branches + lean.branches,
                   first_time_s=result.first_time_s + lean.wall_s,
                   first_cpu_s=result.first_cpu_s + lean.cpu_s)
