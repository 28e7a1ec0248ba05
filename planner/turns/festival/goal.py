"""The festival goal as a strategy of the turn planner: the lean model first (its plan held in
the full model, where only the tower is left to find), the tie-breaks on the lean plan's
route, progress toward a festival tower when none is in reach, and the bound tightened by
pre-checks when the plan is left unproven."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from ortools.sat.python import cp_model

from models.game import Board
from planner.tower import Status
from planner.turns.festival.lean import LeanGoal
from planner.turns.festival.lean_stage import goal_on_lean, with_lean, with_lean_bound
from planner.turns.festival.stages import festival_stages, progress_stages
from planner.turns.full.model import PlanModel, hint_idle, tightened_bound
from planner.turns.full.stages import Stage, StagedResult, solve_stages
from planner.turns.horizon import Goal
from planner.turns.lean.solve import LeanResult
from planner.turns.replay import Replay
from planner.turns.result import PlannedTurn, planned_festivals
from planner.turns.strategy import (
    GoalStrategy,
    GoalWords,
    PlanContext,
    RouteHeld,
    Solved,
    Verdict,
)

# the stages after the goal's, given its value (`solve_stages`' `then`)
Then = Callable[[int], Sequence[Stage]]


class FestivalGoal(GoalStrategy):
    """The best festival tower score in the horizon."""

    name = "festival"
    words = GoalWords(about="best festival tower score", help="best festival tower score",
                      value="best festival score",
                      proven="no other plan of these turns scores more at a festival under "
                             "the assumptions below")
    builds_toward_next = True  # a plan that reaches none builds toward the next festival

    def stages(self, plan: PlanModel, goal: Goal, spare_tokens: bool = False) -> list[Stage]:
        return festival_stages(plan, spare_tokens)

    def solve(self, ctx: PlanContext) -> Solved:
        model, budget = ctx.model, ctx.budget
        hint_idle(model)  # doing nothing meets the goal (badly)
        stages = self.stages(model, ctx.goal, spare_tokens=ctx.long)
        original = list(stages)
        route = RouteHeld()  # held in the tie-breaks (below)
        then = _progress(model, ctx, route)
        lean, long_lean, work = goal_on_lean(ctx, stages, ctx.allot.stages)
        if lean is not None and budget.route_held:  # the tie-breaks search its route only
            places = {var.index for stop in model.at for var in stop.values()}
            route.held = tuple((var, value) for var, value in lean.holds
                               if var.index in places)
            stages[1:] = route.on(stages[1:])
        # no festival in reach on a short horizon (the lean model has none): the goal is 0 at
        # once, and the progress stage on the whole model is all the search (Design notes)
        unreachable = not ctx.long and not model.festivals
        tie_break_work = (budget.lean_tie_break_work if lean is not None
                          else budget.progress_work if unreachable else budget.tie_break_work)
        run = ctx.stage_run(work, light_presolve=ctx.light,
                            light_tie_breaks=budget.light_tie_breaks and (lean is not None
                                                                          or unreachable),
                            tie_break_work=tie_break_work,
                            goal_share=budget.long_goal_share if ctx.long else 1.0,
                            hinted=True)
        result, solver = solve_stages(model.model, stages, run, then)
        result, solver = _merged(ctx, result, solver, lean, long_lean, original, work, route,
                                 then)
        if route.held:  # proven on the lean plan's route only: not a proof over every plan
            result = replace(result, proven=(*result.proven[:1],
                                             *(False,) * len(result.proven[1:])))
        return Solved(result, solver)

    def value(self, goal: Goal, board: Board, replayed: Replay, player: str,
              planned: tuple[PlannedTurn, ...]) -> int | None:
        """The best festival score in the horizon."""
        return max((f.entry.score or 0 for f in planned_festivals(replayed, player)),
                   default=0)

    def judge(self, ctx: PlanContext, result: StagedResult, value: int | None) -> Verdict:
        """Without the LP, CP-SAT's own bound ignores that only one festival counts: the best
        cap, tightened by pre-checks when the plan is unproven."""
        bound, clock_hit = result.first_bound, result.clock_hit
        if bound is not None:
            cap, stopped = ctx.model.best_cap(), False
            if result.status is not Status.OPTIMAL:
                cap, stopped = tightened_bound(ctx.model, value or 0,
                                               deadline=ctx.clock.deadline
                                               - ctx.clock.after_solve)
            bound = min(bound, cap)
            clock_hit = clock_hit or stopped  # a pre-check left out: the bound may not repeat
        return Verdict(result.status, bound, clock_hit)


def _progress(model: PlanModel, ctx: PlanContext, route: RouteHeld) -> Then:
    """Out of reach (the goal's value 0): the stages after the goal plan toward the next
    festival instead, on the route held then."""
    def then(value: int) -> Sequence[Stage]:
        if value:
            return []
        return route.on(progress_stages(model, ctx.target))
    return then


def _merged(ctx: PlanContext, result: StagedResult, solver: cp_model.CpSolver,
            lean: LeanGoal | None, long_lean: LeanResult | None, original: list[Stage],
            work: float, route: RouteHeld, then: Then
            ) -> tuple[StagedResult, cp_model.CpSolver]:
    """The goal stage's result with the lean model's status and bound; when the lean plan did
    not fit the full model, the original stages solved again (not when the clock ended the
    stages: no time is left)."""
    if lean is not None and result.values and result.values[0] == lean.result.value:
        return with_lean(result, lean.result), solver
    if lean is not None and result.values:  # the clock stopped the held stage before it
        # found the lean plan (the idle plan came back): not proven, the lean model's bound
        return with_lean_bound(result, lean.result), solver
    if long_lean is not None and result.values:
        return with_lean_bound(result, long_lean), solver
    if lean is not None and not result.clock_hit:
        route.held = ()
        run = ctx.stage_run(work, hinted=True)
        return solve_stages(ctx.model.model, original, run, then)
    return result, solver
