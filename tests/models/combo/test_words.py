"""A card's ability in plain words: every card of the sample deck reads without the card
file's notation (no `key=value`, no brackets, no internal names with underscores)."""

from __future__ import annotations

import re

from models.combo import ability_text, describe, load_deck
from models.combo.cards import PurseGold
from models.combo.words import effect_words

NOTATION = re.compile(r"[=\[\]{}_]")


def test_every_ability_and_scroll_reads_in_words() -> None:
    deck = load_deck()
    texts = [ability_text(c) for c in deck.cards] + [describe(c.score) for c in deck.cards]
    assert any(t.startswith("choose one: ") for t in texts)
    for text in texts:
        assert not NOTATION.search(text), text


def test_abilities_say_what_the_card_does() -> None:
    deck = load_deck()
    by_id = {c.id: ability_text(c) for c in deck.cards}
    assert by_id["C02"] == "gain 3 gold"
    assert by_id["C17"] == "each opponent gains 2 gold; then gain 5 gold"
    assert by_id["C32"] == "discard a card from the village row and gain its cost in keys"
    assert by_id["C11"] == "gain 1 key per shield type in row"
    assert by_id["C01"] == ""



def test_purse_gold_says_what_the_referee_does() -> None:
    # the referee fills each of the buyer's purses, up to its capacity (not only this card's)
    assert effect_words(PurseGold(purse_gold=2)) == "put up to 2 gold on each of your purses"
