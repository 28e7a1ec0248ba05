"""CP-SAT models for the three tower questions, and the solve wrapper."""

from __future__ import annotations

from ortools.sat.python import cp_model

from models.tower import ExhibitionTile, Pool, Rules, SkillRanks
from planner.clock import now
from planner.stopping import solve_stoppable
from planner.tower.bounds import tallest
from planner.tower.budget import DEFAULT_TOWER, TowerBudget
from planner.tower.layout import TowerLayout, build_layout
from planner.tower.objective import height_weight, objective_of
from planner.tower.questions import BestTower, Question, TileCheck
from planner.tower.result import SolveResult, Status


def build_model(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules,
                budget: TowerBudget = DEFAULT_TOWER) -> TowerLayout:
    """One CP-SAT model per question, all on the shared layout (its height bounded by the
    dynamic program on `budget`'s states)."""
    model = cp_model.CpModel()
    exhibition = isinstance(question, TileCheck) and isinstance(question.tile, ExhibitionTile)
    layout = build_layout(model, pool, ranks, rules, choose_k=exhibition)
    highest = tallest(pool, ranks, rules, budget=budget)  # exact when the dynamic program finishes
    model.add(layout.height() <= highest)
    if isinstance(question, TileCheck):
        tile = question.tile
        if tile.height > highest:
            model.add_bool_or([])  # proven at once, however tall the tile
        else:
            layout.require_tile(tile)
        return layout
    if isinstance(question, BestTower):
        model.add(layout.height() >= 1)
        layout.objective = layout.height() * height_weight(pool.total) + layout.castellers()
        model.maximize(layout.objective)
        return layout
    layout.objective = layout.festival_score(question.festival)
    model.maximize(layout.objective)
    return layout


def configure(solver: cp_model.CpSolver, *, time_limit: float, workers: int, seed: int,
              deterministic: float | None = None, budget: TowerBudget = DEFAULT_TOWER) -> None:
    """Fixed workers and seed, and a deterministic budget (`deterministic`, by default what
    `time_limit` buys at the budget's `deterministic_per_second`); `time_limit` stays a
    wall-clock safety net, whose hit `stopped_by_clock` tells."""
    solver.parameters.max_deterministic_time = (
        budget.work(time_limit) if deterministic is None else deterministic)
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    # several workers search deterministically only interleaved (in fixed batches)
    solver.parameters.interleave_search = workers > 1
    # Ctrl-C is the CLI's (planner.stopping): CP-SAT's own handler would swallow it
    solver.parameters.catch_sigint_signal = False
    # cp_model_probing_level = 0 was a little faster on these small models, but with it
    # ortools 9.15 aborts the whole process (a failed CHECK in CleanUpImplicationList) on
    # some of them; tests/planner/tower/test_cases.py keeps one such instance


def stopped_by_clock(solver: cp_model.CpSolver) -> bool:
    """The last solve ended on the wall clock before its deterministic budget: its answer
    may differ from one run (or machine) to the next."""
    response = solver.response_proto
    if response.status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        return False
    return bool(response.deterministic_time < solver.parameters.max_deterministic_time)


STATUS = {cp_model.OPTIMAL: Status.OPTIMAL, cp_model.FEASIBLE: Status.FEASIBLE,
          cp_model.INFEASIBLE: Status.INFEASIBLE}


def _run(solver: cp_model.CpSolver, layout: TowerLayout) -> Status:
    code = solve_stoppable(solver, layout.model)
    if code == cp_model.MODEL_INVALID:
        raise RuntimeError(f"CP-SAT rejected the model: {layout.model.validate()}")
    return STATUS.get(code, Status.UNKNOWN)


def _tallest_first(solver: cp_model.CpSolver, layout: TowerLayout, pool: Pool,
                   deadline: float) -> tuple[Status, float | None, int]:
    """Best tower, lexicographically: the most levels, then (height fixed) the most
    castellers. Two small proofs are much faster than one on the folded objective when Base
    and Strength make the castellers' bound loose. Returns status, folded bound, branches
    (`stopped_by_clock(solver)` then tells of the solve that decided the status)."""
    model, weight = layout.model, height_weight(pool.total)
    model.clear_objective()  # type: ignore[no-untyped-call]
    model.maximize(layout.height())
    status = _run(solver, layout)
    branches = int(solver.num_branches)
    if status is not Status.OPTIMAL:
        if status is Status.FEASIBLE:
            return status, solver.best_objective_bound * weight + pool.total, branches
        return status, None, branches
    height = round(solver.objective_value)
    for var in _decision_vars(layout):
        model.add_hint(var, solver.value(var))
    model.add(layout.height() == height)
    model.clear_objective()  # type: ignore[no-untyped-call]
    model.maximize(layout.castellers())
    solver.parameters.max_time_in_seconds = max(0.001, deadline - now())
    status = _run(solver, layout)
    branches += int(solver.num_branches)
    if status is Status.UNKNOWN:  # the hint itself is a solution, so this is rare
        return status, None, branches
    return status, height * weight + solver.best_objective_bound, branches


def _decision_vars(layout: TowerLayout) -> list[cp_model.IntVar]:
    found = {v.index: v for s in layout.slots for v in (s.active, s.lows, s.highs)}
    return list(found.values())


def solve_cpsat(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules, *,
                time_limit: float = 10.0, workers: int = 1, seed: int = 0,
                budget: TowerBudget = DEFAULT_TOWER) -> SolveResult:
    """Answer a tower question with the CP-SAT model, on `budget`'s units a second."""
    started = now()
    layout = build_model(question, pool, ranks, rules, budget)
    solver = cp_model.CpSolver()
    configure(solver, time_limit=time_limit, workers=workers, seed=seed, budget=budget)
    bound: float | None
    if isinstance(question, BestTower):
        status, bound, branches = _tallest_first(solver, layout, pool, started + time_limit)
    else:
        status = _run(solver, layout)
        branches = int(solver.num_branches)
        bound = None if isinstance(question, TileCheck) else solver.best_objective_bound
    elapsed = now() - started
    clock_hit = stopped_by_clock(solver)
    if status in (Status.INFEASIBLE, Status.UNKNOWN):
        return SolveResult(status, None, None, None, None, elapsed, "cpsat", branches,
                           clock_hit)
    tower = layout.tower(solver)
    return SolveResult(
        status=status,
        tower=tower,
        objective=objective_of(question, tower, pool.total),
        bound=bound,
        uses=layout.uses(solver),
        wall_time_s=elapsed,
        engine="cpsat",
        branches=branches,
        clock_hit=clock_hit,
    )
