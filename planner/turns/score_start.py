"""Where the score goal's search starts, and its bound from the lean score model.

The full plan model's score stage finds plans slowly and its bound never leaves the caps
(`planner.turns.score_caps`). So the score goal first solves the lean score model
(`planner.turns.lean_score`, a relaxation that follows the pawn's route): its bound bounds
every plan, and its route, held in the full model, gives a plan the full model completes in a
fraction of a unit. That plan, or a plan claiming a tile of the pawn's region at once when one
scores more (a claim worth points this turn is never missed for want of budget), is where the
full model's own search starts: the model's hint.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import cast

from ortools.sat.python import cp_model

from planner.turns.lean import LeanResult
from planner.turns.lean_score import lean_score
from planner.turns.model import PlanModel
from planner.turns.stages import Stage, hint_held

Held = tuple[tuple[cp_model.IntVar, int], ...]

# the lean score model first, on up to this share of the stages' budget (1.5 units at 10 s)
LEAN_SCORE_SHARE = 1.25
# ... when the stages' budget is at least this many units (an 8.4 s limit, as the festival
# goal's `LEAN_LEAST_WORK`)
LEAN_SCORE_LEAST_WORK = 1.0
ROUTE_WORK = 0.2  # the most the full model may take to complete the lean plan on its route
# the most each claim-at-once hint may take, in units (the search alone missed a claim at
# once worth 20 points on a planted state, finding 16: tests/planner/turns/test_score_claims.py)
CLAIM_HINT_WORK = 0.1


@dataclass(frozen=True)
class ScoreStart:
    """The score goal's start: the work spent, the lean result (None: not solved), the lean
    plan's route (empty: none) and the full model's points on it (None: none found)."""

    spent: float
    lean: LeanResult | None = None
    route: Held = ()
    on_route: int | None = None

    @property
    def proven_on_route(self) -> bool:
        """The full model's plan on the lean route reaches the lean bound: the best there is,
        so the goal's stage may hold the route."""
        return (self.lean is not None and self.lean.bound is not None
                and self.on_route is not None and self.on_route >= self.lean.bound)


def score_start(plan: PlanModel, stage: Stage, *, work: float, lean: bool,
                wall_left: Callable[[], float], seed: int = 0, workers: int = 1
                ) -> ScoreStart:
    """Solve the lean score model (when `lean` and `work`, the stages' budget, is at least
    `LEAN_SCORE_LEAST_WORK`), then the goal's `stage` held on the lean plan's route and on
    each claim of the pawn's region at once; the best of those plans becomes the model's hint
    (deterministic: the best is solved again when another was hinted last)."""
    spent, result, route = 0.0, None, cast(Held, ())
    if lean and work >= LEAN_SCORE_LEAST_WORK:
        found = lean_score(plan, work=LEAN_SCORE_SHARE * work, time_limit=wall_left(),
                           seed=seed, workers=workers)
        spent, result, route = found.result.work, found.result, found.route
    tries: list[tuple[Held, float]] = []
    if route:
        tries.append(((*stage.held, *route), ROUTE_WORK))
    pawn = plan.horizon.me.pawn
    tries += [(((claim.at[0], 1),), CLAIM_HINT_WORK) for claim in plan.claims
              if claim.region == pawn and 0 in claim.at]
    best: tuple[int, int] | None = None  # (points, index into tries)
    hinted, on_route = None, None
    for number, (held, budget) in enumerate(tries):
        value, used = hint_held(plan.model, replace(stage, held=held), work=budget,
                                time_limit=wall_left(), workers=workers, seed=seed)
        spent += used
        if value is None:
            continue
        hinted = number
        if route and number == 0:
            on_route = value
            if ScoreStart(spent, result, route, on_route).proven_on_route:
                break  # the best there is: no claim at once scores more
        if best is None or value > best[0]:
            best = (value, number)
    if best is not None and hinted != best[1]:  # the best again: the same budget, the same plan
        held, budget = tries[best[1]]
        _, used = hint_held(plan.model, replace(stage, held=held), work=budget,
                            time_limit=wall_left(), workers=workers, seed=seed)
        spent += used
    return ScoreStart(spent, result, route, on_route)
