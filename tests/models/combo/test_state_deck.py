"""A game's deck is kept for its card list: another game with other cards gets its own."""

from __future__ import annotations

from models.combo import load_deck, new_game


def test_deck_follows_the_card_list() -> None:
    deck = load_deck()
    full = new_game(deck, ["Ana", "Ben"], 1)
    assert full.deck().cards == deck.cards
    assert full.deck() is full.deck()  # built once for the same card list
    fewer = full.model_copy(update={"cards": list(deck.cards[:-1])})
    assert fewer.deck().cards == deck.cards[:-1]
    assert full.deck().cards == deck.cards
    renamed = full.model_copy(update={"card_source": "other.toml"})
    assert renamed.deck().source == "other.toml" and full.deck().source == deck.source


def test_a_player_is_found_as_typed_at_the_table() -> None:
    import pytest

    from models.errors import SpecError

    table = new_game(load_deck(), ["Ana", "Ben", "ana"], 1).now
    assert table.named("Ben") is table.players[1]
    assert table.named(" ben").name == "Ben"
    assert table.named("ana") is table.players[2]  # exact names first
    with pytest.raises(SpecError, match="no player 'ANA'"):
        table.named("ANA")  # two players only case apart: the exact name is needed
    with pytest.raises(SpecError, match="players: Ana, Ben"):
        table.named("Zoe")


def test_the_kept_deck_is_the_states_own_and_no_part_of_its_equality() -> None:
    from models.combo import GameState, state_from_dict

    deck = load_deck()
    state = new_game(deck, ["Ana", "Ben"], 1)
    fresh = GameState.model_validate(state.model_dump())
    state.deck()  # built and kept by `state` only
    assert fresh == state and fresh.deck() is not state.deck()
    assert fresh.deck().cards == state.deck().cards
    copy = state.model_copy(update={"history": []})
    assert copy.deck() is state.deck()  # the referee's copies share it
    data = state.model_dump(mode="json")
    del data["revision"]  # a file written before revisions
    assert state_from_dict(data).revision == 0
