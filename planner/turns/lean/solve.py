"""The lean models' solves: a lean model maximised within a deterministic budget (with fewer
special tokens at a proven score, when asked), and its plan written as values of the full plan
model's per-stop variables (`lean_holds`), to be held or hinted there.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ortools.sat.python import cp_model

from models.game import SPECIAL
from planner.clock import now
from planner.stopping import solve_stoppable
from planner.tower import (
    STATUS,
    Status,
    configure,
    stopped_by_clock,
)
from planner.turns.budget import PlanBudget
from planner.turns.full.model import (
    MOVE_KINDS,
    OFF,
    STOPS,
    PlanModel,
)
from planner.turns.full.stages import StagedResult
from planner.turns.lean.model import LeanModel, LeanTurn

Var = cp_model.IntVar


@dataclass(frozen=True)
class LeanResult:
    """The lean stage's answer: status, value, bound and the plan it found."""
    status: Status
    value: int | None
    bound: int | None
    work: float  # deterministic units spent
    cpu_s: float
    wall_s: float
    branches: int
    clock_hit: bool = False  # the wall clock, not the budget, ended the solve


def solve_lean(lean: LeanModel, *, work: float, time_limit: float, linearization: int = 0,
               seed: int = 0, workers: int = 1, light: bool = False,
               spare_work: float = 0.0) -> tuple[LeanResult, cp_model.CpSolver]:
    """Maximise the best festival score within `work` deterministic units. `light`: a short
    presolve (one pass, the budget's `light_probing` units of probing), as the full model's
    long horizons:
    on a 10-turn horizon the full presolve probes for about 1.8 units. `spare_work`: once the
    score is proven, fewer special tokens spent at that score, on up to this many more units
    (the full model's tie-breaks, on short budgets, keep most of what the plan they start
    from spends; the score as a weighted first wish proved 3 of 6 5-turn plans against 5)."""
    cpu, wall = time.process_time(), now()
    solver = lean_solver(lean.budget, time_limit, work, linearization, seed, workers, light)
    lean.model.maximize(lean.best)
    code = solve_stoppable(solver, lean.model)
    if code == cp_model.MODEL_INVALID:
        raise RuntimeError(f"CP-SAT rejected the lean model: {lean.model.validate()}")
    status = STATUS.get(code, Status.UNKNOWN)
    found = status in (Status.OPTIMAL, Status.FEASIBLE)
    spent = solver.response_proto.deterministic_time
    branches, clock = int(solver.num_branches), stopped_by_clock(solver)
    value = round(solver.objective_value) if found else None
    bound = int(solver.best_objective_bound + 1e-6) if found else None
    result = LeanResult(status, value, bound, spent, 0.0, 0.0, branches, clock)
    if status is Status.OPTIMAL and spare_work > 0 and value is not None:
        left = max(0.01, time_limit - (now() - wall))
        result, solver = fewer_tokens(lean, solver, result, value, work=spare_work,
                                       time_limit=left, linearization=linearization,
                                       seed=seed, workers=workers, light=light)
    return replace(result, cpu_s=time.process_time() - cpu,
                   wall_s=now() - wall), solver


def fewer_tokens(lean: LeanModel, solver: cp_model.CpSolver, result: LeanResult, value: int,
                  *, work: float, time_limit: float, linearization: int, seed: int,
                  workers: int, light: bool) -> tuple[LeanResult, cp_model.CpSolver]:
    """`solve_lean`'s second wish: at the proven score `value`, the fewest special tokens
    spent, on up to `work` units, from `solver`'s plan (kept when this finds none)."""
    model = lean.model
    variables = [model.get_int_var_from_proto_index(i)
                 for i in range(len(model.proto.variables))]
    model.clear_hints()  # type: ignore[no-untyped-call]
    for var in variables:
        model.add_hint(var, solver.value(var))
    model.add(lean.best == value)
    model.minimize(lean.spent)
    fewer = lean_solver(lean.budget, time_limit, work, linearization, seed, workers, light)
    code = solve_stoppable(fewer, model)
    result = replace(result, work=result.work + fewer.response_proto.deterministic_time,
                     branches=result.branches + int(fewer.num_branches),
                     clock_hit=result.clock_hit or stopped_by_clock(fewer))
    if STATUS.get(code, Status.UNKNOWN) in (Status.OPTIMAL, Status.FEASIBLE):
        return result, fewer
    return result, solver


def lean_solver(budget: PlanBudget, time_limit: float, work: float, linearization: int,
                 seed: int, workers: int, light: bool) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    configure(solver, time_limit=time_limit, workers=workers, seed=seed, deterministic=work)
    solver.parameters.linearization_level = linearization
    solver.parameters.cp_model_probing_level = 1  # as the full model's stages (see there)
    if light:
        solver.parameters.max_presolve_iterations = 1
        solver.parameters.probing_deterministic_time_limit = budget.light_probing
    return solver


def lean_holds(plan: PlanModel, lean: LeanModel, solver: cp_model.CpSolver
               ) -> list[tuple[Var, int]]:
    """The lean model's solution as values of the full plan model's per-stop variables (the
    pawn's place, moves, recruits, trainings) for the turns the lean model plans: each turn's
    walk is the one enumerated for its outcome (its Move before its paid special move, as the
    full model's goal stage asks); each action at the walk's first stop in its region (a
    training at the first stop where its tile is offered; a free special recruit where the
    special tile is trained). Held in the full model's goal stage, these leave only the tower
    to find; the turns after are the goal stage's own (no action)."""
    value = solver.value
    holds: list[tuple[Var, int]] = []
    place = lean.horizon.me.pawn or OFF
    for t, turn in enumerate(lean.turns):
        walk = _ordered_walk(lean, turn.walks[place, turn.outcome(lean.places, value)])
        path = [place, *(to for _, to in walk)]
        first = t * STOPS
        stop_in: dict[str, int] = {}  # region -> the first stop of the walk there
        for s, g in enumerate(path):
            stop_in.setdefault(g, first + s)
        free_recruit = next((g for g, v in turn.free_recruit.items() if value(v)), None)
        trained = _trained_at(turn, value, walk, path, first, stop_in, free_recruit)
        for s in range(STOPS):
            holds += _stop_holds(plan, turn, value, first + s, path[min(s, len(path) - 1)],
                                 walk[s][0] if s < len(walk) else None, s < STOPS - 1,
                                 trained, stop_in, free_recruit)
        place = lean.places[value(turn.end)]
    return holds


def _ordered_walk(lean: LeanModel, walk: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """A turn's walk with its Move first, then the paid special move (`move_order`; with the
    "any" reading the walk's own order is kept: a far jump is a special move's only)."""
    walk = list(walk)
    kinds = [k for k, _ in walk if k != "free"]
    if "move" in kinds and lean.horizon.rules.special_move != "any":
        ordered = iter(sorted(kinds, key=lambda k: k != "move"))
        walk = [(k if k == "free" else next(ordered), to) for k, to in walk]
    return walk


def _trained_at(turn: LeanTurn, value: Callable[[Var], int], walk: list[tuple[str, str]],
                path: list[str], first: int, stop_in: dict[str, int],
                free_recruit: str | None) -> dict[int, str]:
    """Stop -> what is trained there: a skill at the first stop where its tile is offered,
    the special tile where a free special move or the free special recruit is taken."""
    trained: dict[int, str] = {}
    for tile, var in turn.train.items():
        if value(var):
            where = turn.slot.offered[tile]
            trained[next(first + s for s, g in enumerate(path) if g in where)] = tile
    for s, (kind, _) in enumerate(walk):
        if kind == "free":
            trained[first + s] = SPECIAL
    if free_recruit is not None:
        trained[stop_in[free_recruit]] = SPECIAL
    return trained


def _stop_holds(plan: PlanModel, turn: LeanTurn, value: Callable[[Var], int], i: int,
                here: str, taken: str | None, leaves: bool, trained: dict[int, str],
                stop_in: dict[str, int], free_recruit: str | None) -> list[tuple[Var, int]]:
    """The full model's values at stop `i`: the pawn `here`, the move `taken` on (when it
    `leaves`), the training, the free special recruit, the recruits made there."""
    holds = [(var, int(g == here)) for g, var in plan.at[i].items()]
    if leaves:
        holds += [(plan.moves[i, k], int(k == taken)) for k in MOVE_KINDS]
    holds += [(var, int(trained.get(i) == tile)) for (j, tile), var in plan.train.items()
              if j == i]
    holds.append((plan.free_recruit[i], int(free_recruit is not None
                                            and stop_in[free_recruit] == i)))
    for recruits, lean_recruits in ((plan.recruit, turn.recruit), (plan.extra, turn.extra)):
        for (j, g, size), var in recruits.items():
            if j == i:
                holds.append((var, value(lean_recruits[g, size]) if stop_in.get(g) == i
                              else 0))
    return holds

def with_lean_time(result: StagedResult, lean: LeanResult) -> StagedResult:
    """A goal stage's result counting a lean solve too: its time, branches, clock hit."""
    return replace(result, clock_hit=result.clock_hit or lean.clock_hit,
                   branches=result.branches + lean.branches,
                   first_time_s=result.first_time_s + lean.wall_s,
                   first_cpu_s=result.first_cpu_s + lean.cpu_s)
