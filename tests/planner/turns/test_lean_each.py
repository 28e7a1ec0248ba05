"""The best festival score as the best of one lean model per festival
(`planner.turns.lean.best_of_each`): the optimum of the lean model with every festival, the
festivals in cap order, a festival whose cap cannot beat the best found never solved, and a
budget that ends early leaves an honest bound."""

from __future__ import annotations

from dataclasses import replace

import pytest

import planner.turns.festival.lean as lean_module
from models.game.state import GameState
from models.tower.rules import STANDARD
from planner.clock import Clock
from planner.tower.result import Status
from planner.turns.festival.lean import best_of_each, lean_goal, ranked_festivals
from planner.turns.full.model import build_plan_model
from planner.turns.full.stages import StageRun, solve_stages
from planner.turns.horizon import Goal, Horizon, build_horizon
from planner.turns.lean.model import build_lean_model, hint_idle
from planner.turns.lean.solve import solve_lean
from planner.turns.plan import goal_stages
from planner.turns.replay import advance_to, visible
from tests.planner.turns.game_states import BOARD, played

WORK = 6.0  # deterministic units: both ways prove these 2-turn horizons well within


def horizon_of(state: GameState, turns: int) -> Horizon:
    player = state.turn.player
    start = advance_to(visible(state), BOARD, player, STANDARD)
    return build_horizon(start, BOARD, player, turns, STANDARD)


# states whose 2-turn horizon holds more than one festival in reach (checked below)
STATES = [(1, 3, 4), (4, 2, 5), (0, 4, 3), (8, 2, 3)]


@pytest.mark.parametrize(("seed", "players", "round_"), STATES)
def test_the_best_of_each_festival_is_the_one_models_optimum(seed: int, players: int,
                                                             round_: int) -> None:
    horizon = horizon_of(played(seed, players, round_), 2)
    assert len(ranked_festivals(horizon)) > 1
    whole = build_lean_model(horizon)
    hint_idle(whole)
    expected, _ = solve_lean(whole, work=WORK, time_limit=60, linearization=1)
    found = best_of_each(horizon, work=WORK, time_limit=60)
    assert found is not None
    result, lean, solver = found
    assert expected.status is result.status is Status.OPTIMAL
    assert result.value == result.bound == expected.value
    # the plan kept is the best festival's model's, and scores what it says
    assert lean is not None and solver is not None
    assert solver.value(lean.best) == result.value


def test_festivals_come_highest_cap_first() -> None:
    horizon = horizon_of(played(1, 4, 5), 2)
    ranked = ranked_festivals(horizon)
    assert len(ranked) > 1
    assert ranked == sorted(ranked, key=lambda entry: (-entry[0], entry[1]))
    assert all((t, space) in horizon.festivals for _, t, space in ranked)


def test_a_festival_whose_cap_cannot_beat_the_best_is_not_solved(
        monkeypatch: pytest.MonkeyPatch) -> None:
    horizon = horizon_of(played(1, 4, 5), 2)  # caps 13, 11, 7; the best score 10
    built: list[object] = []

    def spy(h: Horizon, **kwargs: object) -> lean_module.LeanModel:
        built.append(h.festivals)
        return build_lean_model(h, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(lean_module, "build_lean_model", spy)
    found = best_of_each(horizon, work=WORK, time_limit=60)
    assert found is not None and found[0].status is Status.OPTIMAL
    value = found[0].value
    assert value is not None
    ranked = ranked_festivals(horizon)
    # one model per festival solved, highest cap first; every festival whose cap is above
    # the best score among them; the first left out cannot beat it (nor, below it, any other)
    assert built == [((t, space),) for _, t, space in ranked[:len(built)]]
    assert all(cap <= value for cap, _, _ in ranked[len(built):])
    assert 0 < len(built) < len(ranked)  # the state leaves one out: the test can fail


def test_a_budget_that_ends_early_leaves_the_caps_in_the_bound() -> None:
    horizon = horizon_of(played(1, 4, 5), 2)
    ranked = ranked_festivals(horizon)
    found = best_of_each(horizon, work=0.005, time_limit=60)  # below a festival's least
    assert found is not None
    result, lean, solver = found
    assert result.status is Status.UNKNOWN and result.value is None
    assert lean is None and solver is None
    assert result.bound == ranked[0][0]


def test_the_lean_goal_holds_the_best_festivals_plan_in_the_full_model() -> None:
    state = played(1, 4, 5)  # 2 turns: three festivals in reach, the best score 10
    horizon = horizon_of(state, 2)
    plan = build_plan_model(horizon)
    goal = lean_goal(plan, work=WORK, time_limit=60)
    assert goal is not None and goal.result.status is Status.OPTIMAL and goal.holds
    value = goal.result.value
    assert value is not None and value > 0
    # held in the full model's goal stage, the plan scores the lean value there
    stage = goal_stages(plan, Goal("festival"))[0]
    held_stage = replace(stage, held=stage.held + goal.holds)
    again, _ = solve_stages(plan.model, [held_stage],
                            StageRun(Clock.start(60, WORK), linearization=0))
    assert again.values == (value,)


def test_no_plan_competing_anywhere_gives_the_idle_plan(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # as if no tower could be built at any festival in time: each festival's model refuses a
    # score above 0, so the best is 0, proven, and a plan (the idle one) is still given
    horizon = horizon_of(played(1, 4, 5), 2)

    def nothing(h: Horizon, **kwargs: object) -> lean_module.LeanModel:
        lean = build_lean_model(h, **kwargs)  # type: ignore[arg-type]
        lean.model.add(lean.best <= 0)
        return lean

    monkeypatch.setattr(lean_module, "build_lean_model", nothing)
    found = best_of_each(horizon, work=WORK, time_limit=60)
    assert found is not None
    result, lean, solver = found
    assert result.status is Status.OPTIMAL and result.value == result.bound == 0
    assert lean is not None and solver is not None and solver.value(lean.best) == 0
