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
from dataclasses import dataclass, field
from typing import Literal

from ortools.sat.python import cp_model

from planner.clock import Clock, now
from planner.stopping import cancel_requested, solve_stoppable, stop_requested
from planner.tower import STATUS, Status, configure, stopped_by_clock
from planner.tower.budget import DEFAULT_TOWER, TowerBudget
from planner.turns.budget import PlanBudget

Sense = Literal["max", "min"]


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


@dataclass(frozen=True)
class StageRun:
    """How `solve_stages` runs. `clock`: the wall-clock safety net (its deadline) and the
    deterministic budget of all stages (its `work`; None: its seconds' worth at the tower
    budget's rate, `tower`). The goal's stage may use `goal_share` of it (all by default: the goal
    comes first); the tie-breaks share what it leaves, equally, up to `tie_break_work` each.
    `light_presolve`: every stage with a short presolve (`light_probing` units of probing);
    `light_tie_breaks`: the tie-breaks only. `hinted`: the model's hint is a feasible
    solution (the idle plan), kept (unproven) when the budget ends before the search finds
    any. `hint_complete`: the hint is a whole plan already found (every variable's value,
    the score goal's start): when the deadline came before or during the goal's stage, it
    is read back even so (a quick check with every variable fixed, which the deadline does
    not stop): a clock never turns a plan in hand into no plan."""

    clock: Clock
    workers: int = 1
    seed: int = 0
    linearization: int | None = None
    light_presolve: bool = False
    light_tie_breaks: bool = False
    tie_break_work: float = PlanBudget.tie_break_work
    goal_share: float = 1.0
    hinted: bool = False
    hint_complete: bool = False
    light_probing: float = PlanBudget.light_probing
    tower: TowerBudget = DEFAULT_TOWER
    # the goal's stage alone, on the work it gets with the tie-breaks after it (its value and
    # plan the same): a plan whose value alone is read
    goal_only: bool = False


@dataclass
class _Progress:
    """What the stages solved so far found: each stage's value and proof, the goal's status,
    bound and times, the branches and whether the wall clock stopped a stage."""

    deadline: float
    budget: float
    cpu: float
    used: float = 0.0
    values: list[int | None] = field(default_factory=list)
    proven: list[bool] = field(default_factory=list)
    first_bound: int | None = None
    first_status: Status = Status.UNKNOWN
    first_time: float = 0.0
    branches: int = 0
    clock_hit: bool = False

    def failed(self, status: Status) -> StagedResult:
        """The goal's stage ended with no plan (`status`: infeasible or unknown)."""
        return StagedResult(status, (), (), None, self.branches, self.first_time, self.cpu,
                            self.clock_hit)

    def result(self, stages: Sequence[Stage]) -> StagedResult:
        """Every stage's value and proof, the goal's status and bound."""
        return StagedResult(self.first_status, tuple(self.values), tuple(self.proven),
                            self.first_bound, self.branches, self.first_time, self.cpu,
                            self.clock_hit, tuple(stages))


def solve_stages(model: cp_model.CpModel, stages: Sequence[Stage], run: StageRun,
                 then: Callable[[int], Sequence[Stage]] | None = None
                 ) -> tuple[StagedResult, cp_model.CpSolver]:
    """Solve `stages` in order, as `run` says; the returned solver holds the final solution
    (when any). `then`, given the first stage's value, returns the stages to solve after it
    in place of those given (none: those given; they may add variables)."""
    deadline = run.clock.deadline
    budget = run.clock.units(run.tower.deterministic_per_second)
    done = _Progress(deadline, budget, time.process_time())
    solver = _stage_solver(run)
    stages = list(stages)
    asked = len(stages)  # the goal's work is its share of every stage asked, solved or not
    if run.goal_only:
        stages, then = stages[:1], None
    if stop_requested():  # cancelled, or past the command's deadline: not even a model copy
        if _must_read_back(run.hint_complete) and _restore(model, solver, deadline):
            return _as_hinted(solver, stages, 0, 0.0, 0.0), solver
        return StagedResult(Status.UNKNOWN, (), (), None, 0, clock_hit=True), solver
    for number, stage in enumerate(stages):
        _aim(model, stage)
        left = _stage_work(run, done, number, asked if run.goal_only else len(stages))
        if number and (left <= 0 or deadline <= now() or stop_requested()):
            break  # no budget left: the stages left keep the solution's values, unproven
        status = _solve_stage(model, solver, run, done, stage, number, left)
        if number == 0:
            ended = _goal_ended(model, solver, run, done, stages, status)
            if ended is not None:
                return ended, solver
        if status not in (Status.OPTIMAL, Status.FEASIBLE):
            break  # keep the previous stage's solution
        value = _fix_stage(model, solver, done, stage, status)
        if number == 0 and then is not None:
            stages[1:] = then(value) or stages[1:]
    if len(done.values) < len(stages):
        unread = _read_back_rest(model, solver, done, stages)
        if unread is not None:
            return unread, solver
    return done.result(stages), solver


def _stage_solver(run: StageRun) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    configure(solver, time_limit=run.clock.seconds, workers=run.workers, seed=run.seed,
              budget=run.tower)
    if run.linearization is not None:
        solver.parameters.linearization_level = run.linearization
    # CP-SAT probes every Boolean once more when it loads the presolved model, on a fixed
    # 1.0 units of deterministic time (hard-coded, for probing level 2): on a 10-turn plan
    # model that is most of a 10 s limit's budget, before any search. Level 1 keeps the
    # presolve's probing (level 0, no probing at all, aborted ortools 9.15 on some tower
    # models: tests/planner/tower/test_cases.py)
    solver.parameters.cp_model_probing_level = 1
    if run.light_presolve:  # long horizons: a short presolve, the budget goes to the search
        _light(solver, run.light_probing)
    return solver


def _light(solver: cp_model.CpSolver, probing: float) -> None:
    """A short presolve: one pass, `probing` units of probing."""
    solver.parameters.max_presolve_iterations = 1
    solver.parameters.probing_deterministic_time_limit = probing


def _stage_work(run: StageRun, done: _Progress, number: int, count: int) -> float:
    """The units stage `number` of `count` may take: the goal's share, or for a tie-break an
    equal share of what the goal left, up to `tie_break_work` each."""
    left = done.budget - done.used
    if number:
        return min(left / (count - number), run.tie_break_work)
    if count > 1:
        return run.goal_share * done.budget
    return left


def _solve_stage(model: cp_model.CpModel, solver: cp_model.CpSolver, run: StageRun,
                 done: _Progress, stage: Stage, number: int, work: float) -> Status:
    """One stage's solve on `work` units, within the deadline; its counts kept in `done`."""
    if number and run.light_tie_breaks:
        _light(solver, run.light_probing)
    solver.parameters.max_deterministic_time = max(0.001, work)
    solver.parameters.max_time_in_seconds = max(0.01, done.deadline - now())
    status = _solve(model, solver, stage.held)
    done.branches += int(solver.num_branches)
    done.used += solver.response_proto.deterministic_time
    done.clock_hit = done.clock_hit or stopped_by_clock(solver)
    return status


def _goal_ended(model: cp_model.CpModel, solver: cp_model.CpSolver, run: StageRun,
                done: _Progress, stages: Sequence[Stage], status: Status
                ) -> StagedResult | None:
    """After the goal's stage: its times and bound kept; the result at once when it found no
    plan (the hinted plan read back, when there is one), else None (the stages go on)."""
    done.first_time = run.clock.elapsed()
    done.cpu = time.process_time() - done.cpu
    # the idle hint fixes only the plan's actions: a search for the rest, which a cancel or
    # the command's deadline stops; a whole plan's, a check that must end
    if (status is Status.UNKNOWN and (run.hinted or run.hint_complete)
            and _restore(model, solver, done.deadline,
                         stoppable=not _must_read_back(run.hint_complete))):
        return _as_hinted(solver, stages, done.branches, done.first_time, done.cpu,
                          done.clock_hit)
    if status in (Status.INFEASIBLE, Status.UNKNOWN):
        return done.failed(status)
    done.first_bound = stages[0].bound_of(solver.best_objective_bound)
    done.first_status = status
    return None


def _fix_stage(model: cp_model.CpModel, solver: cp_model.CpSolver, done: _Progress,
               stage: Stage, status: Status) -> int:
    """Keep the stage's value and proof, hint its solution and hold its objective there for
    the stages after it; returns the value."""
    done.proven.append(status is Status.OPTIMAL)
    value = round(solver.objective_value if stage.secondary is None
                  else solver.value(stage.expr))
    done.values.append(value)
    hint_solution(model, solver)
    model.add(stage.expr == value)
    return value


def _read_back_rest(model: cp_model.CpModel, solver: cp_model.CpSolver, done: _Progress,
                    stages: Sequence[Stage]) -> StagedResult | None:
    """The stages left unsolved keep their values in the plan kept (read back with every
    variable fixed); an unknown result when even that check ran out of time."""
    restored = _restore_code(model, solver, done.deadline)
    if restored == cp_model.UNKNOWN:  # out of time even for the check (a model of the
        # whole bag at rank 150, at load in CI): no plan to read back, unknown
        return StagedResult(Status.UNKNOWN, (), (), None, done.branches, done.first_time,
                            done.cpu, True)
    if restored not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError("CP-SAT lost the plan it had found")
    done.values += [round(solver.value(s.expr)) for s in stages[len(done.values):]]
    done.proven += [False] * (len(stages) - len(done.proven))
    return None


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
              workers: int = 1, seed: int = 0,
              light_probing: float = PlanBudget.light_probing
              ) -> tuple[int | None, float]:
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
    _light(solver, light_probing)
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
    solver.parameters.max_time_in_seconds = max(1.0, deadline - now())
    code = solve_stoppable(solver, model, stoppable=stoppable)  # all fixed: quick
    solver.parameters.fix_variables_to_their_hinted_value = False
    return int(code)
