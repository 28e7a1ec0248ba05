"""The festival goal's first stage on the lean model (`planner.turns.lean`).

Same optimum as the full model's goal stage (tests/planner/turns/test_lean.py), found and
proven with far less search (benchmarks/probe_lean.py; figures in the README). The festival
goal asks it one festival at a time (`best_of_each`): the best score is the best festival's,
and one tower layout with a floor on its score proves in far less search than all of them
in one model (tests/planner/turns/test_lean_each.py). The plan it finds is written as values
of the full model's variables (`lean.solve.lean_holds`), held there so that only the tower is
left.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from ortools.sat.python import cp_model

from models.game import FestivalSpace
from planner.clock import now
from planner.stopping import solve_stoppable
from planner.tower import STATUS, Status
from planner.turns.budget import DEFAULT_BUDGET, PlanBudget
from planner.turns.full.model import PlanModel, festival_cap
from planner.turns.horizon import Horizon
from planner.turns.lean.model import LeanModel, build_lean_model, hint_idle
from planner.turns.lean.solve import (
    LeanResult,
    fewer_tokens,
    lean_holds,
    lean_solver,
    solve_lean,
)

Var = cp_model.IntVar


@dataclass(frozen=True)
class LeanGoal:
    """The festival goal's first stage solved on the lean model: its result, and its plan as
    values of the full model's variables (`lean_holds`)."""

    result: LeanResult
    holds: tuple[tuple[Var, int], ...]


def lean_goal(plan: PlanModel, *, work: float, time_limit: float, seed: int = 0,
              workers: int = 1, linearization: int | None = None, light: bool = False,
              spare_work: float = 0.0) -> LeanGoal | None:
    """The best festival score of `plan`'s horizon by the lean model, within `work`
    deterministic units; None when no festival of the horizon is in reach (the full model's
    stage is then trivial). No holds when the budget ended before any plan. `light`,
    `spare_work`: as `solve_lean`'s. Its times include building the lean models (their caps
    per rank vector: tens of ms), so that the goal's reported time is all the goal cost.
    `linearization`: the LP's level (default: the plan's budget's `lean_linearization`).
    `PlanBudget.per_festival`: one festival at a time (`best_of_each`), else all in one
    model."""
    cpu, wall = time.process_time(), now()
    budget = plan.budget
    if linearization is None:
        linearization = budget.lean_linearization
    if budget.per_festival:
        found = best_of_each(plan.horizon, work=work, time_limit=time_limit, seed=seed,
                             workers=workers, linearization=linearization, light=light,
                             spare_work=spare_work, budget=budget)
        if found is None:
            return None
        result, lean, solver = found
    else:
        lean = build_lean_model(plan.horizon, budget=budget)
        if not lean.festivals:
            return None
        hint_idle(lean)
        result, solver = solve_lean(lean, work=work, time_limit=time_limit,
                                    linearization=linearization, seed=seed, workers=workers,
                                    light=light, spare_work=spare_work)
    result = replace(result, cpu_s=time.process_time() - cpu,
                     wall_s=now() - wall)
    if result.value is None or lean is None or solver is None:
        return LeanGoal(result, ())
    return LeanGoal(result, tuple(lean_holds(plan, lean, solver)))


def ranked_festivals(horizon: Horizon) -> list[tuple[int, int, FestivalSpace]]:
    """The horizon's festivals a team in reach can compete in, as (cap, turn, festival):
    highest cap first (`festival_cap`), the earlier turn first among equal caps (a shorter
    model, and the plan that gets there sooner)."""
    ranked = []
    for t, space in horizon.festivals:
        cap = festival_cap(horizon, t, space)
        if cap is not None:
            ranked.append((cap, t, space))
    return sorted(ranked, key=lambda entry: (-entry[0], entry[1]))


def best_of_each(horizon: Horizon, *, work: float, time_limit: float, seed: int = 0,
                 workers: int = 1, linearization: int | None = None, light: bool = False,
                 spare_work: float = 0.0, budget: PlanBudget = DEFAULT_BUDGET
                 ) -> tuple[LeanResult, LeanModel | None, cp_model.CpSolver | None] | None:
    """The best festival score as the best of one lean model per festival, highest cap first
    (`ranked_festivals`), each asked only to beat the best score found so far and skipped
    when its cap cannot: the goal is the best festival's score, so no festival's plan needs
    the others' towers, and a model with one tower layout proves far sooner. Measured on
    the benchmark's 91 states at 3 turns on the lean goal's budget (1.5 units): all 91
    proven against 84 with every festival in one model, median 0.24 units against 0.66
    (the festivals after the first are mostly refused in presolve). Within `work` units and
    `time_limit` wall seconds in all; a festival the budget leaves out counts with its cap
    in the bound. Returns the result, and the model and solver of the best plan (None when
    none was found); None when no festival is in reach. `spare_work`: the fewest tokens at
    the proven score, in the best plan's model. `linearization` and the rest of the tuning:
    `budget`'s."""
    if linearization is None:
        linearization = budget.lean_linearization
    ranked = ranked_festivals(horizon)
    if not ranked:
        return None
    # every model plans the turns the one with all festivals would: the plan's tie-breaks
    # keep the lean plan's route (measured: with each festival's turns only, the turns after
    # an early festival were the tie-breaks' own, and they took 1-2 s more CPU)
    each = _Each(horizon, budget, max(t for _, t, _ in ranked) + 1, work,
                 now() + time_limit, seed, workers, linearization, light)
    for cap, t, space in ranked:
        if each.best is not None and cap <= each.best[2]:
            break  # the caps left are no higher
        if not each.solve(cap, t, space):
            break
    if each.best is None and each.proven:  # no plan competes anywhere: the idle plan is best
        idle = _idle_plan(horizon, ranked[0][1], ranked[0][2], each.through, each.left(),
                          seed, workers, budget)
        if idle is not None:
            each.best = (*idle, 0)
    return each.answer(spare_work)


@dataclass
class _Each:
    """`best_of_each` as it goes: the best plan so far (its model, solver and score), the
    bound of the festivals left unproven, the work spent, the branches and clock."""

    horizon: Horizon
    budget: PlanBudget
    through: int
    work: float
    deadline: float  # planner.clock.now()
    seed: int
    workers: int
    linearization: int
    light: bool
    started: float = field(default_factory=now)
    best: tuple[LeanModel, cp_model.CpSolver, int] | None = None
    bound: int = 0
    proven: bool = True
    spent: float = 0.0
    branches: int = 0
    clock: bool = False

    def left(self) -> float:
        return max(0.01, self.deadline - now())

    def solve(self, cap: int, t: int, space: FestivalSpace) -> bool:
        """Festival `space`'s model, asked to beat the best so far; False when the budget
        ended before it (the caps left are no higher: this one's is the bound)."""
        budget = self.budget
        left = self.deadline - now()
        if self.work - self.spent < budget.least_festival_work or left <= 0:
            self.bound, self.proven = max(self.bound, cap), False
            return False
        lean = build_lean_model(replace(self.horizon, festivals=((t, space),)),
                                through=self.through, budget=budget)
        hint_idle(lean)
        # only a better plan is worth the search, and before any, a plan that competes
        # there (measured: this floor of 1 cut the top festivals' units by a third; the
        # presolve then knows the pawn ends there with a tower)
        lean.model.add(lean.best >= (0 if self.best is None else self.best[2]) + 1)
        level = (min(self.linearization, budget.early_linearization)
                 if t < budget.early_turns else self.linearization)
        result, solver = solve_lean(lean, work=self.work - self.spent, time_limit=left,
                                    linearization=level, seed=self.seed, workers=self.workers,
                                    light=self.light)
        self.spent, self.branches = self.spent + result.work, self.branches + result.branches
        self.clock = self.clock or result.clock_hit
        if result.status is Status.INFEASIBLE:  # no plan beats the best one: proven so
            return True
        if result.value is not None and (self.best is None or result.value > self.best[2]):
            self.best = (lean, solver, result.value)
        if result.status is not Status.OPTIMAL:
            self.bound = max(self.bound, cap if result.bound is None else result.bound)
            self.proven = False
        return True

    def answer(self, spare_work: float
               ) -> tuple[LeanResult, LeanModel | None, cp_model.CpSolver | None]:
        """The result, and the best plan's model and solver (with the fewest tokens at a
        proven score, on up to `spare_work` units)."""
        if self.best is None:
            return LeanResult(Status.UNKNOWN, None, None if self.proven else self.bound,
                              self.spent, 0.0, now() - self.started,
                              self.branches, self.clock), None, None
        lean, solver, value = self.best
        status = Status.OPTIMAL if self.proven else Status.FEASIBLE
        result = LeanResult(status, value, max(self.bound, value), self.spent, 0.0, 0.0,
                            self.branches, self.clock)
        if self.proven and spare_work > 0:
            result, solver = fewer_tokens(lean, solver, result, value, work=spare_work,
                                          time_limit=self.left(),
                                          linearization=self.linearization, seed=self.seed,
                                          workers=self.workers, light=self.light)
        return replace(result, wall_s=now() - self.started), lean, solver


def _idle_plan(horizon: Horizon, t: int, space: FestivalSpace, through: int, time_limit: float,
               seed: int, workers: int, budget: PlanBudget
               ) -> tuple[LeanModel, cp_model.CpSolver] | None:
    """A plan of festival `space`'s model that competes nowhere (its score held at 0): the
    plan `best_of_each` returns when no plan can compete at any festival."""
    lean = build_lean_model(replace(horizon, festivals=((t, space),)), through=through,
                            budget=budget)
    hint_idle(lean)
    lean.model.add(lean.best == 0)
    solver = lean_solver(budget, time_limit, budget.idle_work, 0, seed, workers, True)
    if STATUS.get(solve_stoppable(solver, lean.model), Status.UNKNOWN) not in (
            Status.OPTIMAL, Status.FEASIBLE):
        return None
    return lean, solver
