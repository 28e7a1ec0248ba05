"""Proving that a question has exactly one answer (a puzzle's uniqueness), with CP-SAT.

Towers count as sequences of per-level size multisets. Solve; then forbid that tower, keep the
objective at the optimum, and solve again: infeasible proves the answer unique, a second tower
disproves it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from models.tower import Pool, Rules, SkillRanks, Tower
from planner.clock import now
from planner.stopping import solve_stoppable
from planner.tower import (
    DEFAULT_TIME_LIMIT,
    Question,
    SolveResult,
    Status,
    build_model,
    configure,
    solve_cpsat,
)


@dataclass(frozen=True)
class Uniqueness:
    first: SolveResult
    unique: bool | None  # None: not decided (no optimum, or the time limit came first)
    second: Tower | None  # another tower as good as the first, when not unique
    branches: int  # CP-SAT search effort of both solves (deterministic with one worker)
    wall_time_s: float


def second_answer(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules,
                  tower: Tower, objective: int | None, *, time_limit: float,
                  seed: int = 0) -> tuple[Status, Tower | None, int]:
    """Another tower answering `question` at least as well as `tower`, if one exists."""
    layout = build_model(question, pool, ranks, rules)
    model = layout.model
    model.clear_objective()  # type: ignore[no-untyped-call]
    if layout.objective is not None and objective is not None:
        model.add(layout.objective >= objective)
    layout.forbid(tower)
    solver = cp_model.CpSolver()
    configure(solver, time_limit=time_limit, workers=1, seed=seed)
    code = solve_stoppable(solver, model)
    branches = int(solver.num_branches)
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Status.FEASIBLE, layout.tower(solver), branches
    if code == cp_model.INFEASIBLE:
        return Status.INFEASIBLE, None, branches
    return Status.UNKNOWN, None, branches


def prove_unique(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules, *,
                 time_limit: float = DEFAULT_TIME_LIMIT, seed: int = 0) -> Uniqueness:
    started = now()
    first = solve_cpsat(question, pool, ranks, rules, time_limit=time_limit, seed=seed)
    if first.status is not Status.OPTIMAL or first.tower is None:
        return Uniqueness(first, None, None, first.branches, now() - started)
    status, second, branches = second_answer(question, pool, ranks, rules, first.tower,
                                             first.objective, time_limit=time_limit, seed=seed)
    unique = {Status.INFEASIBLE: True, Status.FEASIBLE: False}.get(status)
    return Uniqueness(first, unique, second, first.branches + branches,
                      now() - started)
