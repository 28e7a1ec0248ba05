"""Where the score goal's search starts, and its bound from the lean score model.

The full plan model's score stage finds plans slowly and its bound never leaves the caps
(`planner.turns.score.caps`). So the score goal first solves the lean score model
(`planner.turns.score.lean`, a relaxation that follows the pawn's route): its bound bounds
every plan, and its route, held in the full model, gives a plan the full model completes in a
fraction of a unit. That plan, or a plan claiming a tile of the pawn's region at once when one
scores more (a claim worth points this turn is never missed for want of budget), is where the
full model's own search starts: the model's hint.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ortools.sat.python import cp_model

from planner.stopping import cancel_requested
from planner.tower import Status
from planner.turns.full.model import PlanModel
from planner.turns.full.stages import Stage, hint_held, set_hint
from planner.turns.lean.solve import LeanResult
from planner.turns.score.lean import LeanScoreGoal, lean_score
from planner.turns.strategy import PlanContext

Held = tuple[tuple[cp_model.IntVar, int], ...]

@dataclass(frozen=True)
class ScoreStart:
    """The score goal's start: the work spent, the lean result (None: not solved), the lean
    plan's route (empty: none) and the full model's points on it (None: none found)."""

    spent: float
    lean: LeanResult | None = None
    route: Held = ()
    on_route: int | None = None
    found: bool = False  # the model's hint is a whole plan found here (`stages.hint_held`)

    @property
    def proven_on_route(self) -> bool:
        """The full model's plan on the lean route reaches the lean bound: the best there is,
        so the goal's stage may hold the route."""
        return (self.lean is not None and self.lean.bound is not None
                and self.on_route is not None and self.on_route >= self.lean.bound)


def score_start(ctx: PlanContext, stage: Stage, *, lean: bool) -> ScoreStart:
    """Solve the lean score model (when `lean` and the stages' units are at least the
    budget's `lean_score_least_work`, on the allotment's `lean_score`) and the goal's `stage`
    held on its plan's route (`route_each` units); when that falls short of the lean bound,
    the lean model with the order of visits (`order` units) and the stage on its route; then
    the stage held on each claim of the pawn's region at once that the best plan so far does
    not make (`claim_hint_work` each). The best of those plans becomes the model's hint (the
    hint its solve left, kept: the same plan whatever was solved after it)."""
    start = _Start(ctx, stage, _Best(ctx.model.model))
    if lean and ctx.allot.stages >= ctx.budget.lean_score_least_work:
        found = start.lean_first()
        if start.ordered_pays():
            start.ordered(found)
    if not start.now.proven_on_route:  # else the best there is
        start.claims_at_once()
    start.best.restore()
    return replace(start.now, found=start.best.value is not None)


@dataclass
class _Start:
    """The score goal's start as it goes: the work spent, the lean result, the route and its
    points, the best plan solved so far."""

    ctx: PlanContext
    stage: Stage
    best: _Best
    spent: float = 0.0
    result: LeanResult | None = None
    route: Held = ()
    on_route: int | None = None

    @property
    def now(self) -> ScoreStart:
        return ScoreStart(self.spent, self.result, self.route, self.on_route)

    def held(self, holds: Held, work: float) -> int | None:
        """The goal's stage held on `holds` (a short solve of `work` units): its points (None:
        none found), offered as the best plan so far."""
        ctx, budget = self.ctx, self.ctx.budget
        # no held solve starts with less wall left: it would find nothing, and the time is
        # the final stage's and the replay's
        if ctx.clock.wall_left() < budget.least_wall:
            return None
        value, used = hint_held(ctx.model.model,
                                replace(self.stage, held=(*self.stage.held, *holds)),
                                work=work, time_limit=ctx.clock.wall_left(),
                                workers=ctx.workers, seed=ctx.seed,
                                light_probing=budget.light_probing)
        self.spent += used
        self.best.offer(value)
        return value

    def lean_first(self) -> LeanScoreGoal:
        """The lean score model, and the stage held on its route, unless the order of visits
        comes next anyway: its claims stand only on recruits made after them (the route falls
        short of the bound: a full model's solve, 0.4-1.3 s, for nothing)."""
        ctx, allot = self.ctx, self.ctx.allot
        found = lean_score(ctx.model, work=allot.lean_score, time_limit=ctx.clock.wall_left(),
                           seed=ctx.seed, workers=ctx.workers)
        self.spent, self.result, self.route = found.result.work, found.result, found.route
        if self.route and (found.in_order or not allot.order):
            self.on_route = self.held(self.route, allot.route_each)
        return found

    def ordered_pays(self) -> bool:
        """The ordered lean model runs: budgeted, the first route short of its bound, its
        wall reserve left, and not cancelled (a cancelled request builds no more models)."""
        ctx, budget = self.ctx, self.ctx.budget
        reserve = budget.wall(budget.order_reserve)
        return bool(ctx.allot.order and not self.now.proven_on_route
                    and ctx.clock.wall_left() - reserve >= budget.least_wall
                    and not cancel_requested())

    def ordered(self, found: LeanScoreGoal) -> None:
        """The lean model with the order of visits, asked only for plans better than the one
        on the first route, within the first bound; then the stage held on its route (none
        when it proved that no plan beats the first route's), and on the first one's when not
        held above and this one is not the best there is (an unproven plan of it may be the
        worse: 26 against 31 points on p2-s23-r05)."""
        ctx, budget = self.ctx, self.ctx.budget
        assert self.result is not None
        reserve = budget.wall(budget.order_reserve)
        ordered = lean_score(ctx.model, work=ctx.allot.order,
                             time_limit=ctx.clock.wall_left() - reserve, seed=ctx.seed,
                             workers=ctx.workers, order=True, cuts=found.cuts,
                             least=0 if self.on_route is None else self.on_route + 1,
                             most=self.result.bound)
        self.spent += ordered.result.work
        self.result = _tighter(self.result, ordered.result)
        tries = [ordered.route] if ordered.result.status is not Status.INFEASIBLE else []
        if self.on_route is None and ordered.result.status is not Status.OPTIMAL:
            tries.append(self.route)
        for other in filter(None, tries):
            points = self.held(other, ctx.allot.route_each)
            if points is not None and (self.on_route is None or points > self.on_route):
                self.route, self.on_route = other, points

    def claims_at_once(self) -> None:
        """The stage held on each claim of the pawn's region at once that the best plan so
        far does not make."""
        plan = self.ctx.model
        pawn, claimed = plan.horizon.me.pawn, self.best.claims_at_once(plan)
        for claim in plan.claims:
            if claim.region == pawn and 0 in claim.at and claim.tile.id not in claimed:
                self.held(((claim.at[0], 1),), self.ctx.budget.claim_hint_work)


class _Best:
    """The best plan solved so far, as the model's hint it left (`stages.hint_held`)."""

    def __init__(self, model: cp_model.CpModel) -> None:
        self.model = model
        self.value: int | None = None
        self.hint: list[int] = []  # every variable's value, from the first

    def offer(self, value: int | None) -> None:
        """A solve just found `value` points (None: none, and the hint is not its)."""
        if value is not None and (self.value is None or value > self.value):
            self.value, self.hint = value, list(self.model.proto.solution_hint.values)

    def restore(self) -> None:
        """Make the best plan the model's hint again."""
        if self.value is not None:
            set_hint(self.model, self.hint)

    def claims_at_once(self, plan: PlanModel) -> set[str]:
        """The tiles the best plan claims at its first stop."""
        return {claim.tile.id for claim in plan.claims
                if 0 in claim.at and claim.at[0].index < len(self.hint)
                and self.hint[claim.at[0].index] == 1}


def _tighter(first: LeanResult, then: LeanResult) -> LeanResult:
    """Two lean solves of the same horizon as one: the lower bound (each bounds every plan),
    the second's status and value, both solves' time."""
    bounds = [b for b in (first.bound, then.bound) if b is not None]
    return replace(then, bound=min(bounds) if bounds else None, work=first.work + then.work,
                   cpu_s=first.cpu_s + then.cpu_s, wall_s=first.wall_s + then.wall_s,
                   branches=first.branches + then.branches,
                   clock_hit=first.clock_hit or then.clock_hit)
