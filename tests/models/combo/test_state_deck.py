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
