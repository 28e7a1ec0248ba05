"""The turn planner: every plan replays legally, claims what the referee sees, and is as good
as the exhaustive search over legal action sequences."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from models.game.actions import Move
from models.game.referee import apply, legal_actions
from models.game.state import GameState
from models.tower.festival import Festival
from models.tower.rules import STANDARD
from planner.tower.result import Status
from planner.turns.horizon import Goal, build_horizon
from planner.turns.plan import Plan, auto_turns
from planner.turns.replay import replay
from planner.turns.score.stages import points_now
from planner.turns.search import best_festival_score
from tests.planner.turns.game_states import BOARD, game_states, plan_roomy, played, trimmed

LIMIT = 30.0


def assert_replayed(plan: Plan) -> None:
    """The plan replays through the referee, and what it claims is what the referee saw."""
    assert plan.found
    actions = [list(turn.actions) for turn in plan.turns]
    coming = None  # a cautious plan's festivals are held with the rivals who could come
    if any(a.startswith("cautious") for a in plan.assumptions):
        coming = build_horizon(plan.start, BOARD, plan.player, len(actions), STANDARD,
                               cautious=True).coming
    again = replay(plan.start, BOARD, plan.player, actions, STANDARD, coming=coming)
    assert again.state.player(plan.player) == plan.end.player(plan.player)  # type: ignore
    for festival in plan.festivals:
        entry = festival.entry
        if entry.tower is not None:
            space = next(s for s in plan.start.festivals if s.location == festival.location)
            assert entry.score == Festival(tuple(space.size_tokens)).score(entry.tower)
    if plan.status is Status.OPTIMAL:
        assert plan.objective == plan.model_objective
        assert plan.bound == plan.objective
    if plan.goal.kind == "festival":
        assert plan.objective == max((f.entry.score or 0 for f in plan.festivals), default=0)
    if plan.goal.kind == "score":
        assert plan.end is not None
        assert plan.objective == points_now(plan.end, BOARD, plan.player)


@settings(max_examples=4)
@given(game_states(max_round=9), st.integers(1, 3), st.sampled_from(["festival", "score"]))
def test_plans_replay_and_score_as_the_referee_does(state: GameState, turns: int,
                                                    goal: str) -> None:
    plan = plan_roomy(state, BOARD, state.turn.player, rules=STANDARD, turns=turns,
                      goal=Goal(goal),
                      time_limit=10.0)  # a proof need not come: what was found must replay
    assert_replayed(plan)
    assert len(plan.turns) == min(turns, BOARD.rounds - plan.start.round + 1)


@st.composite
def small_states(draw: st.DrawFn, turns: int) -> GameState:
    """Two-player states at a round whose horizon holds a festival and no refill (the
    planner does not count on castellers the bag may add)."""
    seed = draw(st.integers(0, 10_000))
    first = draw(st.sampled_from([3, 4, 5, 6, 7, 8] if turns == 1 else [2, 4, 6, 8]))
    tokens = draw(st.integers(0, 1)) if turns == 1 else 0
    # two castellers a region for one turn (pairs recruited), one for two turns: with two,
    # the exhaustive search over two turns took 30-75 s of CPU a state, with one 4-13 s
    return trimmed(played(seed, 2, first), seed, tokens, keep=2 if turns == 1 else 1)


def assert_as_good_as_search(state: GameState, turns: int) -> None:
    """Proven, and exactly as good as the best of every legal action sequence (the search is
    exact too, so 'at least as good' must be 'as good')."""
    player = state.turn.player
    plan = plan_roomy(state, BOARD, player, rules=STANDARD, turns=turns, time_limit=LIMIT)
    assert_replayed(plan)
    assert plan.status is Status.OPTIMAL
    assert plan.objective == best_festival_score(state, BOARD, player, turns, STANDARD)


@settings(max_examples=4)  # the exhaustive search: 2-3 s a state
@given(small_states(turns=1))
def test_one_turn_is_as_good_as_every_legal_sequence(state: GameState) -> None:
    assert_as_good_as_search(state, 1)


# two random states a run: the exhaustive search copies a state per action tried (with one
# casteller a region, 4-13 s of CPU a state over two turns)
@settings(max_examples=2)
@given(small_states(turns=2))
def test_two_turns_are_as_good_as_every_legal_sequence(state: GameState) -> None:
    assert_as_good_as_search(state, 2)


def test_a_whole_game_plan_competes_within_the_default_limit() -> None:
    # 10 turns from round 1 with the default 10 s limit: the deterministic budget reaches a
    # plan that competes (the idle plan, its fallback, scores 0), and the bound is reported
    state = played(0, 4, 1)
    plan = plan_roomy(state, BOARD, state.turn.player, rules=STANDARD, turns=10)
    assert_replayed(plan)
    assert len(plan.turns) == 10
    assert plan.objective is not None and plan.objective > 0
    assert plan.bound is not None and plan.bound >= plan.objective


def test_the_default_horizon_reaches_the_aimed_festival_and_the_least_turns() -> None:
    state = played(1, 3, 5)
    space = state.festivals[0]
    now, later = (space.model_copy(update={"round": r}) for r in (5, 7))
    assert auto_turns(state, BOARD, now) == 1  # its festival closes this round
    assert auto_turns(state, BOARD, now, least_turns=2) == 2
    assert auto_turns(state, BOARD, later, least_turns=2) == 3  # the festival's is longer
    assert auto_turns(state, BOARD, None, default_turns=3, least_turns=2) == 3
    last = played(1, 3, 10)
    assert last.round == 10
    assert auto_turns(last, BOARD, now.model_copy(update={"round": 10}), least_turns=2) == 1


def test_a_plan_starts_at_the_players_next_turn() -> None:
    state = played(11, 3, 4)
    later = state.turn_order[-1]
    plan = plan_roomy(state, BOARD, later, rules=STANDARD, turns=1, time_limit=LIMIT)
    assert plan.start.turn.player == later
    assert plan.start.round == state.round
    assert_replayed(plan)


def test_a_partly_spent_turn_is_planned_from_where_it_stands() -> None:
    state = played(5, 2, 3)
    moved = next(a for a in legal_actions(state, BOARD, STANDARD) if isinstance(a, Move))
    state = apply(state, BOARD, moved, STANDARD)
    plan = plan_roomy(state, BOARD, state.turn.player, rules=STANDARD, turns=1, time_limit=LIMIT)
    assert_replayed(plan)
    first = plan.turns[0].actions
    assert not any(isinstance(a, Move) for a in first)
