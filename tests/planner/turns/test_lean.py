"""The lean model of the festival goal (`planner.turns.festival.lean`) has the full plan
model's optimum, and its plan, mapped onto the full model's stops, is a plan of the full
model's goal stage."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings

import planner.turns.festival.lean_stage as lean_stage
from models.game import RegionGraph
from models.game.state import GameState
from models.tower.rules import STANDARD, Rules
from planner.clock import Clock
from planner.tower.result import Status
from planner.turns.budget import DEFAULT_BUDGET, PlanBudget
from planner.turns.festival.lean import LeanGoal, lean_goal
from planner.turns.full.model import OFF, PlanModel, build_plan_model
from planner.turns.full.model import hint_idle as hint_full
from planner.turns.full.stages import StageRun, solve_stages
from planner.turns.horizon import Goal, build_horizon
from planner.turns.lean.model import Outcome, build_lean_model, hint_idle, turn_walks
from planner.turns.lean.solve import lean_holds, solve_lean
from planner.turns.plan import goal_stages
from planner.turns.replay import advance_to, visible
from tests.planner.turns.game_states import BOARD, ROOMY, game_states, plan_roomy, played

WORK = 6.0  # deterministic units: both models prove these 1- and 2-turn horizons well within


def compare(state: GameState, turns: int, rules: Rules = STANDARD,
            cautious: bool = False,
            linearization: int = DEFAULT_BUDGET.lean_linearization,
            light: bool = False) -> int:
    """Both models' proven goal value, equal; the lean plan held in the full model's goal
    stage scores the same. Returns the value. `linearization`, `light`: the lean solve's."""
    player = state.turn.player
    start = advance_to(visible(state), BOARD, player, rules)
    horizon = build_horizon(start, BOARD, player, turns, rules, cautious)
    lean = build_lean_model(horizon)
    hint_idle(lean)
    result, solver = solve_lean(lean, work=WORK, time_limit=60, linearization=linearization,
                                light=light)
    plan = build_plan_model(horizon)
    hint_full(plan)
    stage = goal_stages(plan, Goal("festival"))[0]
    full, _ = solve_stages(plan.model, [stage],
                           StageRun(Clock.start(60, WORK), linearization=0))
    assert result.status is Status.OPTIMAL and full.status is Status.OPTIMAL
    assert result.value == full.values[0]
    if lean.festivals:
        held = replace(stage, held=stage.held + tuple(lean_holds(plan, lean, solver)))
        again, _ = solve_stages(plan.model, [held],
                                StageRun(Clock.start(60, WORK), linearization=0))
        assert again.values == (result.value,)
    assert result.value is not None
    return result.value


def no_tokens(state: GameState) -> GameState:
    small = state.clone()
    small.current.special_tokens = 0
    return small


def off_board(state: GameState) -> GameState:
    """The player to move has not placed the pawn yet (it may do so in any round)."""
    small = state.clone()
    small.current.pawn = None
    return small


@pytest.mark.parametrize(("seed", "players", "round_", "turns"), [
    (0, 4, 2, 2), (1, 3, 4, 2), (2, 2, 6, 2), (3, 4, 8, 1), (4, 2, 5, 2),
])
def test_the_lean_goal_is_the_full_models(seed: int, players: int, round_: int,
                                          turns: int) -> None:
    compare(played(seed, players, round_), turns)


def test_an_off_the_board_start() -> None:
    state = off_board(played(5, 4, 2))
    assert state.current.pawn is None
    compare(state, 2)


# each variant below changes the optimum on its state (the plain one is higher): a model
# that ignored it would fail
def test_cautious_mode() -> None:
    state = played(17, 4, 4)
    assert compare(state, 2, cautious=True) < compare(state, 2)


def test_no_special_tokens() -> None:
    state = played(22, 3, 5)
    assert compare(no_tokens(state), 2) < compare(state, 2)


def test_the_free_special_as_the_turns_special() -> None:
    rules = replace(STANDARD, free_special_is_extra=not STANDARD.free_special_is_extra)
    state = played(22, 3, 5)
    assert compare(state, 2, rules=rules) < compare(state, 2)


@settings(max_examples=3, deadline=None)  # 2-4 s a state (the full model's proof)
@given(game_states(max_round=8))
def test_the_lean_goal_on_random_states(state: GameState) -> None:
    compare(state, 1 if state.round % 2 else 2)


def test_walks_from_off_the_board_reach_every_region_and_beat_nothing_kept() -> None:
    state = played(0, 4, 1)
    start = advance_to(visible(state), BOARD, state.turn.player, STANDARD)
    horizon = build_horizon(start, BOARD, state.turn.player, 1, STANDARD)
    walks = turn_walks(BOARD, STANDARD, horizon.turns[0], OFF, True)
    assert {o.end for o in walks} == set(horizon.regions) | {OFF}
    assert Outcome(OFF, frozenset(), False, False) in walks  # staying off the board
    for outcome, steps in walks.items():
        assert len(steps) <= 3 and (not steps or steps[-1][1] == outcome.end)
        assert {to for _, to in steps} == outcome.visited
        for other in walks:  # no outcome kept gives everything another does and more
            assert other == outcome or not (
                other.end == outcome.end and other.visited >= outcome.visited
                and other.paid <= outcome.paid and other.free <= outcome.free)


def test_plans_with_and_without_the_lean_goal_agree() -> None:
    state = played(0, 4, 2)
    player = state.turn.player
    lean = plan_roomy(state, BOARD, player, rules=STANDARD, turns=2, time_limit=20)
    full = plan_roomy(state, BOARD, player, rules=STANDARD, turns=2, time_limit=20,
                      budget=replace(ROOMY, lean_goal=False))
    assert lean.status is full.status is Status.OPTIMAL
    assert lean.objective == full.objective == lean.bound
    assert lean.objective is not None and lean.objective > 0


@pytest.mark.parametrize("how", ["infeasible", "out of domain"])
def test_a_lean_plan_that_does_not_fit_falls_back(how: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    state = played(0, 4, 2)
    player = state.turn.player
    expected = plan_roomy(state, BOARD, player, rules=STANDARD, turns=2, time_limit=20).objective

    def misfit(plan: PlanModel, *args: object, **kwargs: object) -> LeanGoal | None:
        found = lean_goal(plan, *args, **kwargs)  # type: ignore[arg-type]
        assert found is not None
        if how == "infeasible":  # every kind of move at the first stop at once
            moves = [plan.moves[0, kind] for kind in ("move", "paid", "free")]
            holds = [(v, n) for v, n in found.holds if all(v is not m for m in moves)]
            return replace(found, holds=(*holds, *((m, 1) for m in moves)))
        # the pawn held both in and out of its first region
        start = plan.horizon.me.pawn or OFF
        return replace(found, holds=(*found.holds, (plan.at[0][start], 0)))

    monkeypatch.setattr(lean_stage, "lean_goal", misfit)
    plan = plan_roomy(state, BOARD, player, rules=STANDARD, turns=2, time_limit=20)
    assert plan.status is Status.OPTIMAL and plan.objective == expected


# the rules' "any" reading of special moves: a paid (or free) special move jumps to any
# region. On this state the round's festival is worth more one jump away than anywhere the
# adjacent reading reaches, so a model that ignored the reading would fail
ANYWHERE = replace(STANDARD, special_move="any")


def test_special_moves_to_any_region() -> None:
    state = played(2, 4, 5)
    assert compare(state, 1, rules=ANYWHERE) > compare(state, 1)


def test_a_far_special_move_is_planned_and_replayed() -> None:
    state = played(2, 4, 5)
    plan = plan_roomy(state, BOARD, state.turn.player, turns=1, goal=Goal("festival"),
                      rules=ANYWHERE, time_limit=20)
    assert plan.found and plan.status is Status.OPTIMAL  # found: the referee replayed it
    assert plan.objective == compare(state, 1, rules=ANYWHERE)
    graph, here, jumps = RegionGraph(BOARD), plan.start.current.pawn, 0
    for action in plan.turns[0].actions:
        to = getattr(action, "to", None)
        if to is not None:
            jumps += here is not None and to not in graph.neighbours(here)
            here = to
    assert jumps == 1


def test_walks_jump_with_the_any_reading() -> None:
    state = played(2, 4, 5)
    start = advance_to(visible(state), BOARD, state.turn.player, ANYWHERE)
    horizon = build_horizon(start, BOARD, state.turn.player, 1, ANYWHERE)
    pawn = start.current.pawn
    assert pawn is not None
    near = turn_walks(BOARD, STANDARD, horizon.turns[0], pawn, True)
    far = turn_walks(BOARD, ANYWHERE, horizon.turns[0], pawn, True)
    graph = RegionGraph(BOARD)

    def jumps(walks: dict[Outcome, tuple[tuple[str, str], ...]]) -> set[str]:
        """The kinds of the walks' steps to a region that is not a neighbour."""
        found = set()
        for walk in walks.values():
            here = pawn
            for kind, to in walk:
                if to not in graph.neighbours(here):
                    found.add(kind)
                here = to
        return found

    assert jumps(near) == set()
    assert jumps(far) == {"paid", "free"} & {k for w in far.values() for k, _ in w}
    assert "paid" in jumps(far)


# 4-turn horizons the full model's goal stage proves within `WORK` (2 players, late rounds)
LONG_STATES = [(1, 2, 7), (4, 2, 5)]


@pytest.mark.parametrize(("seed", "players", "round_"), LONG_STATES)
def test_the_lean_goal_of_a_longer_horizon_is_the_full_models(seed: int, players: int,
                                                              round_: int) -> None:
    # as `plan_turns` solves horizons over `LONG_HORIZON` turns: a short presolve, no LP
    assert compare(played(seed, players, round_), 4, linearization=0, light=True) > 0


def test_a_longer_horizons_lean_plan_is_proven_and_replays() -> None:
    state = played(4, 2, 5)
    player = state.turn.player
    optimum = compare(state, 4, linearization=0, light=True)
    assert DEFAULT_BUDGET.long_horizon < 4 <= DEFAULT_BUDGET.lean_long_turns
    lean = plan_roomy(state, BOARD, player, rules=STANDARD, turns=4)
    # the replay through the referee scores what the model claims, and it is the optimum
    assert lean.status is Status.OPTIMAL and lean.found
    assert lean.objective == lean.model_objective == lean.bound == optimum
    full = plan_roomy(state, BOARD, player, rules=STANDARD, turns=4,
                      budget=replace(ROOMY, lean_long_turns=0))
    assert full.objective is not None and full.objective <= optimum


def test_an_unproven_lean_plan_is_the_full_models_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lean solve too short to prove: its plan, completed in the full model, is where the
    full model's goal stage starts; the plan found is at least the lean one and replays."""
    state = played(4, 2, 5)
    player = state.turn.player
    found: list[LeanGoal] = []

    def spy(*args: object, **kwargs: object) -> LeanGoal | None:
        got = lean_goal(*args, **kwargs)  # type: ignore[arg-type]
        assert got is not None
        found.append(got)
        return got

    monkeypatch.setattr(lean_stage, "lean_goal", spy)
    # one festival at a time (`lean.best_of_each`) the lean model proves this horizon on 0.24
    # units (0.024 of the 10 units of the default limit); 0.096 units find a plan of 6 points
    # and no proof
    budget: PlanBudget = replace(ROOMY, lean_long_share=0.0096)
    plan = plan_roomy(state, BOARD, player, rules=STANDARD, turns=4, budget=budget)
    assert len(found) == 1 and found[0].result.status is not Status.OPTIMAL
    assert found[0].holds and found[0].result.value is not None
    assert plan.found and plan.objective == plan.model_objective
    assert plan.objective is not None and plan.objective >= found[0].result.value
    assert plan.bound is not None and plan.bound >= plan.objective
