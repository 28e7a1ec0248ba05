"""A card in plain words, the one way every edge prints it (`combo cards`, `combo show`, `combo
score`, the table page): its scroll (`describe`: "2 points per card costing 0") and its ability,
effect by effect, as a player would read the card ("gain 2 gold per castle banner"), never the
card file's notation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from models.combo.cards import (
    AllPurseCount,
    BannerCount,
    BannerSetCount,
    Card,
    Choose,
    CostCount,
    Count,
    DiscardFromRow,
    Effect,
    FillPurses,
    Gain,
    IdenticalShieldsCount,
    MissingShieldTypeCount,
    OpponentsGain,
    PositionIf,
    PurseCount,
    PurseGold,
    Score,
    ShieldCount,
    ShieldMissingIf,
    ShieldSetCount,
    ShieldsOnCardCount,
    ShieldTypeCount,
)
from models.combo.deck import Deck
from models.combo.tableau import SIDE, Pos, Slot, cell_name

# a place next to a card, by the step from that card to it
_BESIDE = {(0, -1): "left of", (0, 1): "right of", (-1, 0): "above", (1, 0): "below"}

# where a scoped count looks, measured from the counting card's place
_SCOPES = {"tableau": "", "row": " in its row", "column": " in its column",
           "cross": " in its row and column"}


def _plural(amount: int, one: str, many: str | None = None) -> str:
    return f"{amount} {one if abs(amount) == 1 else (many or one + 's')}"


def _listed(items: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _set(items: list[str]) -> str:
    """A set's items, a repeated one counted ("2 peasantry and craftsmanship")."""
    counts = Counter(items)
    return _listed([f"{n} {item}" if n > 1 else item for item, n in counts.items()])


def _amount(amount: int, resource: str) -> str:
    return _plural(amount, "key") if resource == "keys" else f"{amount} {resource}"


def _counted(form: Count) -> str:
    """What one counted item is ("card costing 0", "gold on all your purses")."""
    if isinstance(form, ShieldCount):
        return f"{form.shield} shield"
    if isinstance(form, ShieldTypeCount):
        return "different shield type"
    if isinstance(form, MissingShieldTypeCount):
        return "shield type missing from your tableau"
    if isinstance(form, ShieldSetCount):
        return f"set of {_set(list(form.shields))} shields"
    if isinstance(form, IdenticalShieldsCount):
        return f"group of {form.size} identical shields"
    if isinstance(form, BannerCount):
        return f"{form.location} banner"
    if isinstance(form, BannerSetCount):
        return f"set of {_set(list(form.locations))} banners"
    if isinstance(form, CostCount):
        return f"card costing {form.cost}" + (" or more" if form.or_more else "")
    if isinstance(form, ShieldsOnCardCount):
        return "card with no shield" if form.count == 0 else \
            f"card with {_plural(form.count, 'shield')}"
    if isinstance(form, PurseCount):
        return f"gold on this purse (it holds {form.capacity})"
    if isinstance(form, AllPurseCount):
        return "gold on all your purses"
    return "key" if form.per == "key" else "card with a discount"


def count_words(form: Count) -> str:
    """What a count counts, in words ("per castle banner in its row"): a scroll's and an
    ability's alike."""
    return f"per {_counted(form)}{_SCOPES[getattr(form, 'scope', 'tableau')]}"


def describe(score: Score | None) -> str:
    """A scroll in plain words ("2 points per card costing 0", "5 points if it lies in the
    centre")."""
    if score is None:
        return "no scroll"
    points = _plural(score.points, "point")
    cond = score.condition
    if isinstance(cond, PositionIf):
        return f"{points} if it lies in the {_listed(list(cond.cells)).replace(' and ', ' or ')}"
    if isinstance(cond, ShieldMissingIf):
        return f"{points} if your tableau has no {cond.shield} shield"
    if cond is not None:
        return f"{points} if your tableau has a face-down card"
    assert score.count is not None
    return f"{points} {count_words(score.count)}"


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


def place_words(cells: Mapping[Pos, Slot], at: Pos, deck: Deck) -> str:
    """Where a card put at `at` goes in a tableau holding `cells`, as a player says it: "to
    start your tableau", "into your top-left" once the 3x3 grid's place is settled, else
    beside a card ("left of Copper Potter"; a face-down card is never named)."""
    if not cells:
        return "to start your tableau"
    places = [*cells, at]
    top, left = min(r for r, _ in places), min(c for _, c in places)
    if max(r for r, _ in places) - top == SIDE - 1 and \
            max(c for _, c in places) - left == SIDE - 1:
        return f"into your {cell_name(at[0] - top, at[1] - left)}"
    for (dr, dc), beside in _BESIDE.items():
        slot = cells.get((at[0] - dr, at[1] - dc))
        if slot is not None:
            name = "your face-down card" if slot.face_down else deck.card(slot.card).name
            return f"{beside} {name}"
    return f"at {at[0]},{at[1]}"  # not next to a card: an illegal place, said as typed


def chosen_words(card: Card, choices: Sequence[int]) -> list[str]:
    """The options a take's choices pick from the card's ability (`choose 2` -> "gain 2
    keys"), as the referee walks them: each `choose` met takes the next choice."""
    picks = list(choices)
    said: list[str] = []

    def walk(effects: Sequence[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Choose) and picks:
                pick = picks.pop(0)
                if not 1 <= pick <= len(effect.choose):
                    said.append(f"option {pick}")
                    continue
                option = effect.choose[pick - 1]
                said.append(" and ".join(effect_words(e) for e in option) or "do nothing")
                walk(option)
    walk(card.ability)
    return said
