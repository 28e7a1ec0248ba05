"""The panel of rival styles: every turn legal through the referee, the same turns whatever
the hidden future holds, styles that play differently from greedy, and greedy unchanged."""

from __future__ import annotations

import hashlib
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from models.game import EndTurn, GameState, legal_actions, new_game
from models.tower import VARIANTS, rules_named
from planner.castell import (
    BOTS,
    GREEDY_RIVALS,
    PANEL,
    PANEL_BOTS,
    STYLES,
    WEIGHTS,
    NoisyBot,
    Turn,
    Weights,
    greedy_bot,
    greedy_turn,
    noisy_turn,
    play_turn,
    tile_finder,
)
from planner.castell.panel import slip, turn_generator
from tests.planner.castell.games import BOARD, midgame, played

READINGS = [None, *VARIANTS.values(),
            rules_named("standard,free_special_is_extra=false,special_move=any"),
            rules_named("standard,claim_collects_own_token=false,earned_regions=festivals")]
STYLE_NAMES = sorted(PANEL_BOTS)


def test_every_style_is_a_bot_and_a_rival_model() -> None:
    assert set(STYLE_NAMES) == {"tiles", "festivals", "traveller", "sizes", "recruiter",
                                "noisy"}
    assert all(BOTS[name]() is PANEL_BOTS[name] for name in STYLE_NAMES)
    assert set(PANEL) == {"greedy", *STYLE_NAMES}
    assert PANEL["greedy"] is GREEDY_RIVALS and BOTS["greedy"]() is greedy_bot


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4),
       bots=st.lists(st.sampled_from(STYLE_NAMES), min_size=4, max_size=4),
       side=st.sampled_from(["standard", "advanced"]), readings=st.sampled_from(READINGS),
       until=st.integers(2, 4))
def test_every_turn_of_every_style_is_legal(seed: int, players: int, bots: list[str],
                                            side: str, readings: object, until: int) -> None:
    state = new_game(BOARD, players, seed, rules=readings,  # type: ignore[arg-type]
                     wheel_side=side)  # type: ignore[arg-type]
    after = played(state, bots[:players], until_round=until, seed=seed)  # refusals fail it
    assert after.round == until


def test_a_whole_game_of_two_styles_is_legal() -> None:
    state = new_game(BOARD, 2, 21, rules=READINGS[-1], wheel_side="advanced")
    after = played(state, ["traveller", "noisy"], until_round=99)
    assert after.game_over and all(f.resolved for f in after.festivals)


def test_the_styles_as_rival_models_play_legal_turns() -> None:
    state = midgame(3, seed=6, until_round=3)
    for name, rivals in PANEL.items():
        turn = rivals.turn(state, BOARD)
        assert isinstance(turn.actions[-1], EndTurn)
        assert not play_turn(state, BOARD, Turn(turn.actions, turn.towers)).refused, name
        after = rivals.play(state, BOARD, turn)
        assert after.turn.player != state.turn.player


def _planted(state: GameState) -> list[GameState]:
    """`state` with other hidden futures: other bags and seeds, nothing else changed."""
    planted = []
    for bag, seed in ((state.bag, state.seed + 1), ("10x12,9x12", 7), ("1x12,2x12", 8)):
        other = state.model_copy(deep=True)
        other.bag, other.seed = bag, seed
        planted.append(other)
    return planted


def test_no_style_sees_the_hidden_future() -> None:
    # round 3 ends with a refill: the planted bags draw other castellers then
    state = midgame(3, seed=4, until_round=3)
    planted = [state, *_planted(state)]
    for name in STYLE_NAMES:
        turns = [PANEL_BOTS[name](s, BOARD, random.Random(5)) for s in planted]
        assert all(t == turns[0] for t in turns), name
    for name, rivals in PANEL.items():
        answers = [rivals.turn(s, BOARD) for s in planted]
        assert all(t == answers[0] for t in answers), name


def test_every_style_plays_otherwise_than_greedy_somewhere() -> None:
    states = [midgame(3, seed=1, until_round=r) for r in (1, 3, 5)]
    states.append(midgame(2, seed=3, until_round=4))
    greedy = [greedy_turn(s, BOARD) for s in states]
    for name in STYLE_NAMES:
        turns = [PANEL_BOTS[name](s, BOARD, random.Random(k)) for k, s in enumerate(states)]
        assert turns != greedy, name


def test_the_noisy_style_draws_its_slips_from_its_own_generator() -> None:
    state = midgame(3, seed=2, until_round=2)
    bot = NoisyBot()
    turns = [bot(state, BOARD, random.Random(k)) for k in range(10)]
    assert any(t != turns[0] for t in turns) and greedy_turn(state, BOARD) in turns
    assert bot(state, BOARD, random.Random(3)) == bot(state, BOARD, random.Random(3))
    # no slips: greedy's turn; all slips: a random turn that does something first
    assert noisy_turn(state, BOARD, random.Random(1), chance=0.0) == greedy_turn(state, BOARD)
    for k in range(5):
        wild = noisy_turn(state, BOARD, random.Random(k), chance=1.0)
        assert len(wild.actions) > 1
        assert not play_turn(state, BOARD, wild).refused


def test_a_slip_never_ends_a_turn_before_its_first_action() -> None:
    state = midgame(2, seed=5, until_round=2)
    options = legal_actions(state, BOARD, state.game_rules, tiles=tile_finder)
    assert any(isinstance(a, EndTurn) for a in options) and len(options) > 1
    first = {str(slip(state, BOARD, random.Random(k), started=False)) for k in range(40)}
    later = {str(slip(state, BOARD, random.Random(k), started=True)) for k in range(40)}
    assert str(EndTurn()) not in first and str(EndTurn()) in later


def test_the_noisy_rival_is_the_same_for_a_position() -> None:
    state = midgame(3, seed=2, until_round=2)
    rivals = PANEL["noisy"]
    assert rivals.turn(state, BOARD) == rivals.turn(state, BOARD)
    assert turn_generator(state).random() == turn_generator(state.model_copy()).random()
    later = played(state, ["greedy"] * 3, until_round=3)
    assert turn_generator(later).random() != turn_generator(state).random()


def test_greedys_weights_are_the_default_and_its_turns_unchanged() -> None:
    assert Weights() == WEIGHTS and all(w != WEIGHTS for w in STYLES.values())
    # the greedy bot's first 12 turns of a seeded game, as they were before the panel's
    # weights were added to `Weights` (any change to greedy's play changes this digest)
    state = new_game(BOARD, 3, 10)
    turns = []
    for _ in range(12):
        turn = greedy_turn(state, BOARD)
        turns.append(json.dumps([[a.model_dump(mode="json") for a in turn.actions],
                                 turn.towers]))
        state = play_turn(state, BOARD, turn).state
    digest = hashlib.sha256("\n".join(turns).encode()).hexdigest()
    assert digest == "ea788e59a5b902cae5a23e0441203824bbcdb9eebdb541b5860db5365aa8bd56"
