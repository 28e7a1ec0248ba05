"""`combo cards`: a deck's cards as the card file writes them, and its statistics against the
real game's (rules page section 5)."""

from __future__ import annotations

from models.combo import PUBLISHED, deck_stats, load_deck
from service.results.base import output_of
from service.results.combo import ComboCardsOutput, ComboStatsOutput


def deck_cards(cards_file: str | None = None) -> ComboCardsOutput:
    """The cards of `cards_file` (default: the invented sample deck), with the file's
    warnings."""
    deck = load_deck(cards_file)
    return output_of(ComboCardsOutput, {"source": deck.source, "warnings": list(deck.warnings),
                                        "cards": list(deck.cards)})


def deck_statistics(cards_file: str | None = None) -> ComboStatsOutput:
    """The deck's shield, cost, Messenger and purse statistics, each compared with the real
    game's."""
    deck = load_deck(cards_file)
    got = deck_stats(deck)
    matches = {key: got[key] == PUBLISHED[key] for key in PUBLISHED}
    return output_of(ComboStatsOutput, {"source": deck.source, "deck": got,
                                        "published": PUBLISHED, "matches": matches,
                                        "all_match": all(matches.values())})
