"""Bots: only legal actions, greedy's shortcut for other cells equals the referee's result, and
greedy beats random (a bot that cannot tell good from bad would not)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from models.combo import apply, final_scores, legal_actions, load_deck, new_game, score_tableau
from planner.combo import Greedy, Values, greedy, play_out, random_bot
from planner.combo.bots import position_value, quick_score, rate_takes


def test_greedy_rates_every_take_as_the_referee_would() -> None:
    rng = random.Random(5)
    state = new_game(load_deck(), ["Ana", "Ben", "Cem"], 11)
    while not state.now.game_over:
        me = state.now.current
        rated = rate_takes(state)
        assert [r.action for r in rated] == [a for a in legal_actions(state)
                                              if not str(a).startswith("key")]
        for r in rated[:: max(1, len(rated) // 6)]:
            after = apply(state, r.action)
            assert r.value == position_value(after.now.players[me], after)
        state = apply(state, rng.choice(legal_actions(state)))


def test_bots_play_legal_games_and_greedy_beats_random() -> None:
    greedy_points = random_points = 0
    for seed in range(4):
        state = new_game(load_deck(), ["g", "r"], seed, first="g" if seed % 2 else "r")
        rng = random.Random(seed)
        while not state.now.game_over:  # apply() refuses any illegal action
            bot = greedy if state.now.player.name == "g" else random_bot
            action = bot(state, rng)
            assert action in legal_actions(state)
            state = apply(state, action)
        scores, _ = final_scores(state)
        greedy_points += scores[0].sheet.total
        random_points += scores[1].sheet.total
    assert greedy_points > random_points
    # play_out is the same loop
    state = new_game(load_deck(), ["g", "r"], 0, first="r")
    done = play_out(state, [greedy, random_bot], random.Random(0))
    assert done.now.game_over


def test_quick_score_is_score_tableau() -> None:
    """Greedy's lean scorer against the rules core, on every position of random games (every
    player, any number of cards, gold, keys and purses as play leaves them)."""
    deck = load_deck()
    for seed in range(3):
        state = new_game(deck, ["Ana", "Ben", "Cem", "Dee"][:2 + seed], 20 + seed)
        rng = random.Random(seed)
        while not state.now.game_over:
            for player in state.now.players:
                sheet = score_tableau(player.grid(), deck, player.keys, player.gold,
                                      player.purses)
                assert quick_score(player, deck) == (sheet.total, sheet.gold_left)
            state = apply(state, (greedy if rng.random() < 0.5 else random_bot)(state, rng))


def test_position_values_are_kept_by_their_owner_and_bounded(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import planner.combo.bots as bots

    scored: list[int] = []
    real = bots.quick_score

    def counting(player: Any, deck: Any) -> tuple[int, int]:
        scored.append(1)
        return real(player, deck)

    monkeypatch.setattr(bots, "quick_score", counting)
    state = new_game(load_deck(), ["Ana", "Ben"], 4)
    ana = state.now.players[0]
    position_value(ana, state)
    position_value(ana, state)
    assert len(scored) == 2  # no cache given: nothing kept anywhere between the calls
    values = Values()
    position_value(ana, state, values=values)
    position_value(ana, state, values=values)
    assert len(scored) == 3 and len(values) == 1  # kept by its owner
    assert len(Values()) == 0 and Greedy().values is not Greedy().values
    small = Values(most=3)
    rated = rate_takes(state, small)
    assert len(rated) > 3 and len(small) <= 3  # bounded: it starts again when full
    other = new_game(load_deck(), ["Ana", "Ben"], 4)  # another game's card list: emptied
    position_value(other.now.players[0], other, values=small)
    assert len(small) == 1


def test_a_greedy_bot_with_its_cache_plays_as_greedy_does() -> None:
    state = new_game(load_deck(), ["Ana", "Ben"], 9)
    kept = Greedy()
    rng = random.Random(9)
    while not state.now.game_over:
        action = kept(state, rng)
        assert action == greedy(state, rng)
        state = apply(state, action)
