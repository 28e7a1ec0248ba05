"""Castell bots: every turn legal through the referee, and the same choices whatever the
hidden bag holds."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from models.game import EndTurn, GameState, Special, new_game
from models.tower import VARIANTS, rules_named
from planner.castell import BOTS, Advisor, Turn, greedy_turn, play_turn, random_bot
from planner.turns import Goal
from tests.planner.castell.games import BOARD, midgame, played
from tests.planner.turns.game_states import ROOMY  # the wall clock never decides a test

READINGS = [None, *VARIANTS.values(),
            rules_named("standard,free_special_is_extra=false,special_move=any"),
            rules_named("standard,claim_collects_own_token=false,earned_regions=festivals")]


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4),
       bots=st.lists(st.sampled_from(["random", "greedy"]), min_size=4, max_size=4),
       side=st.sampled_from(["standard", "advanced"]), readings=st.sampled_from(READINGS))
def test_every_turn_of_random_and_greedy_is_legal(seed: int, players: int, bots: list[str],
                                                  side: str, readings: object) -> None:
    state = new_game(BOARD, players, seed, rules=readings,  # type: ignore[arg-type]
                     wheel_side=side)  # type: ignore[arg-type]
    # through the first festival (end of round 3) and the refill after it
    after = played(state, bots[:players], until_round=4, seed=seed)
    assert after.round == 4 and after.festivals[0].resolved


def test_the_advisors_turns_are_legal_and_name_the_plans_towers() -> None:
    state = midgame(3, seed=2, until_round=3)  # round 3 ends with a festival
    advisor = Advisor(time_limit=2.0, budget=ROOMY)
    named = []
    for _ in range(3):
        turn = advisor(state, BOARD, random.Random(0))
        assert isinstance(turn.actions[-1], EndTurn)
        named += turn.towers
        result = play_turn(state, BOARD, turn)
        assert not result.refused
        state = result.state
    assert state.round == 4 and len(advisor.wall_s) == 3 and not advisor.fallbacks
    # each call's weighed first turns kept, one of them advised when there were two to weigh
    assert len(advisor.first_turns) == 3 and any(advisor.first_turns)
    assert all(sum(chosen for _, chosen, _ in call) == 1 for call in advisor.first_turns if call)
    # the towers named are the ones built: the festival's result shows them
    built = {c.player: c.tower for c in state.festivals[0].result.competitors}
    assert named and all(tower in built.values() for _, tower in named)


def _planted(state: GameState) -> list[GameState]:
    """`state` with other bags and seeds: other refills ahead, nothing else changed."""
    planted = []
    for bag, seed in ((state.bag, state.seed + 1), ("10x12,9x12", 7), ("1x12,2x12", 8)):
        other = state.model_copy(deep=True)
        other.bag, other.seed = bag, seed
        planted.append(other)
    return planted


def _refills(states: list[GameState]) -> set[str]:
    """What each state's refill at the end of this round puts in the regions."""
    drawn = set()
    for state in states:
        after = played(state, ["greedy"] * len(state.players), until_round=state.round + 1)
        drawn.add(";".join(str(r.supply) for r in after.regions.values()))
    return drawn


def test_no_bot_sees_the_bag() -> None:
    state = midgame(3, seed=4, until_round=3)
    assert 3 in BOARD.refill_rounds
    planted = [state, *_planted(state)]
    assert len(_refills(planted)) == len(planted)  # the hidden futures do differ
    quick = {"advisor": lambda: Advisor(time_limit=2.0, budget=ROOMY),
             "score": lambda: Advisor(Goal("score"), time_limit=2.0, budget=ROOMY),
             "festival": lambda: Advisor(Goal("festival"), time_limit=2.0, budget=ROOMY),
             "cautious": lambda: Advisor(Goal("score"), time_limit=2.0, budget=ROOMY,
                                         cautious=True)}
    assert set(quick) == {name for name, made in BOTS.items() if isinstance(made(), Advisor)}
    for name in BOTS:
        bots = [quick.get(name, BOTS[name])() for _ in planted]
        turns = [bot(s, BOARD, random.Random(5)) for bot, s in zip(bots, planted, strict=True)]
        assert all(t == turns[0] for t in turns), name


def test_random_draws_from_its_own_generator() -> None:
    state = new_game(BOARD, 2, 3)
    turns = {tuple(map(str, random_bot(state, BOARD, random.Random(k)).actions))
             for k in range(8)}
    assert len(turns) > 1
    assert random_bot(state, BOARD, random.Random(1)) == random_bot(state, BOARD,
                                                                    random.Random(1))


def test_greedy_claims_a_tile_it_can_claim() -> None:
    # find a greedy turn in a played game that could claim: it claims (a tile's points and the
    # tokens in its row are worth more than the token it costs)
    state = midgame(2, seed=1, until_round=2)
    claimed = 0
    for _ in range(16):
        if state.game_over:
            break
        turn = greedy_turn(state, BOARD)
        claimed += any(isinstance(a, Special) and a.kind == "claim" for a in turn.actions)
        state = play_turn(state, BOARD, turn).state
    assert claimed


def test_a_refused_step_is_counted_and_the_turn_ends() -> None:
    state = new_game(BOARD, 2, 1)
    wrong = Turn((EndTurn(), EndTurn()))
    result = play_turn(state, BOARD, wrong)
    assert result.refused and result.state.turn.player != state.turn.player
    assert not play_turn(state, BOARD, Turn((EndTurn(),))).refused
