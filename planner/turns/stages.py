"""Lexicographic objectives on one CP-SAT model: solve for the first, fix it, hint the
solution, solve for the next. Small proofs in turn beat one proof of a folded objective.

The first stage is the goal and its status is the result's status; later stages are tie-breaks
that share what is left of the time limit, each reported as proven or not."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ortools.sat.python import cp_model

from planner.stopping import solve_stoppable
from planner.tower import STATUS, Status, configure

Sense = Literal["max", "min"]


@dataclass(frozen=True)
class Stage:
    name: str
    expr: cp_model.LinearExprT
    sense: Sense
    held: tuple[tuple[cp_model.IntVar, int], ...] = ()  # literals held at a value, this stage only


@dataclass(frozen=True)
class StagedResult:
    status: Status  # of the first stage: optimal only when it was proven
    values: tuple[int | None, ...]  # each stage's objective in the solution kept
    proven: tuple[bool, ...]  # each stage proven optimal (given the ones before)
    first_bound: float | None  # the first stage's proven bound
    branches: int
    first_time_s: float = 0.0  # how long the goal's own stage took


TIE_BREAK_SHARE = 0.2  # of the time limit, at most, for each tie-break stage


def solve_stages(model: cp_model.CpModel, stages: Sequence[Stage], *, time_limit: float,
                 workers: int = 1, seed: int = 0, linearization: int | None = None,
                 light_presolve: bool = False) -> tuple[StagedResult, cp_model.CpSolver]:
    """Solve `stages` in order; the returned solver holds the final solution (when any).
    A tie-break stage gets at most `TIE_BREAK_SHARE` of the time limit: the goal comes first,
    and a user should not wait long for a proof that only orders equally good plans."""
    deadline = time.perf_counter() + time_limit
    solver = cp_model.CpSolver()
    configure(solver, time_limit=time_limit, workers=workers, seed=seed)
    if linearization is not None:
        solver.parameters.linearization_level = linearization
    if light_presolve:
        solver.parameters.max_presolve_iterations = 1
    values: list[int | None] = []
    proven: list[bool] = []
    first_bound: float | None = None
    first_status = Status.UNKNOWN
    first_time = 0.0
    branches = 0
    solution: dict[int, int] | None = None
    variables = [model.get_int_var_from_proto_index(i)
                 for i in range(len(model.proto.variables))]
    for number, stage in enumerate(stages):
        model.clear_objective()  # type: ignore[no-untyped-call]
        if stage.sense == "max":
            model.maximize(stage.expr)
        else:
            model.minimize(stage.expr)
        left = deadline - time.perf_counter()
        if number:
            left = min(left, TIE_BREAK_SHARE * time_limit)
        solver.parameters.max_time_in_seconds = max(0.01, left)
        for var, value in stage.held:
            model.proto.variables[var.index].domain[1 - value] = value
        code = solve_stoppable(solver, model)
        for var, _ in stage.held:
            domain = model.proto.variables[var.index].domain
            domain[0], domain[1] = 0, 1
        if code == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT rejected the plan model: {model.validate()}")
        status = STATUS.get(code, Status.UNKNOWN)
        branches += int(solver.num_branches)
        if number == 0:
            first_time = time.perf_counter() - (deadline - time_limit)
            if status in (Status.INFEASIBLE, Status.UNKNOWN):
                return StagedResult(status, (), (), None, branches, first_time), solver
            first_bound = solver.best_objective_bound
            first_status = status
        if status not in (Status.OPTIMAL, Status.FEASIBLE):
            break  # keep the previous stage's solution
        proven.append(status is Status.OPTIMAL)
        value = round(solver.objective_value)
        values.append(value)
        solution = {v.index: solver.value(v) for v in variables}
        model.clear_hints()  # type: ignore[no-untyped-call]
        for var in variables:
            model.add_hint(var, solution[var.index])
        model.add(stage.expr == value)
    if len(values) < len(stages):
        _restore(model, solver, deadline)
        # the stages left unsolved still have a value in the plan kept
        values += [round(solver.value(s.expr)) for s in stages[len(values):]]
        proven += [False] * (len(stages) - len(proven))
    result = StagedResult(first_status, tuple(values), tuple(proven), first_bound, branches,
                          first_time)
    return result, solver


def _restore(model: cp_model.CpModel, solver: cp_model.CpSolver, deadline: float) -> None:
    """Re-solve with every variable fixed to the hinted (last found) solution."""
    model.clear_objective()  # type: ignore[no-untyped-call]
    solver.parameters.fix_variables_to_their_hinted_value = True
    solver.parameters.max_time_in_seconds = max(1.0, deadline - time.perf_counter())
    code = solve_stoppable(solver, model, stoppable=False)  # fixed: quick, and must finish
    solver.parameters.fix_variables_to_their_hinted_value = False
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError("CP-SAT lost the plan it had found")
