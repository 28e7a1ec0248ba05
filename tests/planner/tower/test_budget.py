"""The tower solvers' one budget: every tuning value of `planner.tower` is a field of
`TowerBudget`, given to the solvers as a parameter (the turn planner's is `PlanBudget.tower`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from ortools.sat.python import cp_model

from models.tower import STANDARD, Pool, SkillRanks
from planner.tower import DEFAULT_TOWER, BestTower, TowerBudget, configure, solve
from planner.turns import PlanBudget

TOWER = Path(__file__).resolve().parents[3] / "planner" / "tower"
# module-level names in planner/tower that are not tuning: the engines' names and the
# product's defaults, the solver's statuses, the program's sentinels and tables, how often it
# looks at the clock (a cost of looking, not a budget), the lazy names and the default budget
STRUCTURE = {"ENGINES", "DEFAULT_ENGINE", "DEFAULT_TIME_LIMIT", "STATUS", "NEG", "BIG",
             "_NOTHING", "_CAPS", "_ROOMS", "_CLOCK", "_LAZY", "DEFAULT_TOWER"}


def test_no_tuning_constant_outside_the_budget() -> None:
    found = set()
    for path in TOWER.rglob("*.py"):
        if path.name == "budget.py":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = (node.targets if isinstance(node, ast.Assign)
                       else [node.target] if isinstance(node, ast.AnnAssign) else [])
            found |= {f"{path.name}: {t.id}" for t in targets
                      if isinstance(t, ast.Name) and t.id.isupper() and t.id not in STRUCTURE}
    assert not found, "tuning belongs in TowerBudget: " + ", ".join(sorted(found))


def test_a_negative_budget_is_refused() -> None:
    with pytest.raises(ValueError, match=r"TowerBudget\.bound_wall"):
        TowerBudget(bound_wall=-1.0)


def test_the_planners_budget_holds_the_towers() -> None:
    assert PlanBudget().tower == DEFAULT_TOWER
    assert PlanBudget(tower=TowerBudget(max_states=10)).tower.max_states == 10


def test_configure_spends_what_the_budget_says_a_second_buys() -> None:
    solver = cp_model.CpSolver()
    configure(solver, time_limit=10.0, workers=1, seed=0,
              budget=TowerBudget(deterministic_per_second=0.5))
    assert solver.parameters.max_deterministic_time == pytest.approx(5.0)
    configure(solver, time_limit=10.0, workers=1, seed=0)
    assert solver.parameters.max_deterministic_time == pytest.approx(1.5)


def test_the_programs_memory_bound_ends_it_as_a_time_limit_would_and_says_so() -> None:
    bag = Pool.from_counts({s: 15 for s in range(1, 11)})
    ranks = SkillRanks(3, 3, 3, 3, 3)
    tiny = solve(BestTower(), bag, ranks, STANDARD, budget=TowerBudget(max_states=100))
    # unknown, as at a time limit, but told as the memory bound: more time would not help
    assert tiny.tower is None and not tiny.proven
    assert tiny.memory_hit and not tiny.clock_hit
