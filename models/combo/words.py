"""A card in plain words, the one way every edge prints it (`combo cards`, `combo show`, the
table page): its scroll (`describe`, in `models.combo.scoring`) and its ability, effect by
effect, as a player would read the card ("gain 2 gold per banner (castle)"), never the card
file's notation."""

from __future__ import annotations

from models.combo.cards import (
    Card,
    Choose,
    DiscardFromRow,
    Effect,
    FillPurses,
    Gain,
    OpponentsGain,
    PurseGold,
)
from models.combo.scoring import count_words


def _amount(amount: int, resource: str) -> str:
    if resource == "keys":
        return f"{amount} key" if amount == 1 else f"{amount} keys"
    return f"{amount} {resource}"


def effect_words(effect: Effect) -> str:
    """One ability effect in plain words."""
    if isinstance(effect, Gain):
        text = f"gain {_amount(effect.amount, effect.gain)}"
        if effect.count is not None:
            text += f" {count_words(effect.count)}"
        return text + (" in a neighbour's tableau" if effect.from_ == "neighbour" else "")
    if isinstance(effect, OpponentsGain):
        return f"each opponent gains {_amount(effect.amount, effect.opponents_gain)}"
    if isinstance(effect, PurseGold):
        return f"put up to {effect.purse_gold} gold on each of your purses"
    if isinstance(effect, FillPurses):
        return f"fill {effect.fill_purses} purse" + ("s" if effect.fill_purses > 1 else "")
    if isinstance(effect, DiscardFromRow):
        # the referee pays the discarded card's printed cost in the reward
        return (f"discard a card from the {effect.discard_from_row} row and gain its cost "
                f"in {effect.reward}")
    assert isinstance(effect, Choose)
    options = [" and ".join(effect_words(e) for e in option) or "nothing"
               for option in effect.choose]
    return "choose one: " + "; or ".join(options)


def ability_text(card: Card) -> str:
    """The card's ability in plain words ("" without one)."""
    return "; then ".join(effect_words(e) for e in card.ability)
