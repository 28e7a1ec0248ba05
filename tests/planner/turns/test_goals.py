"""The goal registry: every goal of the turn planner registered once, its strategy under
`planner.turns`, with its words, unit, option and horizon policy."""

from __future__ import annotations

import pytest

from planner.turns import ADVICE_GOAL, GOALS, Goal, GoalStrategy, UnknownGoal, goal_strategy
from planner.turns.budget import DEFAULT_BUDGET
from planner.turns.plan import NoModel, model_of


def test_the_registry_lists_every_goal_the_advices_first() -> None:
    assert list(GOALS) == ["win", "score", "festival", "tile"]
    assert next(iter(GOALS)) == ADVICE_GOAL.kind
    for name, strategy in GOALS.items():
        assert isinstance(strategy, GoalStrategy) and strategy.name == name
        assert strategy.words.about and strategy.words.help and strategy.words.value


def test_each_goals_strategy_lives_under_the_turn_planner() -> None:
    for name, strategy in GOALS.items():
        assert type(strategy).__module__ == f"planner.turns.{name}.goal"
    assert type(goal_strategy(Goal("win"))).__module__ == "planner.turns.win.goal"


def test_the_registry_owns_the_options_and_the_horizon_policy() -> None:
    assert [n for n, g in GOALS.items() if g.takes_tile] == ["tile"]
    assert [n for n, g in GOALS.items() if g.builds_toward_next] == ["festival"]
    assert GOALS["tile"].tiles(Goal("tile", "LP07")) == {"LP07"}
    assert GOALS["score"].tiles(Goal("score")) is None
    assert GOALS["win"].least_turns(DEFAULT_BUDGET) == DEFAULT_BUDGET.win_least_turns
    assert GOALS["festival"].least_turns(DEFAULT_BUDGET) == 1
    assert {n: g.unit for n, g in GOALS.items()} == {
        "win": "points", "score": "points", "festival": "", "tile": "round"}


def test_an_unknown_goal_and_the_goal_with_no_model_are_typed_errors() -> None:
    with pytest.raises(UnknownGoal, match="no goal 'bogus'"):
        goal_strategy(Goal("bogus"))
    with pytest.raises(NoModel, match="no model for the win goal"):
        model_of(Goal("win"))
    assert model_of(Goal("score")) is GOALS["score"]
