"""The score goal's solves on the lean score model (`planner.turns.score.lean_build`): the
most points of a horizon within a budget, with the cuts of claims that stand no tower, a
bound on every plan's points, and its plan's route as the full model's places.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from models.tower import Pool, SkillRanks
from planner.clock import now
from planner.stopping import cancel_requested, solve_stoppable
from planner.tower import STATUS, Status, stopped_by_clock
from planner.tower.bounds import tile_in_reach
from planner.turns.full.model import OFF, PlanModel
from planner.turns.full.stages import hint_solution
from planner.turns.lean.model import (
    LeanModel,
    hint_idle,
    seen_pairs,
)
from planner.turns.lean.solve import LeanResult, lean_holds, lean_solver
from planner.turns.score.caps import score_caps
from planner.turns.score.lean_build import build_lean_score
from planner.turns.score.lean_model import Cuts, LeanClaim, LeanScore, claim_values
from planner.turns.score.tiles import add_cut, cut, wrong_claims

Var = cp_model.IntVar
Expr = cp_model.LinearExpr

# its solves take the lean model's short presolve (`lean.lean_solver`, light: one pass, a
# short probing): CP-SAT's default presolve probed twice for about half a unit each, and a
# 3-turn model at 1.5 units then ended with no search at all (p2-s22-r05); on 8 of the
# benchmark's 2- and 3-turn plans the proofs took 0.4-2.1 units with the short probing
# against 0.9-2.4 with one pass of the default one


def claims_in_order(score: LeanScore, value: Callable[[Var], int]) -> bool:
    """A solution's claims stand their towers in the order of the walks its route takes
    (`lean.lean_holds`' walks): on the recruits and training made before each of them."""
    lean, rules = score.lean, score.horizon.rules
    place = score.horizon.me.pawn or OFF
    for t, turn in enumerate(lean.turns):
        outcome = turn.outcome(lean.places, value)
        seen = seen_pairs(place, turn.walks[place, outcome])
        for claim in score.claims:
            if value(claim.at[t]):
                team, ranks = claim_values(score, claim, t, value, seen)
                if not tile_in_reach(claim.tile.spec, team, ranks, rules,
                                     state_limit=score.lean.budget.tile_reach_states,
                                     budget=score.lean.budget.tower):
                    return False
        place = outcome.end
    return True


@dataclass(frozen=True)
class LeanScoreGoal:
    """The score goal on the lean model: its result (a sound bound on every plan's points),
    and its plan's route as values of the full model's places (`PlanModel.at`)."""

    result: LeanResult
    route: tuple[tuple[Var, int], ...]
    cuts: Cuts = ()  # the cuts its solves made (`lean_tiles.cut`)
    # its plan's claims stand in the order of its route's walks (`claims_in_order`; always,
    # with the order of visits)
    in_order: bool = True


def lean_score(plan: PlanModel, *, work: float, time_limit: float, seed: int = 0,
               workers: int = 1, linearization: int | None = None, order: bool = False,
               cuts: Cuts = (), least: int = 0, most: int | None = None) -> LeanScoreGoal:
    """The most points of `plan`'s horizon by the lean score model (with the order of
    visits when `order`), within `work` deterministic units (and `time_limit` wall seconds,
    the safety net). With the "cuts" tile check, a solution claiming a tile on a team and
    ranks that stand no tower of it is cut off (`lean_tiles.cut`) and the model solved again
    from it, while the budget lasts: proven optimal only when the last solve is and its
    claims all stand. `cuts`: made at once (those of an earlier solve of the same horizon,
    `LeanScoreGoal.cuts`). `least`, `most`: only plans of that many points (a plan found
    elsewhere, a bound known): when none has `least`, the bound is one less (a proof that no
    plan has more). No route when the budget ended before any plan. Its times include
    building the model. `linearization` and the rest of its tuning: `plan.budget`'s."""
    cpu, wall = time.process_time(), now()
    budget = plan.budget
    score, made = _model_of(plan, order, cuts, least, most)
    run = _CutSolves(score, work, wall + time_limit, seed, workers,
                     budget.score_linearization if linearization is None else linearization,
                     least, made)
    run.solve()
    status, kept = run.status, run.kept
    if status is Status.INFEASIBLE:  # the route of a plan cut before stays, as a start
        value = None
    else:
        if run.wrong or kept is not run.last:  # its claims stand no tower, or a later solve
            # found none
            status = Status.FEASIBLE if kept is not None else Status.UNKNOWN
        value = round(kept.objective_value) if kept is not None else None
    result = LeanResult(status, value, run.bound, run.spent, time.process_time() - cpu,
                        now() - wall, run.branches, run.clock)
    in_order = kept is None or order or claims_in_order(score, kept.value)
    return LeanScoreGoal(result, route(plan, score.lean, kept) if kept is not None else (),
                         tuple(run.made), in_order)


def _model_of(plan: PlanModel, order: bool, cuts: Cuts, least: int, most: int | None
              ) -> tuple[LeanScore, list[tuple[str, Pool, SkillRanks]]]:
    """The lean score model to solve: built (its own first cuts unless `cuts` are given),
    `cuts` added, hinted, its points its objective within `least` and `most`; and the cuts
    made so far."""
    score = build_lean_score(plan, order, first_cuts=not cuts)  # given cuts include them
    model = score.model
    made = [*score.cuts, *cuts]
    by_tile = {claim.tile.id: claim for claim in score.claims}
    for tile, team, ranks in cuts:
        add_cut(score, by_tile[tile], team, ranks)
    hint_idle(score.lean)
    for claim in score.claims:  # no claim, no tile tower (a search that tries towers first
        # takes seconds to find any plan)
        for var in claim.at.values():
            model.add_hint(var, 0)
        for slot in claim.layout.slots if claim.layout is not None else ():
            model.add_hint(slot.active, 0)
    # on the caps' domain: the search's bound starts at the caps, not at the parts' sum
    top = score_caps(plan).total if most is None else min(most, score_caps(plan).total)
    points = model.new_int_var(min(least, top), top, "points")
    model.add(points == score.points)
    model.maximize(points)
    return score, made


@dataclass
class _CutSolves:
    """The lean score model solved again while its solutions claim tiles on teams that stand
    no tower (each such claim cut off), within `work` units and the `deadline`."""

    score: LeanScore
    work: float
    deadline: float  # planner.clock.now()
    seed: int
    workers: int
    linearization: int
    least: int
    made: list[tuple[str, Pool, SkillRanks]]
    spent: float = 0.0
    branches: int = 0
    clock: bool = False
    solves: int = 0
    bound: int | None = None
    kept: cp_model.CpSolver | None = None  # the last solve that found a plan
    last: cp_model.CpSolver | None = None  # the last solve
    wrong: list[tuple[LeanClaim, Pool, SkillRanks]] = field(default_factory=list)
    status: Status = Status.UNKNOWN

    def solve(self) -> None:
        budget, model = self.score.lean.budget, self.score.model
        while True:
            left = max(0.01, self.deadline - now())
            solver = lean_solver(budget, left, max(0.01, self.work - self.spent),
                                 self.linearization, self.seed, self.workers, light=True)
            self.last = solver
            code = self._solved(solver)
            if code is None:
                break
            self.kept, self.status = solver, STATUS[code]
            self.wrong = (wrong_claims(self.score, solver) if budget.tile_check == "cuts"
                          else [])
            if (not self.wrong or self.spent >= self.work or self.clock
                    or self.solves >= budget.most_score_solves or cancel_requested()):
                break
            for claim, team, ranks in self.wrong:
                self.made += [(claim.tile.id, *grown)
                              for grown in cut(self.score, claim, team, ranks)]
            hint_solution(model, solver)

    def _solved(self, solver: cp_model.CpSolver) -> cp_model.CpSolverStatus | None:
        """One solve, counted; its status code when it found a plan, None when the loop
        ends (no plan of `least` points, proven; or the budget ended first: the plan found
        before, its claims cut, stays)."""
        model = self.score.model
        code = solve_stoppable(solver, model)
        if code == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT rejected the lean score model: {model.validate()}")
        self.solves += 1
        self.spent += solver.response_proto.deterministic_time
        self.branches += int(solver.num_branches)
        self.clock = self.clock or stopped_by_clock(solver)
        found = STATUS.get(code, Status.UNKNOWN) in (Status.OPTIMAL, Status.FEASIBLE)
        # a solve that found no plan may not have searched at all (stopped in its presolve:
        # its bound is then 0, not a bound); one that found a plan bounds every plan
        if found and math.isfinite(solver.best_objective_bound):
            solved = int(solver.best_objective_bound + 1e-6)
            self.bound = solved if self.bound is None else min(self.bound, solved)
        elif code == cp_model.INFEASIBLE:  # no plan of `least` points: none has more
            self.bound, self.status = max(0, self.least - 1), Status.INFEASIBLE
            return None
        return code if found else None


def route(plan: PlanModel, lean: LeanModel, solver: cp_model.CpSolver
          ) -> tuple[tuple[Var, int], ...]:
    """The lean plan's walk as the full model's place at every stop (`lean_holds`' places)."""
    places = {var.index for stop in plan.at for var in stop.values()}
    return tuple((var, value) for var, value in lean_holds(plan, lean, solver)
                 if var.index in places)

