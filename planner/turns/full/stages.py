"""Lexicographic objectives on one CP-SAT model: solve for the first, fix it, hint the
solution, solve for the next. Small proofs in turn beat one proof of a folded objective.

The first stage is the goal and its status is the result's status; later stages are tie-breaks
that share what is left of the time limit, each reported as proven or not.

Budgets are deterministic (CP-SAT's own count of work, `planner.tower.configure`), so the same
question gets the same plan on any machine; the wall clock is only a safety net, and a stage it
stopped is reported (`clock_hit`)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from ortools.sat.python import cp_model

from planner.stopping import cancel_requested, solve_stoppable, stop_requested
from planner.tower import DETERMINISTIC_PER_SECOND, STATUS, Status, configure, stopped_by_clock

Sense = Literal["max", "min"]
# deterministic work the presolve may probe for on a long horizon (CP-SAT's default: 1.0)
LIGHT_PROBING = 0.05
# the most deterministic work one tie-break stage may take: on the benchmark's 3-turn plans
# tie-breaks given 1 unit and more rarely proved either (2 of 24), and made the whole call
# take 2-3 times the goal's own time; at 0.4 some plans lost the tiles they claim
TIE_BREAK_WORK = 0.8


@dataclass(frozen=True)
class Stage:
    """One stage of a lexicographic solve: its name, objective, sense and what it holds."""
    name: str
    expr: cp_model.LinearExprT
    sense: Sense
    # variables held at a value, this stage only (a dominance or a relaxation of the stage)
    held: tuple[tuple[cp_model.IntVar, int], ...] = ()
    # a stage folding several objectives (weighted, one proof instead of several presolves):
    # each part's name and expression, to report them apart
    parts: tuple[tuple[str, cp_model.LinearExprT], ...] = ()
    # a maximized stage's second wish (minimized, within 0..weight - 1): the search takes it
    # into account (weighted below the objective), but only the objective is fixed after the
    # stage, so the tie-breaks keep their order; the stage reports the objective alone
    secondary: cp_model.LinearExprT | None = None
    weight: int = 1

    def searched(self) -> cp_model.LinearExprT:
        """What the stage's search optimizes."""
        if self.secondary is None:
            return self.expr
        return self.weight * self.expr - self.secondary  # type: ignore[operator]

    def bound_of(self, bound: float) -> int:
        """The objective's bound, from the bound of what the search optimizes: a whole number,
        since every objective is (CP-SAT reports its bound as a float)."""
        if self.sense == "min":
            return math.ceil(bound - 1e-6)
        if self.secondary is None:
            return math.floor(bound + 1e-6)
        return (math.floor(bound + 1e-6) + self.weight - 1) // self.weight


def fold(name: str, stages: Sequence[tuple[Stage, int, int]]) -> Stage:
    """Lexicographic stages as one weighted stage (maximized): each given with the least and
    the most its objective can be, so that a unit of one outweighs every value of those after
    it. One solve instead of several: each solve of the full plan model costs 0.3-0.4 s of CPU
    before any search (copy, presolve, loading), which is most of a tie-break's cost. Reports
    each stage's parts apart."""
    terms: list[cp_model.LinearExprT] = []
    parts: list[tuple[str, cp_model.LinearExprT]] = []
    weight = 1
    for stage, low, high in reversed(stages):
        terms.append(weight * (stage.expr if stage.sense == "max" else -stage.expr))
        weight *= high - low + 1
        parts[:0] = stage.parts or ((stage.name, stage.expr),)
    return Stage(name, cp_model.LinearExpr.sum(terms), "max", parts=tuple(parts))


@dataclass(frozen=True)
class StagedResult:
    """A lexicographic solve's answer: the first stage's status, each stage's value, the bound."""
    status: Status  # of the first stage: optimal only when it was proven
    values: tuple[int | None, ...]  # each stage's objective in the solution kept
    proven: tuple[bool, ...]  # each stage proven optimal (given the ones before)
    first_bound: int | None  # the first stage's proven bound
    branches: int
    first_time_s: float = 0.0  # how long the goal's own stage took
    first_cpu_s: float = 0.0  # its CPU time (time.process_time: a shared machine's measure)
    clock_hit: bool = False  # the wall clock, not the deterministic budget, stopped a stage
    stages: tuple[Stage, ...] = ()  # the stages solved, in order (with those `then` added)


def solve_stages(model: cp_model.CpModel, stages: Sequence[Stage], *, time_limit: float,
                 workers: int = 1, seed: int = 0, linearization: int | None = None,
                 light_presolve: bool = False, light_tie_breaks: bool = False,
                 work: float | None = None, tie_break_work: float = TIE_BREAK_WORK,
                 hinted: bool = False, hint_complete: bool = False, goal_share: float = 1.0,
                 then: Callable[[int], Sequence[Stage]] | None = None
                 ) -> tuple[StagedResult, cp_model.CpSolver]:
    """Solve `stages` in order; the returned solver holds the final solution (when any).
    `work` is the deterministic budget of all stages (default: the time limit's worth), and
    `time_limit` the wall-clock safety net. The goal's stage may use `goal_share` of the
    budget (all of it by default: the goal comes first); the tie-breaks share what it leaves,
    equally, up to `tie_break_work` each (`light_tie_breaks`: with a short presolve, as
    `light_presolve` gives every stage). `hinted`: the model's
    hint is a feasible solution (the idle plan), kept (unproven) when the budget ends before
    the search finds any. `hint_complete`: the hint is a whole plan already found (every
    variable's value, `score_start`'s): when the deadline came before or during the goal's
    stage, it is read back even so (a quick check with every variable fixed, which the
    deadline does not stop): a clock never turns a plan in hand into no plan. `then`, given
    the first stage's value, returns the stages to solve after it in place of those given
    (none: those given; they may add variables)."""
    deadline = time.perf_counter() + time_limit
    cpu = time.process_time()
    budget = DETERMINISTIC_PER_SECOND * time_limit if work is None else work
    used = 0.0
    clock_hit = False
    solver = cp_model.CpSolver()
    configure(solver, time_limit=time_limit, workers=workers, seed=seed)
    if linearization is not None:
        solver.parameters.linearization_level = linearization
    # CP-SAT probes every Boolean once more when it loads the presolved model, on a fixed
    # 1.0 units of deterministic time (hard-coded, for probing level 2): on a 10-turn plan
    # model that is most of a 10 s limit's budget, before any search. Level 1 keeps the
    # presolve's probing (level 0, no probing at all, aborted ortools 9.15 on some tower
    # models: tests/planner/tower/test_cases.py)
    solver.parameters.cp_model_probing_level = 1
    if light_presolve:  # long horizons: a short presolve, the budget goes to the search
        solver.parameters.max_presolve_iterations = 1
        solver.parameters.probing_deterministic_time_limit = LIGHT_PROBING
    values: list[int | None] = []
    proven: list[bool] = []
    first_bound: int | None = None
    first_status = Status.UNKNOWN
    first_time = 0.0
    branches = 0
    stages = list(stages)
    if stop_requested():  # cancelled, or past the command's deadline: not even a model copy
        if _must_read_back(hint_complete) and _restore(model, solver, deadline):
            return _as_hinted(solver, stages, 0, 0.0, 0.0), solver
        return StagedResult(Status.UNKNOWN, (), (), None, 0, clock_hit=True), solver
    for number, stage in enumerate(stages):
        _aim(model, stage)
        left = budget - used
        if number:  # the tie-breaks share what the goal left, equally, up to a cap each
            left = min(left / (len(stages) - number), tie_break_work)
        elif len(stages) > 1:
            left = goal_share * budget
        if number and (left <= 0 or deadline <= time.perf_counter() or stop_requested()):
            break  # no budget left: the stages left keep the solution's values, unproven
        if number and light_tie_breaks:
            solver.parameters.max_presolve_iterations = 1
            solver.parameters.probing_deterministic_time_limit = LIGHT_PROBING
        solver.parameters.max_deterministic_time = max(0.001, left)
        solver.parameters.max_time_in_seconds = max(0.01, deadline - time.perf_counter())
        status = _solve(model, solver, stage.held)
        branches += int(solver.num_branches)
        used += solver.response_proto.deterministic_time
        clock_hit = clock_hit or stopped_by_clock(solver)
        if number == 0:
            first_time = time.perf_counter() - (deadline - time_limit)
            cpu = time.process_time() - cpu
            # the idle hint fixes only the plan's actions: a search for the rest, which a
            # cancel or the command's deadline stops; a whole plan's, a check that must end
            if (status is Status.UNKNOWN and (hinted or hint_complete)
                    and _restore(model, solver, deadline,
                                 stoppable=not _must_read_back(hint_complete))):
                return _as_hinted(solver, stages, branches, first_time, cpu, clock_hit), solver
            if status in (Status.INFEASIBLE, Status.UNKNOWN):
                return StagedResult(status, (), (), None, branches, first_time, cpu,
                                    clock_hit), solver
            first_bound = stage.bound_of(solver.best_objective_bound)
            first_status = status
        if status not in (Status.OPTIMAL, Status.FEASIBLE):
            break  # keep the previous stage's solution
        proven.append(status is Status.OPTIMAL)
        value = round(solver.objective_value if stage.secondary is None
                      else solver.value(stage.expr))
        values.append(value)
        hint_solution(model, solver)
        model.add(stage.expr == value)
        if number == 0 and then is not None:
            stages[1:] = then(value) or stages[1:]
    if len(values) < len(stages):
        restored = _restore_code(model, solver, deadline)
        if restored == cp_model.UNKNOWN:  # out of time even for the check (a model of the
            # whole bag at rank 150, at load in CI): no plan to read back, unknown
            return StagedResult(Status.UNKNOWN, (), (), None, branches, first_time, cpu,
                                True), solver
        if restored not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise RuntimeError("CP-SAT lost the plan it had found")
        # the stages left unsolved still have a value in the plan kept
        values += [round(solver.value(s.expr)) for s in stages[len(values):]]
        proven += [False] * (len(stages) - len(proven))
    result = StagedResult(first_status, tuple(values), tuple(proven), first_bound, branches,
                          first_time, cpu, clock_hit, tuple(stages))
    return result, solver


def _must_read_back(hint_complete: bool) -> bool:
    """The hint is a whole plan already found and no one cancelled: reading it back is a
    quick check with every variable fixed, which the command's deadline does not stop."""
    return hint_complete and not cancel_requested()


def _as_hinted(solver: cp_model.CpSolver, stages: Sequence[Stage], branches: int,
               first_time: float, cpu: float, clock_hit: bool = True) -> StagedResult:
    """The hinted plan, read back by `_restore` into `solver`, as the stages' result: every
    stage's value in it, none proven."""
    values = tuple(round(solver.value(s.expr)) for s in stages)
    return StagedResult(Status.FEASIBLE, values, (False,) * len(stages), None, branches,
                        first_time, cpu, clock_hit, tuple(stages))


def hint_held(model: cp_model.CpModel, stage: Stage, *, work: float, time_limit: float,
              workers: int = 1, seed: int = 0) -> tuple[int | None, float]:
    """Solve `stage` once with its held variables fixed (a short presolve, `work` units at
    most) and make the solution found, every variable's value, the model's hint: a plan fixed
    elsewhere (the lean model's, or a claim at once) becomes the full model's starting point.
    Returns the stage's objective in the solution (None: none found, the hint is left as it
    was) and the deterministic work spent. The model is left as it was, but for its hint and
    objective. Cancelled, or past the command's deadline: no solve at all (as `solve_stages`;
    a full model's solve takes 0.1-0.5 s to notice a cancel, 2 s on a loaded machine)."""
    if stop_requested():
        return None, 0.0
    solver = cp_model.CpSolver()
    configure(solver, time_limit=time_limit, workers=workers, seed=seed, deterministic=work)
    solver.parameters.linearization_level = 0
    solver.parameters.cp_model_probing_level = 1
    solver.parameters.max_presolve_iterations = 1
    solver.parameters.probing_deterministic_time_limit = LIGHT_PROBING
    _aim(model, stage)
    status = _solve(model, solver, stage.held)
    spent = solver.response_proto.deterministic_time
    if status not in (Status.OPTIMAL, Status.FEASIBLE):
        return None, spent
    hint_solution(model, solver)
    return round(solver.value(stage.expr)), spent


def _aim(model: cp_model.CpModel, stage: Stage) -> None:
    """Make the stage's search objective the model's."""
    model.clear_objective()  # type: ignore[no-untyped-call]
    if stage.sense == "max":
        model.maximize(stage.searched())
    else:
        model.minimize(stage.searched())


def hint_solution(model: cp_model.CpModel, solver: cp_model.CpSolver) -> None:
    """The solver's solution, every variable's value (of those the solved model had; a
    variable added since gets no hint), becomes the model's hint."""
    set_hint(model, list(solver.response_proto.solution))


def set_hint(model: cp_model.CpModel, values: list[int]) -> None:
    """`values`, variable by variable from the first (as `hint_solution` leaves them), become
    the model's hint. Set on the proto at once: a plan model has about 10,000 variables, and
    `add_hint` per variable took 0.1-0.2 s a stage."""
    model.clear_hints()  # type: ignore[no-untyped-call]
    hint = model.proto.solution_hint
    hint.vars.extend(range(len(values)))
    hint.values.extend(values)


def _solve(model: cp_model.CpModel, solver: cp_model.CpSolver,
           held: Sequence[tuple[cp_model.IntVar, int]]) -> Status:
    """One solve with the `held` variables fixed, this solve only."""
    kept = _hold(model, held)
    code = solve_stoppable(solver, model)
    for index, (low, high) in kept.items():
        domain = model.proto.variables[index].domain
        domain[0], domain[1] = low, high
    if code == cp_model.MODEL_INVALID:
        raise RuntimeError(f"CP-SAT rejected the plan model: {model.validate()}")
    return STATUS.get(code, Status.UNKNOWN)


def _hold(model: cp_model.CpModel, held: Sequence[tuple[cp_model.IntVar, int]]
          ) -> dict[int, tuple[int, int]]:
    """Fix each held variable's domain (one interval: the plan model's are) to its value;
    returns the domains to put back."""
    kept: dict[int, tuple[int, int]] = {}
    for var, value in held:
        domain = model.proto.variables[var.index].domain
        if len(domain) != 2 or not domain[0] <= value <= domain[1]:
            raise ValueError(f"cannot hold {var} at {value}: its domain is {list(domain)}")
        kept.setdefault(var.index, (domain[0], domain[1]))
        domain[0], domain[1] = value, value
    return kept


def holdable(model: cp_model.CpModel, held: Sequence[tuple[cp_model.IntVar, int]]) -> bool:
    """`_hold` can hold these: each value within its variable's domain, one value a variable."""
    seen: dict[int, int] = {}
    for var, value in held:
        domain = model.proto.variables[var.index].domain
        if len(domain) != 2 or not domain[0] <= value <= domain[1]:
            return False
        if seen.setdefault(var.index, value) != value:
            return False
    return True


def _restore(model: cp_model.CpModel, solver: cp_model.CpSolver, deadline: float,
             stoppable: bool = False) -> bool:
    """Re-solve with every variable fixed to the hinted (last found) solution; false when
    the hint is not a solution, or the check ran out of time."""
    return _restore_code(model, solver, deadline, stoppable) in (cp_model.OPTIMAL,
                                                                 cp_model.FEASIBLE)


def _restore_code(model: cp_model.CpModel, solver: cp_model.CpSolver, deadline: float,
                  stoppable: bool = False) -> int:
    """`_restore`'s check, as CP-SAT's status code (UNKNOWN: out of time or cancelled)."""
    model.clear_objective()  # type: ignore[no-untyped-call]
    solver.parameters.fix_variables_to_their_hinted_value = True
    solver.parameters.max_deterministic_time = 10.0  # all fixed: a check, not a search
    solver.parameters.max_time_in_seconds = max(1.0, deadline - time.perf_counter())
    code = solve_stoppable(solver, model, stoppable=stoppable)  # all fixed: quick
    solver.parameters.fix_variables_to_their_hinted_value = False
    return int(code)
