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
    assert by_id["C11"] == "gain 1 key per different shield type in its row"
    assert by_id["C01"] == ""


def test_scrolls_read_as_a_player_would_say_them() -> None:
    # issue 52: "1 per all purse gold" and "2 per card with cost (0)" read like the card file
    scrolls = {c.id: describe(c.score) for c in load_deck().cards}
    assert scrolls["C08"] == "1 point per gold on all your purses"
    assert scrolls["C21"] == "2 points per card costing 0"
    assert scrolls["C06"] == "1 point per card costing 5 or more"
    assert scrolls["C07"] == "2 points per village banner in its row"
    assert scrolls["C22"] == "5 points per set of 2 peasantry and craftsmanship shields"
    assert scrolls["C17"] == "5 points if it lies in the centre"
    assert scrolls["C01"] == ("6 points if it lies in the top-left, top-right, bottom-left "
                              "or bottom-right")
    assert scrolls["C02"] == "7 points if your tableau has no military shield"
    assert scrolls["C11"] == "2 points per gold on this purse (it holds 4)"
    assert describe(None) == "no scroll"


def test_purse_gold_says_what_the_referee_does() -> None:
    # the referee fills each of the buyer's purses, up to its capacity (not only this card's)
    assert effect_words(PurseGold(purse_gold=2)) == "put up to 2 gold on each of your purses"
