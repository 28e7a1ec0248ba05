"""The festival goal's first stage on the lean model (`planner.turns.lean_model`): its solves.

Same optimum as the full model's goal stage (tests/planner/turns/test_lean.py), found and
proven with far less search (benchmarks/probe_lean.py; figures in the README). The festival
goal asks it one festival at a time (`best_of_each`): the best score is the best festival's,
and one tower layout with a floor on its score proves in far less search than all of them
in one model (tests/planner/turns/test_lean_each.py). The plan it finds is written as values
of the full model's variables (`lean_holds`), held there so that only the tower is left.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from ortools.sat.python import cp_model

from models.game import SPECIAL, FestivalSpace
from planner.stopping import solve_stoppable
from planner.tower import (
    STATUS,
    Status,
    configure,
    stopped_by_clock,
)
from planner.turns.horizon import Horizon
from planner.turns.lean_model import LeanModel, build_lean_model, hint_idle
from planner.turns.model import (
    MOVE_KINDS,
    OFF,
    STOPS,
    PlanModel,
    festival_cap,
)
from planner.turns.stages import LIGHT_PROBING

# the LP relaxation: the lean model is small, and with the rank caps the LP pays (slowest of
# the 12 states 1.4 units with linearization 1, 3.6 without; median 0.87 against 0.72)
LINEARIZATION = 1
# the best festival score as the best of one model per festival (`best_of_each`)
PER_FESTIVAL = True
# ... a festival in the first `EARLY_TURNS` turns with this LP level: measured on the
# benchmark's 91 states, its models prove as often without the LP and take a third less CPU
# (2-turn horizons: 82 of 82 proven either way, 20 s of CPU in all against 32), while a
# festival in the third turn needs it (3-turn horizons: 86 of 91 proven without it, 91 with)
EARLY_TURNS = 2
EARLY_LINEARIZATION = 0
# ... a festival's model is solved only with at least this many units left (less proves
# nothing: a presolve alone takes more)
LEAST_FESTIVAL_WORK = 0.01
IDLE_WORK = 0.05  # the most the idle plan may take when no plan competes anywhere

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
    presolve (one pass, `LIGHT_PROBING` units of probing), as the full model's long horizons:
    on a 10-turn horizon the full presolve probes for about 1.8 units. `spare_work`: once the
    score is proven, fewer special tokens spent at that score, on up to this many more units
    (the full model's tie-breaks, on short budgets, keep most of what the plan they start
    from spends; the score as a weighted first wish proved 3 of 6 5-turn plans against 5)."""
    cpu, wall = time.process_time(), time.perf_counter()
    solver = _lean_solver(time_limit, work, linearization, seed, workers, light)
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
        left = max(0.01, time_limit - (time.perf_counter() - wall))
        result, solver = _fewer_tokens(lean, solver, result, value, work=spare_work,
                                       time_limit=left, linearization=linearization,
                                       seed=seed, workers=workers, light=light)
    return replace(result, cpu_s=time.process_time() - cpu,
                   wall_s=time.perf_counter() - wall), solver


def _fewer_tokens(lean: LeanModel, solver: cp_model.CpSolver, result: LeanResult, value: int,
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
    fewer = _lean_solver(time_limit, work, linearization, seed, workers, light)
    code = solve_stoppable(fewer, model)
    result = replace(result, work=result.work + fewer.response_proto.deterministic_time,
                     branches=result.branches + int(fewer.num_branches),
                     clock_hit=result.clock_hit or stopped_by_clock(fewer))
    if STATUS.get(code, Status.UNKNOWN) in (Status.OPTIMAL, Status.FEASIBLE):
        return result, fewer
    return result, solver


def _lean_solver(time_limit: float, work: float, linearization: int, seed: int, workers: int,
                 light: bool) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    configure(solver, time_limit=time_limit, workers=workers, seed=seed, deterministic=work)
    solver.parameters.linearization_level = linearization
    solver.parameters.cp_model_probing_level = 1  # as the full model's stages (see there)
    if light:
        solver.parameters.max_presolve_iterations = 1
        solver.parameters.probing_deterministic_time_limit = LIGHT_PROBING
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
        end = lean.places[value(turn.end)]
        walk = list(turn.walks[place, turn.outcome(lean.places, value)])
        kinds = [k for k, _ in walk if k != "free"]
        if "move" in kinds and lean.horizon.rules.special_move != "any":
            # the Move first, then the paid special move (`move_order`; with the "any"
            # reading the walk's own order is kept: a far jump is a special move's only)
            ordered = iter(sorted(kinds, key=lambda k: k != "move"))
            walk = [(k if k == "free" else next(ordered), to) for k, to in walk]
        path = [place, *(to for _, to in walk)]
        first = t * STOPS
        stop_in: dict[str, int] = {}  # region -> the first stop of the walk there
        for s, g in enumerate(path):
            stop_in.setdefault(g, first + s)
        trained: dict[int, str] = {}
        for tile, var in turn.train.items():
            if value(var):
                where = turn.slot.offered[tile]
                trained[next(first + s for s, g in enumerate(path) if g in where)] = tile
        free_recruit = next((g for g, v in turn.free_recruit.items() if value(v)), None)
        for s, (kind, _) in enumerate(walk):
            if kind == "free":
                trained[first + s] = SPECIAL
        if free_recruit is not None:
            trained[stop_in[free_recruit]] = SPECIAL
        for s in range(STOPS):
            i = first + s
            here = path[min(s, len(path) - 1)]
            holds += [(var, int(g == here)) for g, var in plan.at[i].items()]
            if s < STOPS - 1:
                taken = walk[s][0] if s < len(walk) else None
                holds += [(plan.moves[i, k], int(k == taken)) for k in MOVE_KINDS]
            holds += [(var, int(trained.get(i) == tile)) for (j, tile), var in plan.train.items()
                      if j == i]
            holds.append((plan.free_recruit[i], int(free_recruit is not None
                                                    and stop_in[free_recruit] == i)))
            for (j, g, size), var in plan.recruit.items():
                if j == i:
                    holds.append((var, value(turn.recruit[g, size]) if stop_in.get(g) == i
                                  else 0))
            for (j, g, size), var in plan.extra.items():
                if j == i:
                    holds.append((var, value(turn.extra[g, size]) if stop_in.get(g) == i
                                  else 0))
        place = end
    return holds


@dataclass(frozen=True)
class LeanGoal:
    """The festival goal's first stage solved on the lean model: its result, and its plan as
    values of the full model's variables (`lean_holds`)."""

    result: LeanResult
    holds: tuple[tuple[Var, int], ...]


def lean_goal(plan: PlanModel, *, work: float, time_limit: float, seed: int = 0,
              workers: int = 1, linearization: int = LINEARIZATION, light: bool = False,
              spare_work: float = 0.0) -> LeanGoal | None:
    """The best festival score of `plan`'s horizon by the lean model, within `work`
    deterministic units; None when no festival of the horizon is in reach (the full model's
    stage is then trivial). No holds when the budget ended before any plan. `light`,
    `spare_work`: as `solve_lean`'s. Its times include building the lean models (their caps
    per rank vector: tens of ms), so that the goal's reported time is all the goal cost.
    `PER_FESTIVAL`: one festival at a time (`best_of_each`), else all in one model."""
    cpu, wall = time.process_time(), time.perf_counter()
    if PER_FESTIVAL:
        found = best_of_each(plan.horizon, work=work, time_limit=time_limit, seed=seed,
                             workers=workers, linearization=linearization, light=light,
                             spare_work=spare_work)
        if found is None:
            return None
        result, lean, solver = found
    else:
        lean = build_lean_model(plan.horizon)
        if not lean.festivals:
            return None
        hint_idle(lean)
        result, solver = solve_lean(lean, work=work, time_limit=time_limit,
                                    linearization=linearization, seed=seed, workers=workers,
                                    light=light, spare_work=spare_work)
    result = replace(result, cpu_s=time.process_time() - cpu,
                     wall_s=time.perf_counter() - wall)
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
                 workers: int = 1, linearization: int = LINEARIZATION, light: bool = False,
                 spare_work: float = 0.0
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
    the proven score, in the best plan's model."""
    ranked = ranked_festivals(horizon)
    if not ranked:
        return None
    # every model plans the turns the one with all festivals would: the plan's tie-breaks
    # keep the lean plan's route (measured: with each festival's turns only, the turns after
    # an early festival were the tie-breaks' own, and they took 1-2 s more CPU)
    through = max(t for _, t, _ in ranked) + 1
    wall = time.perf_counter()
    best: tuple[LeanModel, cp_model.CpSolver, int] | None = None
    bound, proven, spent, branches, clock = 0, True, 0.0, 0, False
    for cap, t, space in ranked:
        if best is not None and cap <= best[2]:
            break  # the caps left are no higher
        left = time_limit - (time.perf_counter() - wall)
        if work - spent < LEAST_FESTIVAL_WORK or left <= 0:
            bound, proven = max(bound, cap), False  # the caps left are no higher
            break
        lean = build_lean_model(replace(horizon, festivals=((t, space),)), through=through)
        hint_idle(lean)
        # only a better plan is worth the search, and before any, a plan that competes
        # there (measured: this floor of 1 cut the top festivals' units by a third; the
        # presolve then knows the pawn ends there with a tower)
        lean.model.add(lean.best >= (0 if best is None else best[2]) + 1)
        level = min(linearization, EARLY_LINEARIZATION) if t < EARLY_TURNS else linearization
        result, solver = solve_lean(lean, work=work - spent, time_limit=left,
                                    linearization=level, seed=seed, workers=workers,
                                    light=light)
        spent, branches = spent + result.work, branches + result.branches
        clock = clock or result.clock_hit
        if result.status is Status.INFEASIBLE:  # no plan beats the best one: proven so
            continue
        if result.value is not None and (best is None or result.value > best[2]):
            best = (lean, solver, result.value)
        if result.status is not Status.OPTIMAL:
            bound, proven = max(bound, cap if result.bound is None else result.bound), False
    if best is None and proven:  # no plan competes anywhere: the idle plan is the best
        left = max(0.01, time_limit - (time.perf_counter() - wall))
        idle = _idle_plan(horizon, ranked[0][1], ranked[0][2], through, left, seed, workers)
        if idle is not None:
            best = (*idle, 0)
    if best is None:
        return LeanResult(Status.UNKNOWN, None, None if proven else bound, spent, 0.0,
                          time.perf_counter() - wall, branches, clock), None, None
    lean, solver, value = best
    status = Status.OPTIMAL if proven else Status.FEASIBLE
    result = LeanResult(status, value, max(bound, value), spent, 0.0, 0.0, branches, clock)
    if proven and spare_work > 0:
        left = max(0.01, time_limit - (time.perf_counter() - wall))
        result, solver = _fewer_tokens(lean, solver, result, value, work=spare_work,
                                       time_limit=left, linearization=linearization,
                                       seed=seed, workers=workers, light=light)
    return replace(result, wall_s=time.perf_counter() - wall), lean, solver


def _idle_plan(horizon: Horizon, t: int, space: FestivalSpace, through: int, time_limit: float,
               seed: int, workers: int) -> tuple[LeanModel, cp_model.CpSolver] | None:
    """A plan of festival `space`'s model that competes nowhere (its score held at 0): the
    plan `best_of_each` returns when no plan can compete at any festival."""
    lean = build_lean_model(replace(horizon, festivals=((t, space),)), through=through)
    hint_idle(lean)
    lean.model.add(lean.best == 0)
    solver = _lean_solver(time_limit, IDLE_WORK, 0, seed, workers, True)
    if STATUS.get(solve_stoppable(solver, lean.model), Status.UNKNOWN) not in (
            Status.OPTIMAL, Status.FEASIBLE):
        return None
    return lean, solver
