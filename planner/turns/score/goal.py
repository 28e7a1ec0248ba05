"""The score goal as a strategy of the turn planner: the lean score model's bound and route
first (`planner.turns.score.start`), the full model's search from the best plan found there,
the plan's towers built as the plan chose them (they aim at size tokens), and the bound capped
by the score caps."""

from __future__ import annotations

from dataclasses import replace

from ortools.sat.python import cp_model

from models.game import Board, Choices, score_player
from planner.tower import Status
from planner.turns.full.model import PlanModel, hint_idle
from planner.turns.full.stages import Stage, StagedResult, solve_stages
from planner.turns.horizon import Goal
from planner.turns.lean.solve import LeanResult, with_lean_time
from planner.turns.replay import Replay
from planner.turns.result import PlannedTurn
from planner.turns.score.caps import score_cap
from planner.turns.score.stages import score_stages
from planner.turns.score.start import score_start
from planner.turns.strategy import (
    GoalStrategy,
    GoalWords,
    PlanContext,
    RouteHeld,
    Solved,
    Verdict,
)


class ScoreGoal(GoalStrategy):
    """The most end-of-game points at the end of the horizon."""

    name = "score"
    words = GoalWords(about="end-of-game points",
                      help="end-of-game points over the plan, prizes included", value="points",
                      unproven="at most {more} points more than this plan",
                      proven="no other plan of these turns ends with more points under the "
                             "assumptions below")
    unit = "points"

    def stages(self, plan: PlanModel, goal: Goal, spare_tokens: bool = False) -> list[Stage]:
        return score_stages(plan)

    def solve(self, ctx: PlanContext) -> Solved:
        model, budget = ctx.model, ctx.budget
        hint_idle(model)  # doing nothing meets the goal (badly)
        stages = self.stages(model, ctx.goal, spare_tokens=ctx.long)
        turns = len(model.horizon.turns)
        # the lean score model's bound, and where the search starts
        scored = score_start(ctx, stages[0], lean=budget.lean_score
                             and budget.lean_score_turns <= turns <= budget.long_horizon)
        route = RouteHeld()
        if scored.proven_on_route:  # the lean plan is the best: only its route is searched
            route.held = scored.route
            stages = route.on(stages)
        # no lean plan (its budget ended first): the full model's search gets its own budget
        # (on 30 states two 3-turn plans left at 0.4 units scored 0 and 6 against 44 and 35)
        work = ctx.allot.stages
        if scored.route:
            work = max(budget.score_least_work, work - scored.spent)
        # proven on the lean route: the tie-breaks search that route only, as after a lean
        # festival goal (light tie-breaks after every lean score plan left 5 of the
        # benchmark's 91 3-turn calls with no plan when the wall clock met them)
        on_route = scored.proven_on_route
        run = ctx.stage_run(work, light_presolve=ctx.light,
                            light_tie_breaks=budget.light_tie_breaks and on_route,
                            tie_break_work=(budget.lean_tie_break_work if on_route
                                            else budget.tie_break_work),
                            goal_share=budget.long_goal_share if ctx.long else 1.0,
                            hinted=True, hint_complete=scored.found)
        result, solver = solve_stages(model.model, stages, run)
        if route.held:  # proven on the lean plan's route only: not a proof over every plan
            result = replace(result, proven=(*result.proven[:1],
                                             *(False,) * len(result.proven[1:])))
        if scored.lean is not None:
            result = with_lean_score(result, scored.lean, held=bool(route.held))
        return Solved(result, solver)

    def value(self, goal: Goal, board: Board, replayed: Replay, player: str,
              planned: tuple[PlannedTurn, ...]) -> int | None:
        """The player's end-of-game points if the game ended after the plan."""
        return score_player(replayed.state.player(player), board).total

    def towers(self, ctx: PlanContext, solver: cp_model.CpSolver) -> Choices | None:
        """The plan's towers aim at size tokens: build exactly those; where the plan does not
        compete the referee's finder decides ("chose not to compete" only ever when the
        player could have)."""
        return {(f.space.location, ctx.player): f.layout.tower(solver)
                for f in ctx.model.festivals if solver.boolean_value(f.eligible)}

    def judge(self, ctx: PlanContext, result: StagedResult, value: int | None) -> Verdict:
        """The bound capped by the score caps; proven when the replayed points reach it."""
        status, bound = result.status, result.first_bound
        if bound is not None:
            bound = min(bound, score_cap(ctx.model))
            if (status is Status.FEASIBLE and value is not None and value >= bound
                    and value == result.values[0]):
                # the replayed points reach a sound bound on every plan (`caps.score_caps`):
                # proven, though the search stopped before it could say so
                status, bound = Status.OPTIMAL, value
        return Verdict(status, bound, result.clock_hit)


def with_lean_score(result: StagedResult, lean: LeanResult, held: bool) -> StagedResult:
    """The score goal's stage after the lean score model: the lean bound where tighter (it
    bounds every plan), and the only bound when the stage `held` the lean plan's route (its
    own proof is then of that route alone); proven when the plan reaches the bound. Its time
    is both solves'."""
    result = with_lean_time(result, lean)
    bound = lean.bound
    if not held and result.first_bound is not None:
        bound = result.first_bound if bound is None else min(bound, result.first_bound)
    if not result.values or result.values[0] is None:
        return replace(result, first_bound=bound)
    proven = bound is not None and result.values[0] >= bound
    status = Status.OPTIMAL if proven else Status.FEASIBLE
    return replace(result, first_bound=bound, status=status,
                   proven=(proven, *result.proven[1:]))
