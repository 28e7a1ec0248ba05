"""The win goal: the cautious score plan's first turn or the greedy bot's, whichever leaves
the player further ahead of the best rival after the rivals' answers and the plan from there;
the plan shown is the score goal's plan through the chosen first turn. The rivals' model and
the pipeline the goal asks for plans are passed in (`PlanRequest.rivals`, `plan`'s
`pipeline`): a test gives its own."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from models.game import Board, EndTurn, GameState, score_player
from planner.castell import GREEDY_RIVALS, greedy_turn, play_turn
from planner.castell.turn import Turn
from planner.clock import Clock
from planner.tower import Status
from planner.turns import (
    DEFAULT_BUDGET,
    WIN,
    Goal,
    NoRivals,
    PlanRequest,
    PlanResult,
    RivalModels,
    RivalTurn,
    plan,
    plan_ahead,
    plan_turns,
)
from planner.turns.ahead import planned
from planner.turns.strategy import Pipeline
from planner.turns.win.answers import (
    GREEDY,
    PLAN,
    Answered,
    Candidate,
    as_win,
    plan_to_win,
    tried_turns,
    weighed,
)
from tests.planner.castell.games import BOARD, midgame
from tests.planner.turns.game_states import ROOMY  # the wall clock never decides a test

LIMIT = 2.0


def _request(state: GameState, player: str, goal: Goal = WIN, **options: object
             ) -> PlanRequest:
    return PlanRequest(state, BOARD, player, state.game_rules, goal=goal, budget=ROOMY,
                       rivals=GREEDY_RIVALS, **options)  # type: ignore[arg-type]


def _win(state: GameState, player: str, rivals: object = GREEDY_RIVALS,
         pipeline: Pipeline = planned) -> PlanResult:
    request = dataclasses.replace(_request(state, player), rivals=rivals)
    return plan_to_win(request, Clock.start(LIMIT), pipeline)


class IdleRivals:
    """A greedy bot that stays idle: its turn ends at once."""

    def turn(self, state: GameState, board: Board) -> Turn:
        return Turn((EndTurn(),))

    def play(self, state: GameState, board: Board, turn: RivalTurn) -> GameState:
        return GREEDY_RIVALS.play(state, board, turn)


def test_the_win_plan_is_legal_named_and_repeats() -> None:
    state = midgame(3, seed=2, until_round=2)
    me = state.turn.player
    first, again = _win(state, me), _win(state, me)
    shown = first.plan
    assert shown.found and first.goal == WIN and str(first.goal) == "win"
    assert not first.fixed and first.unfixed is None  # not shown as a what-if
    assert [t.actions for t in shown.turns] == [t.actions for t in again.plan.turns]
    assert first.assumptions == again.assumptions
    played = play_turn(state, BOARD, Turn((*shown.turns[0].actions, EndTurn())))
    assert not played.refused
    # here the greedy bot's turn leaves the player further ahead after the rivals' answers
    # (18 points ahead against 8): the plan shown goes through it, and says so
    greedy = greedy_turn(state, BOARD).actions[:-1]
    assert tuple(shown.turns[0].actions[:len(greedy)]) == tuple(greedy)
    assert first.assumptions[-1].endswith(
        "18 points ahead of the best rival with this first turn (the greedy bot's); 8 points "
        "ahead with the cautious plan's")
    # the same values, kept for the output: the advised first turn first
    assert [(w.source, round(w.answered.margin), w.chosen) for w in first.weighed] == [
        (GREEDY, 18, True), (PLAN, 8, False)]


def test_the_plans_after_the_answers_side_by_side_give_the_same_answer() -> None:
    state = midgame(3, seed=2, until_round=2)  # two first turns of their own positions
    me = state.turn.player
    answers: list[PlanResult] = []
    # one after the other, in two threads, and in a forked process (`win_processes`)
    for threads, processes in ((1, False), (2, False), (2, True)):
        budget = dataclasses.replace(ROOMY, win_threads=threads, win_processes=processes)
        request = dataclasses.replace(_request(state, me), budget=budget)
        answers.append(plan_to_win(request, Clock.start(LIMIT), planned))
    alone, *beside = answers
    for other in beside:
        assert [t.actions for t in alone.plan.turns] == [t.actions for t in other.plan.turns]
        assert alone.plan.objective == other.plan.objective
        assert alone.assumptions == other.assumptions  # both first turns' values, as said
        assert alone.weighed == other.weighed


def test_another_players_plan_is_the_cautious_score_plan() -> None:
    state = midgame(3, seed=2, until_round=2)
    other = next(p.name for p in state.players if p.name != state.turn.player)
    win = _win(state, other)
    score = plan_ahead(state, BOARD, other, rules=state.game_rules, goal=Goal("score"),
                       cautious=True, time_limit=LIMIT * ROOMY.win_plan_share,
                       budget=ROOMY.win_plans()).plan
    assert win.goal == WIN
    assert [t.actions for t in win.plan.turns] == [t.actions for t in score.turns]
    assert not any("rival answers" in a for a in win.assumptions)


def test_the_request_routes_the_win_goal_and_the_others() -> None:
    state = midgame(2, seed=1, until_round=2)
    me = state.turn.player
    festival = plan(_request(state, me, Goal("festival")), Clock.start(LIMIT))
    assert festival.goal == Goal("festival") == festival.plan.goal
    # a what-if on the win goal fixes the first actions of the cautious score plan
    fixed = festival.plan.turns[0].actions[:1]
    win = plan(_request(state, me, fixed=fixed), Clock.start(LIMIT))
    assert win.goal == Goal("score") and win.fixed == tuple(fixed)


def test_the_win_goal_needs_a_model_of_the_rivals() -> None:
    state = midgame(2, seed=1, until_round=2)
    request = dataclasses.replace(_request(state, state.turn.player), rivals=None)
    with pytest.raises(NoRivals, match="model of the rivals"):
        plan(request, Clock.start(LIMIT))


def test_the_win_plan_looks_through_the_next_rounds_festival_too() -> None:
    # the festival the plans build toward here closes this round: the score goal's plan looks
    # one turn ahead, the win goal's plain plan (and its what-if's) `win_least_turns`, two;
    # the plans after the answers and through the greedy bot's turn the default horizon
    state = midgame(3, seed=4, until_round=3)
    me = state.turn.player
    score = plan_ahead(state, BOARD, me, rules=state.game_rules, goal=Goal("score"),
                       cautious=True, time_limit=LIMIT, budget=ROOMY).plan
    assert len(score.turns) == 1 and ROOMY.win_least_turns == 2
    win = _win(state, me)  # here the greedy bot's turn leaves the player further ahead
    assert "with this first turn (the greedy bot's)" in win.assumptions[-1]
    assert len(win.plan.turns) == 1
    what_if = plan(_request(state, me, fixed=win.plan.turns[0].actions[:1]),
                   Clock.start(LIMIT))
    assert what_if.unfixed is not None
    assert len(what_if.plan.turns) == 2 and len(what_if.unfixed.turns) == 2
    # a greedy bot that stays idle: the plain plan's first turn is advised, two turns shown
    plain = _win(state, me, rivals=IdleRivals())
    assert "with this first turn (the cautious plan's)" in plain.assumptions[-1]
    assert len(plain.plan.turns) == 2


def test_why_the_first_turn_is_said() -> None:
    state = midgame(2, seed=1, until_round=2)
    ahead = plan_ahead(state, BOARD, state.turn.player, rules=state.game_rules,
                       goal=Goal("score"), time_limit=LIMIT, budget=ROOMY)
    turn = Turn((EndTurn(),))
    chosen, greedy = (Candidate(name, turn, None) for name in (PLAN, GREEDY))
    told = as_win(ahead, (chosen, Answered(40, 31)),
                  [(greedy, Answered(30, 30))]).assumptions[-1]
    assert told.endswith("ends 9 points ahead of the best rival with this first turn (the "
                         "cautious plan's); level with the greedy bot's")
    told = as_win(ahead, (chosen, Answered(31, 30)),
                  [(greedy, Answered(30, 31))]).assumptions[-1]
    assert told.endswith("1 point ahead of the best rival with this first turn (the "
                         "cautious plan's); 1 point behind with the greedy bot's")
    told = as_win(ahead, (greedy, Answered(30, 32)),
                  [(chosen, Answered(30, 35))]).assumptions[-1]
    assert told.endswith("2 points behind the best rival with this first turn (the greedy "
                         "bot's); 5 points behind with the cautious plan's")
    # the plan shown is the score goal's own, unedited; the answer is the win goal's
    shown = as_win(ahead)
    assert shown.plan is ahead.plan and shown.goal == WIN and ahead.plan.goal == Goal("score")


def test_each_position_is_tried_once_and_a_clock_decides_nothing() -> None:
    state = midgame(3, seed=2, until_round=2)
    me = state.turn.player
    greedy = greedy_turn(state, BOARD)
    other = Turn((EndTurn(),))
    found = plan_ahead(state, BOARD, me, rules=state.game_rules, goal=Goal("score"),
                       time_limit=LIMIT, budget=ROOMY)
    asked: list[int] = []

    def planned_at(hit: bool) -> Callable[[GameState], PlanResult]:
        def answer(start: GameState) -> PlanResult:  # 12 points, or stopped by the wall clock
            asked.append(start.round)
            return dataclasses.replace(  # a test double of the pipeline's answer
                found, clock_hit=hit, plan=dataclasses.replace(found.plan, objective=12))
        return answer

    candidates = [Candidate(PLAN, greedy, None), Candidate(PLAN, greedy, None),
                  Candidate(GREEDY, other, None)]
    tried = tried_turns(candidates, state, BOARD, me, GREEDY_RIVALS, planned_at(False))
    assert tried is not None and [c.source for c, _ in tried] == [PLAN, GREEDY]
    assert len(asked) == 2 and all(a.mine == 12 for _, a in tried)
    # a plan after the answers that met the wall clock: nothing is chosen by it
    assert tried_turns(candidates, state, BOARD, me, GREEDY_RIVALS, planned_at(True)) is None


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
        proven: bool) -> None:
    state = midgame(3, seed=2, until_round=2)  # two first turns of their own positions
    limits: list[float] = []

    def recorded(request: PlanRequest, clock: Clock) -> PlanResult:
        limits.append(clock.seconds)
        found = planned(request, clock)
        if len(limits) == 1:  # the plain plan, told proven or not
            status = Status.OPTIMAL if proven else Status.FEASIBLE
            found = dataclasses.replace(found, plan=dataclasses.replace(found.plan,
                                                                        status=status))
        return found

    _win(state, state.turn.player, pipeline=recorded)
    share = ROOMY.win_answer_share if proven else ROOMY.win_answer_share_unproven
    assert ROOMY.win_answer_share != ROOMY.win_answer_share_unproven
    assert limits[0] == LIMIT * ROOMY.win_plan_share
    assert len(limits) >= 3  # each first turn's plan after the answers, and the chosen one's
    assert all(limit == pytest.approx(LIMIT * share) for limit in limits[1:])


def test_a_plan_after_the_answers_that_meets_the_wall_clock_is_told() -> None:
    state = midgame(3, seed=2, until_round=2)  # two first turns of their own positions
    calls: list[int] = []

    def answers_stopped(request: PlanRequest, clock: Clock) -> PlanResult:
        found = planned(request, clock)
        calls.append(1)
        if request.state is not state:  # a plan after the answers, as if it met the clock
            found = dataclasses.replace(found, clock_hit=True)
        return found

    told = _win(state, state.turn.player, pipeline=answers_stopped)
    plain = plan_ahead(state, BOARD, state.turn.player, rules=state.game_rules,
                       goal=Goal("score"), cautious=True,
                       time_limit=LIMIT * ROOMY.win_plan_share, budget=ROOMY.win_plans(),
                       compare=False, least_turns=ROOMY.win_least_turns).plan
    # the plain plan's first turn, said to be the clock's choice (another run may differ):
    # the plain plan, then the two plans after the answers (side by side), none after them
    assert len(calls) == 3 and told.clock_hit and not plain.clock_hit
    assert told.plan.turns[0] == plain.turns[0] and told.goal == WIN
    quiet = _win(state, state.turn.player)
    assert not quiet.clock_hit


def _cut_at_first_checkpoint(request: PlanRequest, clock: Clock) -> PlanResult:
    """The pipeline as a machine far busier than the work was sized for sees it: the wall
    clock stops the search at its first checkpoint, with whatever it held (here: idling)."""
    found = planned(request, clock)
    idle = dataclasses.replace(found.plan, turns=(dataclasses.replace(
        found.plan.turns[0], actions=()),), objective=0, clock_hit=True)
    return dataclasses.replace(found, plan=idle, clock_hit=True)


@pytest.mark.parametrize(("players", "seed", "until"), [(3, 2, 2), (2, 1, 3), (4, 3, 1)])
def test_a_search_cut_by_the_clock_gives_the_floor_a_legal_turn_as_good_as_greedys(
        players: int, seed: int, until: int) -> None:
    state = midgame(players, seed=seed, until_round=until)
    me = state.turn.player
    told = _win(state, me, pipeline=_cut_at_first_checkpoint)
    greedy = greedy_turn(state, BOARD)
    shown = told.plan
    # the greedy bot's turn, never the idle turn the search held; said to be the clock's
    assert told.clock_hit and shown.found and shown.status is Status.FEASIBLE
    assert (*shown.turns[0].actions, EndTurn()) == greedy.actions
    played = play_turn(state, BOARD, Turn((*shown.turns[0].actions, EndTurn())))
    assert not played.refused
    # its value is the referee's: the player's points after the turn
    mine = played.state.player(me)
    assert shown.objective == score_player(mine, BOARD).total
    assert shown.steps and len(shown.steps[0]) == len(shown.turns[0].actions)
    # the same on every run
    again = _win(state, me, pipeline=_cut_at_first_checkpoint)
    assert again.plan.turns == shown.turns and again.assumptions == told.assumptions


def test_a_first_turn_is_weighed_against_each_model_of_the_rivals() -> None:
    state = midgame(3, seed=2, until_round=2)
    me = state.turn.player
    found = plan_ahead(state, BOARD, me, rules=state.game_rules, goal=Goal("score"),
                       time_limit=LIMIT, budget=ROOMY)

    def planned_from(start: GameState) -> PlanResult:  # 12 points from wherever it starts
        return dataclasses.replace(found, plan=dataclasses.replace(found.plan, objective=12))

    candidates = [Candidate(PLAN, greedy_turn(state, BOARD), None),
                  Candidate(GREEDY, Turn((EndTurn(),)), None)]
    alone = {name: tried_turns(candidates, state, BOARD, me, model, planned_from)
             for name, model in (("greedy", GREEDY_RIVALS), ("idle", IdleRivals()))}
    both = weighed(candidates, state, BOARD, me,
                   RivalModels((("greedy", GREEDY_RIVALS), ("idle", IdleRivals()))),
                   planned_from)
    assert both is not None and all(alone.values())
    for i, (candidate, answered) in enumerate(both):
        each = [found_[i][1] for found_ in alone.values() if found_ is not None]
        assert candidate is candidates[i]
        assert answered.rivals == pytest.approx(sum(a.rivals for a in each) / 2)
        assert answered.mine == 12
    # one model: the model's own answers, unweighed
    assert weighed(candidates, state, BOARD, me, GREEDY_RIVALS, planned_from) == \
        alone["greedy"]
    with pytest.raises(ValueError, match="at least one"):
        RivalModels(())


def test_the_answer_names_the_styles_it_weighed() -> None:
    state = midgame(3, seed=2, until_round=2)
    found = plan_ahead(state, BOARD, state.turn.player, rules=state.game_rules,
                       goal=Goal("score"), time_limit=LIMIT, budget=ROOMY)
    plan_turn = Candidate(PLAN, greedy_turn(state, BOARD), None)
    told = as_win(found, (plan_turn, Answered(30.4, 28.2)), (), ("greedy", "tiles"))
    assert "each of 2 styles of player in turn (greedy, tiles; the margins averaged)" in \
        told.assumptions[-1]
    assert "2 points ahead of the best rival" in told.assumptions[-1]


@pytest.mark.parametrize("light", [True, False])
def test_the_win_goals_plans_take_the_budgets_presolve(light: bool) -> None:
    # `win_light_stages`: every plan the win goal asks for (the plain plan, the plans after
    # the answers, a what-if's) has the short presolve on every stage; off, the score goal's.
    # `win_order_share`: each gives the ordered lean model the win goal's share
    state = midgame(3, seed=2, until_round=2)
    me = state.turn.player
    budget = dataclasses.replace(ROOMY, win_light_stages=light, win_order_share=0.2)
    asked: list[tuple[bool, float]] = []

    def recording(request: PlanRequest, clock: Clock) -> PlanResult:
        asked.append((request.budget.light_stages, request.budget.order_share))
        return planned(request, clock)

    request = dataclasses.replace(_request(state, me), budget=budget)
    advice = plan_to_win(request, Clock.start(LIMIT), recording)
    what_if = dataclasses.replace(request, fixed=advice.plan.turns[0].actions[:1])
    plan(what_if, Clock.start(LIMIT), recording)
    assert len(asked) >= 4 and set(asked) == {(light, 0.2)}


def test_the_plans_after_the_answers_are_read_for_their_value_alone() -> None:
    # the plain plan and the chosen first turn's plan are shown, so whole; the plans after
    # the rivals' answers are only weighed: the goal's stage alone, the same value
    state = midgame(3, seed=2, until_round=2)
    asked: list[bool] = []

    def recording(request: PlanRequest, clock: Clock) -> PlanResult:
        asked.append(request.value_only)
        return planned(request, clock)

    _win(state, state.turn.player, pipeline=recording)
    assert asked[0] is False and asked[1:3] == [True, True] and not any(asked[3:])
    after = GREEDY_RIVALS.play(state, BOARD, greedy_turn(state, BOARD))
    while after.turn.player != state.turn.player:
        after = GREEDY_RIVALS.play(after, BOARD, GREEDY_RIVALS.turn(after, BOARD))
    request = _request(after, state.turn.player, Goal("score"), cautious=True)
    whole, alone = (planned(dataclasses.replace(request, value_only=value_only),
                            Clock.start(LIMIT)).plan for value_only in (False, True))
    # the same value and proof (the tie-breaks may then pick other actions of that value)
    assert alone.found and (alone.objective, alone.status, alone.bound) == (
        whole.objective, whole.status, whole.bound)
    assert whole.tie_breaks and whole.steps and not alone.tie_breaks and not alone.steps
