"""The festival goal's first stage on the lean model (`planner.turns.festival.lean`), its plan
held (or hinted) in the full model's stages, and the goal stage's result merged with the lean
model's status and bound."""

from __future__ import annotations

from dataclasses import replace

from planner.tower import Status
from planner.turns.festival.lean import LeanGoal, lean_goal
from planner.turns.full.stages import Stage, StagedResult, hint_held, holdable
from planner.turns.lean.solve import LeanResult, with_lean_time
from planner.turns.strategy import PlanContext


def goal_on_lean(ctx: PlanContext, stages: list[Stage], work: float
                 ) -> tuple[LeanGoal | None, LeanResult | None, float]:
    """The festival goal's first stage on the lean model (`planner.turns.festival.lean`),
    where it pays (the budget's `lean_goal` on a short horizon, `lean_long_turns` on a long
    one, when the stages' `work` is at least `lean_least_work`), on the allotment's
    `lean_short` or `lean_long` units. A lean plan the full model can hold is held in
    `stages[0]` (only the tower is left to find) and returned first, when proven or on a
    short horizon; a long horizon's unproven plan is completed in the full model and hinted
    there, and its result is returned second (its bound may still be the tighter). Also
    returns the budget left for the full model's stages."""
    model, budget, long = ctx.model, ctx.budget, ctx.long
    if work < budget.lean_least_work or (len(model.horizon.turns) > budget.lean_long_turns
                                         if long else not budget.lean_goal):
        return None, None, work
    if long:  # a short presolve, no LP, a share of the budget; the fewest tokens at its score
        found = lean_goal(model, work=ctx.allot.lean_long, time_limit=ctx.clock.wall_left(),
                          seed=ctx.seed, workers=ctx.workers, linearization=0, light=True,
                          spare_work=budget.lean_spare_work)
    else:  # more units than the stages' budget: the lean model's cost less CPU (Design notes)
        found = lean_goal(model, work=ctx.allot.lean_short, time_limit=ctx.clock.wall_left(),
                          seed=ctx.seed, workers=ctx.workers)
    if found is None:  # no festival in reach: the full model's stage is trivial
        return None, None, work
    # what the full model's stages have left (on a short horizon, at least the tie-break's own)
    work = max(0.01 if long else budget.lean_tie_break_work + 0.01, work - found.result.work)
    # no plan within the budget, or (never seen) one the full model cannot hold: the full
    # model's own goal stage on what is left
    if not (found.holds and holdable(model.model, (*stages[0].held, *found.holds))):
        return None, found.result if long else None, work
    held = replace(stages[0], held=stages[0].held + found.holds)
    if not long or found.result.status is Status.OPTIMAL:
        stages[0] = held
        return found, None, work
    _, spent = hint_held(model.model, held, work=budget.lean_hint_work,
                         time_limit=ctx.clock.wall_left(), workers=ctx.workers, seed=ctx.seed,
                         light_probing=budget.light_probing)
    return None, found.result, max(0.01, work - spent)


def with_lean(result: StagedResult, lean: LeanResult) -> StagedResult:
    """The goal stage's status and bound are the lean model's (the full model's goal stage
    only found the tower for the lean plan); its time is both solves'."""
    proven = lean.status is Status.OPTIMAL
    return replace(with_lean_time(result, lean), status=lean.status, first_bound=lean.bound,
                   proven=(proven, *result.proven[1:]))


def with_lean_bound(result: StagedResult, lean: LeanResult) -> StagedResult:
    """The full model's goal stage after a lean hint: the lean model's bound where tighter
    (both bound the same best festival score), proven when the plan reaches it; its time is
    both solves'."""
    result = with_lean_time(result, lean)
    if lean.bound is None or (result.first_bound is not None
                              and lean.bound >= result.first_bound):
        return result
    proven = result.values[0] is not None and result.values[0] >= lean.bound
    return replace(result, first_bound=lean.bound,
                   status=Status.OPTIMAL if proven else result.status,
                   proven=(proven or result.proven[0], *result.proven[1:]))
