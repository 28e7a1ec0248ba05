"""The win goal: the cautious score plan's first turn or the greedy bot's, whichever leaves
the player further ahead of the best rival after the rivals' answers and the plan from there;
the plan shown is the score goal's plan through the chosen first turn."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from models.game import EndTurn, GameState
from planner.castell import WIN, advise, greedy_turn, lookahead, plan_to_win, play_turn
from planner.castell.lookahead import (
    GREEDY,
    PLAN,
    Answered,
    Candidate,
    _as_win,
    _tried,
)
from planner.castell.turn import Turn
from planner.tower import Status
from planner.turns import DEFAULT_BUDGET, Goal, PlanAhead, plan_ahead, plan_turns
from tests.planner.castell.games import BOARD, midgame
from tests.planner.turns.game_states import ROOMY  # the wall clock never decides a test

LIMIT = 2.0


def _win(state, player: str):  # type: ignore[no-untyped-def]
    return plan_to_win(state, BOARD, player, rules=state.game_rules, time_limit=LIMIT,
                       budget=ROOMY)


def test_the_win_plan_is_legal_named_and_repeats() -> None:
    state = midgame(3, seed=2, until_round=2)
    me = state.turn.player
    first, again = _win(state, me), _win(state, me)
    plan = first.plan
    assert plan.found and plan.goal == WIN and str(plan.goal) == "win"
    assert not plan.fixed and plan.unfixed is None  # not shown as a what-if
    assert [t.actions for t in plan.turns] == [t.actions for t in again.plan.turns]
    assert plan.assumptions == again.plan.assumptions
    played = play_turn(state, BOARD, Turn((*plan.turns[0].actions, EndTurn())))
    assert not played.refused
    # here the greedy bot's turn leaves the player further ahead after the rivals' answers
    # (18 points ahead against 2 behind): the plan shown goes through it, and says so
    greedy = greedy_turn(state, BOARD).actions[:-1]
    assert tuple(plan.turns[0].actions[:len(greedy)]) == tuple(greedy)
    assert plan.assumptions[-1].endswith(
        "18 points ahead of the best rival with this first turn (the greedy bot's); 2 points "
        "behind with the cautious plan's")


def test_another_players_plan_is_the_cautious_score_plan() -> None:
    state = midgame(3, seed=2, until_round=2)
    other = next(p.name for p in state.players if p.name != state.turn.player)
    win = _win(state, other).plan
    score = plan_ahead(state, BOARD, other, rules=state.game_rules, goal=Goal("score"),
                       cautious=True, time_limit=LIMIT * ROOMY.win_plan_share,
                       budget=ROOMY).plan
    assert win.goal == WIN and [t.actions for t in win.turns] == [t.actions for t in score.turns]
    assert not any("rival answers" in a for a in win.assumptions)


def test_advise_routes_the_win_goal_and_the_others() -> None:
    state = midgame(2, seed=1, until_round=2)
    me = state.turn.player
    festival = advise(state, BOARD, me, rules=state.game_rules, goal=Goal("festival"),
                      time_limit=LIMIT, budget=ROOMY).plan
    assert festival.goal == Goal("festival")
    # a what-if on the win goal fixes the first actions of the cautious score plan
    win = advise(state, BOARD, me, rules=state.game_rules, goal=WIN, time_limit=LIMIT,
                 budget=ROOMY, fixed=festival.turns[0].actions[:1]).plan
    assert win.goal == Goal("score") and win.fixed == tuple(festival.turns[0].actions[:1])


def test_the_win_plan_looks_through_the_next_rounds_festival_too(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the festival the plans build toward here closes this round: the score goal's plan looks
    # one turn ahead, the win goal's plain plan (and its what-if's) `win_least_turns`, two;
    # the plans after the answers and through the greedy bot's turn the default horizon
    state = midgame(3, seed=1, until_round=4)
    me = state.turn.player
    score = plan_ahead(state, BOARD, me, rules=state.game_rules, goal=Goal("score"),
                       cautious=True, time_limit=LIMIT, budget=ROOMY).plan
    assert len(score.turns) == 1 and ROOMY.win_least_turns == 2
    win = _win(state, me).plan  # here the greedy bot's turn leaves the player further ahead
    assert "with this first turn (the greedy bot's)" in win.assumptions[-1]
    assert len(win.turns) == 1
    what_if = advise(state, BOARD, me, rules=state.game_rules, goal=WIN, time_limit=LIMIT,
                     budget=ROOMY, fixed=win.turns[0].actions[:1]).plan
    assert what_if.unfixed is not None
    assert len(what_if.turns) == 2 and len(what_if.unfixed.turns) == 2
    # a greedy bot that stays idle: the plain plan's first turn is advised, two turns shown
    monkeypatch.setattr(lookahead, "greedy_turn", lambda now, board: Turn((EndTurn(),)))
    plain = _win(state, me).plan
    assert "with this first turn (the cautious plan's)" in plain.assumptions[-1]
    assert len(plain.turns) == 2


def test_why_the_first_turn_is_said() -> None:
    state = midgame(2, seed=1, until_round=2)
    ahead = plan_ahead(state, BOARD, state.turn.player, rules=state.game_rules,
                       goal=Goal("score"), time_limit=LIMIT, budget=ROOMY)
    turn = Turn((EndTurn(),))
    plan, greedy = (Candidate(name, turn, None) for name in (PLAN, GREEDY))
    told = _as_win(ahead, (plan, Answered(40, 31)),
                   [(greedy, Answered(30, 30))]).plan.assumptions[-1]
    assert told.endswith("ends 9 points ahead of the best rival with this first turn (the "
                         "cautious plan's); level with the greedy bot's")
    told = _as_win(ahead, (plan, Answered(31, 30)),
                   [(greedy, Answered(30, 31))]).plan.assumptions[-1]
    assert told.endswith("1 point ahead of the best rival with this first turn (the "
                         "cautious plan's); 1 point behind with the greedy bot's")
    told = _as_win(ahead, (greedy, Answered(30, 32)),
                   [(plan, Answered(30, 35))]).plan.assumptions[-1]
    assert told.endswith("2 points behind the best rival with this first turn (the greedy "
                         "bot's); 5 points behind with the cautious plan's")


def test_each_position_is_tried_once_and_a_clock_decides_nothing() -> None:
    state = midgame(3, seed=2, until_round=2)
    me = state.turn.player
    greedy = greedy_turn(state, BOARD)
    other = Turn((EndTurn(),))
    found = plan_ahead(state, BOARD, me, rules=state.game_rules, goal=Goal("score"),
                       time_limit=LIMIT, budget=ROOMY)
    asked: list[int] = []

    def planned(hit: bool) -> Callable[[GameState], PlanAhead]:
        def plan(start: GameState) -> PlanAhead:  # 12 points, or stopped by the wall clock
            asked.append(start.round)
            return dataclasses.replace(
                found, plan=dataclasses.replace(found.plan, objective=12, clock_hit=hit))
        return plan

    candidates = [Candidate(PLAN, greedy, None), Candidate(PLAN, greedy, None),
                  Candidate(GREEDY, other, None)]
    tried = _tried(candidates, state, BOARD, me, planned(False))
    assert tried is not None and [c.name for c, _ in tried] == [PLAN, GREEDY]
    assert len(asked) == 2 and all(a.mine == 12 for _, a in tried)
    # a plan after the answers that met the wall clock: nothing is chosen by it
    assert _tried(candidates, state, BOARD, me, planned(True)) is None


def test_the_turn_planner_has_no_win_model_and_the_shares_fit_the_limit() -> None:
    state = midgame(2, seed=1, until_round=2)
    with pytest.raises(ValueError, match="no model for the win goal"):
        plan_turns(state, BOARD, state.turn.player, rules=state.game_rules, goal=WIN)
    with pytest.raises(ValueError, match="win goal shares"):
        dataclasses.replace(DEFAULT_BUDGET, win_answer_share=1.5)
    with pytest.raises(ValueError, match="win goal shares"):
        dataclasses.replace(DEFAULT_BUDGET, win_answer_share_unproven=1.2)


@pytest.mark.parametrize("proven", [True, False])
def test_the_plans_after_the_answers_get_less_after_an_unproven_plain_plan(
        monkeypatch: pytest.MonkeyPatch, proven: bool) -> None:
    state = midgame(3, seed=2, until_round=2)  # two first turns of their own positions
    real = plan_ahead  # the one `lookahead` calls
    limits: list[float] = []

    def recorded(*args: Any, **kwargs: Any) -> PlanAhead:
        limits.append(kwargs["time_limit"])
        found = real(*args, **kwargs)
        if len(limits) == 1:  # the plain plan, told proven or not
            status = Status.OPTIMAL if proven else Status.FEASIBLE
            found = dataclasses.replace(found, plan=dataclasses.replace(found.plan,
                                                                        status=status))
        return found

    monkeypatch.setattr(lookahead, "plan_ahead", recorded)
    _win(state, state.turn.player)
    share = ROOMY.win_answer_share if proven else ROOMY.win_answer_share_unproven
    assert ROOMY.win_answer_share != ROOMY.win_answer_share_unproven
    assert limits[0] == LIMIT * ROOMY.win_plan_share
    assert len(limits) >= 3  # each first turn's plan after the answers, and the chosen one's
    assert all(limit == pytest.approx(LIMIT * share) for limit in limits[1:])


def test_a_plan_after_the_answers_that_meets_the_wall_clock_is_told(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = midgame(3, seed=2, until_round=2)  # two first turns of their own positions
    real = plan_ahead  # the one `lookahead` calls
    calls: list[int] = []

    def second_stopped(*args: Any, **kwargs: Any) -> PlanAhead:
        found = real(*args, **kwargs)
        calls.append(1)
        if len(calls) == 2:  # the first plan after the answers, as if it met the wall clock
            found = dataclasses.replace(found, plan=dataclasses.replace(found.plan,
                                                                        clock_hit=True))
        return found

    monkeypatch.setattr(lookahead, "plan_ahead", second_stopped)
    told = _win(state, state.turn.player).plan
    monkeypatch.setattr(lookahead, "plan_ahead", real)
    plain = plan_ahead(state, BOARD, state.turn.player, rules=state.game_rules, goal=Goal("score"),
                       cautious=True, time_limit=LIMIT * ROOMY.win_plan_share, budget=ROOMY,
                       compare=False).plan
    # the plain plan's first turn, said to be the clock's choice (another run may differ)
    assert len(calls) == 2 and told.clock_hit and not plain.clock_hit
    assert told.turns[0] == plain.turns[0] and told.goal == WIN
    quiet = _win(state, state.turn.player).plan
    assert not quiet.clock_hit
