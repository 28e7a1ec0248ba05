"""The planner's one budget: its allotments stay within what the time limit buys, it refuses
a budget that could not, and no tuning value of the planner lives anywhere else."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.stopping import time_limited
from planner.turns import DEFAULT_BUDGET, PlanBudget

TURNS = Path(__file__).resolve().parents[3] / "planner" / "turns"
# module-level names in planner/turns that are not tuning: the model's structure, the
# product's defaults and the input's bound
STRUCTURE = {"STOPS", "OFF", "MOVE_KINDS", "SPECIALS", "TALLEST", "DEFAULT_PLAN_TIME_LIMIT",
             "MAX_TURNS", "DEFAULT_BUDGET", "GOALS",
             "ADVICE_GOAL",  # which question the advice asks: the product's, not a tuning
             "WIN", "SCORE",  # the goals the win goal's plans ask (win/answers.py)
             "FLOOR_WORDS",  # words (known.py)
             # whose first turn the win goal weighed: codes and words (request.py, answers.py)
             "FIRST_TURN_WORDS", "PLAN", "GREEDY",
             # the chances' model (win/chances.py, win/fitting.py): its data file, when it is
             # shown and how it is fitted offline; none of it tunes a plan's search
             "MODEL", "LEAST_PREDICTIONS", "RIDGE"}


@given(st.floats(min_value=0.1, max_value=600))
def test_the_allotments_add_up_to_at_most_the_limit(limit: float) -> None:
    budget = DEFAULT_BUDGET
    allot = budget.allot(limit)
    assert allot.total == pytest.approx(budget.units_per_second * limit)
    score = allot.stages + allot.lean_score + allot.order + budget.route_solves * allot.route_each
    festival = allot.stages + max(allot.lean_short, allot.lean_long)
    assert score <= allot.total + 1e-9
    assert festival <= allot.total + 1e-9


def test_the_default_limit_buys_what_the_planner_was_tuned_on() -> None:
    """At 10 s: 1.2 units for the stages, 1.5 for either lean model, 4.2 for the ordered lean
    score model (1 in the win goal's plans) and 0.6 for each route (the Design notes'
    figures)."""
    allot = DEFAULT_BUDGET.allot(10.0)
    assert allot.stages == pytest.approx(1.2)
    assert allot.lean_short == allot.lean_score == pytest.approx(1.5)
    assert allot.lean_long == pytest.approx(0.9)
    assert allot.order == pytest.approx(4.2)
    assert allot.route_each == pytest.approx(0.6)
    # the win goal's plans: the ordered lean model's 1 unit, the rest as the score goal's
    win = DEFAULT_BUDGET.win_plans().allot(10)
    assert win.order == pytest.approx(1.0)
    assert (win.stages, win.lean_score) == (allot.stages, allot.lean_score)


@pytest.mark.parametrize("change", [{"order_share": 0.9}, {"stages_share": 0.9},
                                    {"tie_break_work": -1.0}, {"wall_slack": 0.5},
                                    {"win_order_share": 0.8}])
def test_a_budget_that_overspends_is_refused(change: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="PlanBudget"):
        replace(DEFAULT_BUDGET, **change)  # type: ignore[arg-type]


def test_the_wall_clock_scales_with_the_slack() -> None:
    assert PlanBudget(wall_slack=4).wall(2.5) == 10.0
    assert DEFAULT_BUDGET.wall(2.5) == 2.5


def _module_constants(path: Path) -> set[str]:
    """The upper-case names a module assigns at its top level."""
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        names |= {t.id for t in targets if isinstance(t, ast.Name) and t.id.isupper()}
    return names


def test_no_tuning_constant_outside_the_budget() -> None:
    found = {f"{path.relative_to(TURNS)}: {name}"
             for path in TURNS.rglob("*.py") if path.name != "budget.py"
             for name in _module_constants(path) - STRUCTURE}
    assert not found, "tuning belongs in PlanBudget: " + ", ".join(sorted(found))


def test_the_check_finds_a_module_constant(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("ORDER_SHARE = 3.5\nSTOPS = 4\nlower = 1\n", encoding="utf-8")
    assert _module_constants(module) == {"ORDER_SHARE", "STOPS"}


def test_a_plans_clock_is_its_wall_and_the_units_its_limit_buys() -> None:
    clock = PlanBudget(wall_slack=4).plan_clock(2.5)
    assert clock.seconds == pytest.approx(10.0) and clock.work == pytest.approx(2.5)
    with time_limited(1.0):  # never past what is left of the request's own clock
        inside = PlanBudget(wall_slack=4).plan_clock(2.5)
    assert inside.seconds <= 1.0 and inside.work == pytest.approx(2.5)
