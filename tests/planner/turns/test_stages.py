"""Lexicographic stages: a stage's held variables and its second wish."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from ortools.sat.python import cp_model

from planner.clock import Clock
from planner.stopping import CancelToken, cancel_scope, time_limited
from planner.tower.result import Status
from planner.turns import DEFAULT_BUDGET, PlanBudget
from planner.turns.full import stages as stages_module
from planner.turns.full.stages import Stage, StageRun, solve_stages
from planner.turns.horizon import Goal
from planner.turns.plan import plan_turns
from tests.planner.turns.game_states import BOARD, played


@pytest.fixture()
def token_cancelled() -> Iterator[None]:
    """A request cancelled before its solve starts."""
    token = CancelToken()
    token.cancel()
    with cancel_scope(token):
        yield


def tokens_model() -> tuple[cp_model.CpModel, cp_model.IntVar, cp_model.IntVar,
                            cp_model.IntVar]:
    """A score of 0..5 that needs no token; claims worth 0..3 points, one token each; tokens
    0..3, free to spend on nothing: the goal's search may leave any number spent."""
    model = cp_model.CpModel()
    score = model.new_int_var(0, 5, "score")
    claims = model.new_int_var(0, 3, "claims")
    tokens = model.new_int_var(0, 3, "tokens")
    model.add(claims <= tokens)
    return model, score, claims, tokens


def test_a_second_wish_is_met_by_the_goals_own_stage() -> None:
    # no tie-break stage at all (as when the budget ends with the goal's)
    model, score, _, tokens = tokens_model()
    model.add_hint(tokens, 3)  # the search starts from a plan that spends every token
    goal = Stage("score", score, "max", secondary=tokens, weight=4)
    result, solver = solve_stages(model, [goal], StageRun(Clock.start(10)))
    assert result.status is Status.OPTIMAL
    assert result.values[0] == 5 and result.first_bound == 5  # the objective's, not 4 * 5 - 0
    assert solver.value(tokens) == 0


def test_a_second_wish_does_not_fix_the_order_of_the_tie_breaks() -> None:
    # only the goal's value is fixed after its stage: the claims stage may still spend the
    # tokens the goal's second wish saved
    model, score, claims, tokens = tokens_model()
    goal = Stage("score", score, "max", secondary=tokens, weight=4)
    stages = [goal, Stage("claims", claims, "max"), Stage("tokens", tokens, "min")]
    result, _ = solve_stages(model, stages, StageRun(Clock.start(10)))
    assert result.values == (5, 3, 3)
    assert all(result.proven)


def test_held_variables_are_held_in_their_stage_only() -> None:
    model = cp_model.CpModel()
    score = model.new_int_var(0, 5, "score")
    tokens = model.new_int_var(0, 3, "tokens")
    model.add(score <= 2 + tokens)  # each point above 2 takes a token
    goal = Stage("score", score, "max", held=((tokens, 0),))
    result, _ = solve_stages(model, [goal, Stage("tokens", tokens, "max")],
                             StageRun(Clock.start(10)))
    assert result.values == (2, 3)  # held at 0 for the goal; free (and maximized) after it
    assert list(model.proto.variables[tokens.index].domain) == [0, 3]  # put back as it was


def test_a_plan_the_clock_keeps_from_reading_back_is_unknown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """When the tie-breaks are cut and even the check that reads the plan back runs out of
    time (a model of the whole bag at rank 150, at load), the answer is no plan, unknown and
    stopped by the clock: never a crash."""
    model, score, claims, tokens = tokens_model()
    monkeypatch.setattr(stages_module, "_restore_code", lambda *a, **k: cp_model.UNKNOWN)
    stages = [Stage("score", score, "max"), Stage("claims", claims, "max"),
              Stage("tokens", tokens, "min")]
    result, _ = solve_stages(model, stages, StageRun(Clock.start(10, 1.0), tie_break_work=0.0))
    assert (result.status, result.values, result.clock_hit) == (Status.UNKNOWN, (), True)


def test_a_plan_that_cannot_be_read_back_for_another_reason_is_a_bug(
        monkeypatch: pytest.MonkeyPatch) -> None:
    model, score, claims, _ = tokens_model()
    monkeypatch.setattr(stages_module, "_restore_code", lambda *a, **k: cp_model.INFEASIBLE)
    stages = [Stage("score", score, "max"), Stage("claims", claims, "max")]
    with pytest.raises(RuntimeError, match="lost the plan"):
        solve_stages(model, stages, StageRun(Clock.start(10, 1.0), tie_break_work=0.0))


@pytest.mark.parametrize("complete", [True, False])
def test_a_whole_plan_in_the_hint_is_kept_when_the_deadline_has_passed(complete: bool) -> None:
    """Regression: at the default limit on a loaded machine the score goal's first solves
    (`score_start`) ran to the command's deadline; the final stage then got no time, and the
    check that reads the hinted plan back was stopped too: 10 of the benchmark's 91 3-turn
    score calls ended with no plan though one had been found. A whole plan in the hint
    (`hint_complete`) is read back past the deadline; the idle hint (actions only) is not."""
    model, score, claims, tokens = tokens_model()
    model.add(score == 4)
    model.add(claims == 2)
    model.add(tokens == 3)  # one solution: the hint below is a whole plan
    for var, value in ((score, 4), (claims, 2), (tokens, 3)):
        model.add_hint(var, value)
    stages = [Stage("score", score, "max"), Stage("claims", claims, "max")]
    with time_limited(0.0):
        result, solver = solve_stages(model, stages,
                                      StageRun(Clock.start(10), hinted=True,
                                               hint_complete=complete))
    if complete:
        assert (result.status, result.values, result.proven) == (
            Status.FEASIBLE, (4, 2), (False, False))
        assert result.clock_hit and solver.value(tokens) == 3
    else:
        assert (result.status, result.values) == (Status.UNKNOWN, ())


def test_a_cancel_reads_no_plan_back(token_cancelled: None) -> None:
    """A cancel (a Ctrl-C, a client's) is not a deadline: the whole plan in the hint is not
    read back, the request is over."""
    model, score, _, tokens = tokens_model()
    model.add_hint(score, 5)
    model.add_hint(tokens, 0)
    result, _ = solve_stages(model, [Stage("score", score, "max")],
                             StageRun(Clock.start(10), hinted=True, hint_complete=True))
    assert (result.status, result.values) == (Status.UNKNOWN, ())


def _presolve_passes(monkeypatch: pytest.MonkeyPatch, budget: PlanBudget) -> list[int]:
    """The presolve passes each stage of a 1-turn score plan was solved with (the stages'
    solves only, not the hints' before them)."""
    passes: list[int] = []
    stage, solve = stages_module._solve_stage, stages_module._solve

    def spied_stage(*args: Any) -> Status:
        passes.append(-1)  # the next solve is a stage's
        return stage(*args)

    def spied(model: cp_model.CpModel, solver: cp_model.CpSolver, held: Any) -> Status:
        if passes and passes[-1] == -1:
            passes[-1] = solver.parameters.max_presolve_iterations
        return solve(model, solver, held)

    monkeypatch.setattr(stages_module, "_solve_stage", spied_stage)
    monkeypatch.setattr(stages_module, "_solve", spied)
    state = played(3, 3, 2)
    plan_turns(state, BOARD, state.turn.player, rules=state.game_rules, turns=1,
               goal=Goal("score"), budget=replace(budget, wall_slack=10.0))
    return passes


def test_light_stages_give_every_stage_the_short_presolve(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a short horizon's goal stage gets the full presolve unless the budget says otherwise
    # (the full presolve's units count against a small stage budget: on a plan after the
    # rivals' answers it spent the goal stage's 0.2 units and found no plan)
    default = _presolve_passes(monkeypatch, DEFAULT_BUDGET)
    light = _presolve_passes(monkeypatch, replace(DEFAULT_BUDGET, light_stages=True))
    assert default[0] != 1
    assert light and set(light) == {1}


def test_the_goal_alone_is_solved_on_the_work_it_has_beside_the_tie_breaks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # `goal_only` (a plan read for its value alone): the tie-breaks are not solved, and the
    # goal's stage keeps its share of the stages' work, so its value is the same
    works: list[float] = []
    solve_stage = stages_module._solve_stage

    def recording(*args: Any) -> Status:
        works.append(args[-1])
        return solve_stage(*args)

    monkeypatch.setattr(stages_module, "_solve_stage", recording)
    results = []
    for goal_only in (False, True):
        model, score, claims, tokens = tokens_model()
        stages = [Stage("score", score, "max"), Stage("claims", claims, "max"),
                  Stage("tokens", tokens, "min")]
        run = StageRun(Clock.start(10, 2.0), goal_share=0.5, goal_only=goal_only)
        results.append(solve_stages(model, stages, run)[0])
    whole, alone = results
    assert len(works) == 4 and works[3] == works[0] == pytest.approx(1.0)
    assert whole.values[0] == alone.values[0] == 5 and whole.status is alone.status
    assert len(whole.values) == 3 and len(alone.values) == 1
