"""The advisor: exact on a last turn (equal to scoring every action by the rules core), the same
ranking for the same seed, only legal actions, and blind to the hidden deck order."""

from __future__ import annotations

import random

import pytest

from models.combo import (
    LOCATIONS,
    GameState,
    Key,
    Take,
    apply,
    legal_actions,
    score_tableau,
)
from models.errors import SpecError
from planner.combo import advise
from tests.planner.combo.games import before_last_turn, position


def _final(state: GameState, seat: int) -> int:
    p = state.now.players[seat]
    return score_tableau(p.grid(), state.deck(), p.keys, p.gold, p.purses).total


def _exhaustive(state: GameState) -> dict[str, int]:
    """Every action of the last turn scored by the rules core (a key move: its best take)."""
    seat = state.now.current
    found = {}
    for action in legal_actions(state):
        if isinstance(action, Take):
            found[str(action)] = _final(apply(state, action), seat)
        elif action == Key("move"):
            moved = apply(state, action)
            found[str(action)] = max(_final(apply(moved, a), seat)
                                     for a in legal_actions(moved) if isinstance(a, Take))
    return found


@pytest.mark.parametrize("seed", [3, 8])
def test_last_turn_ranking_is_exhaustive_scoring(seed: int) -> None:
    state = before_last_turn(seed, players=3 if seed == 8 else 2)
    if state.now.player.keys == 0:  # give a key so that the key move is ranked too
        state.now.players[state.now.current].keys = 1
    advice = advise(state, samples=2, seed=0)
    assert advice.last_turn
    expected = _exhaustive(state)
    exact = {str(a.action): a.value for a in advice.ranking if a.exact}
    assert exact == expected
    values = [a.value for a in advice.ranking if a.exact]
    assert values == sorted(values, reverse=True)


def _late() -> GameState:
    return position(5, turns=14)


def test_same_seed_same_ranking_and_every_action_legal() -> None:
    state = _late()
    one = advise(state, samples=3, seed=4)
    two = advise(state, samples=3, seed=4)
    strip = [{k: v for k, v in a.as_dict().items()} for a in one.ranking]
    assert strip == [a.as_dict() for a in two.ranking]
    legal = legal_actions(state)
    assert sorted(map(str, (a.action for a in one.ranking))) == sorted(map(str, legal))
    for item in one.ranking:
        apply(state, item.action)  # the referee accepts each
        assert item.samples >= 1 and item.stderr >= 0
    best = one.ranking[0]
    assert best.samples == 3  # the best few get the full sample count


def test_a_different_hidden_deck_order_gives_the_same_advice() -> None:
    state = _late()
    rng = random.Random(99)
    planted = state.model_copy(deep=True)
    for location in LOCATIONS:
        rng.shuffle(planted.now.decks[location])
    planted.seed = state.seed + 12345  # the seed decides later reshuffles: hidden too
    assert planted.now.decks != state.now.decks
    a = advise(state, samples=2, seed=1)
    b = advise(planted, samples=2, seed=1)
    assert [x.as_dict() for x in a.ranking] == [x.as_dict() for x in b.ranking]


def test_advice_is_for_the_player_to_move() -> None:
    state = position(1)
    other = state.now.players[(state.now.current + 1) % 2].name
    with pytest.raises(SpecError, match="turn"):
        advise(state, other)
    with pytest.raises(SpecError, match="no player"):
        advise(state, "Zed")


def test_last_turn_reading_game_end_samples_instead() -> None:
    state = before_last_turn(3)
    advice = advise(state, samples=2, seed=0, last_turn="game_end")
    assert not advice.last_turn and not any(a.exact for a in advice.ranking)
    legal = {str(a) for a in legal_actions(state)}
    assert {str(a.action) for a in advice.ranking} == legal


def _dry(keep: int) -> GameState:
    """A new game whose decks hold `keep` cards each (the rest discarded before the start)."""
    data = position(5).model_dump(mode="json")
    for part in ("start", "now"):
        table = data[part]
        for location, cards in table["decks"].items():
            table["discard"][location] = [*table["discard"].get(location, []), *cards[keep:]]
            table["decks"][location] = cards[:keep]
    return GameState.model_validate(data)


@pytest.mark.parametrize("keep", [0, 1])
def test_the_advice_holds_to_the_end_when_the_decks_run_dry(keep: int) -> None:
    """Before: `combo advise` on a game with nearly empty decks died of `max()` on an empty
    sequence (no take left in the other row after a key move)."""
    state = _dry(keep)
    moves = 0
    while not state.now.game_over and legal_actions(state):
        advice = advise(state, samples=1, time_limit=0.05, reasons=False)
        assert advice.ranking, "an action to advise while the game is on"
        state = apply(state, advice.ranking[0].action)
        moves += 1
    assert moves > 0
