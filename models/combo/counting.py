"""What a count form (`per = ...`) counts in a tableau: shared by the scrolls and the abilities.

A `View` is what the rules let a card look at: the owner's own tableau (face-up cards with
their positions; face-down cards fill a cell and carry nothing), the owner's keys and the gold on
their purse cards. Row, column and cross are the counting card's own row and column.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from models.combo.cards import (
    SHIELDS,
    AllPurseCount,
    BannerCount,
    BannerSetCount,
    Card,
    CostCount,
    Count,
    DiscountCount,
    IdenticalShieldsCount,
    KeyCount,
    MissingShieldTypeCount,
    PurseCount,
    Scope,
    ShieldCount,
    ShieldSetCount,
    ShieldsOnCardCount,
    ShieldTypeCount,
)
from models.combo.tableau import Pos


@dataclass(frozen=True)
class View:
    """What a scroll counts over: the face-up cards by place, face-down places, keys, purse gold."""
    face_up: Mapping[Pos, Card]
    face_down: frozenset[Pos] = frozenset()
    keys: int = 0
    purse_gold: Mapping[str, int] = field(default_factory=dict)  # card id -> gold on it

    def in_scope(self, scope: Scope, at: Pos | None) -> list[Card]:
        """The face-up cards within a scope (tableau, row, column or cross) of a place."""
        if scope == "tableau" or at is None:
            return list(self.face_up.values())
        row, column = at
        return [card for (r, c), card in self.face_up.items()
                if (scope in ("row", "cross") and r == row)
                or (scope in ("column", "cross") and c == column)]

    @property
    def purse_total(self) -> int:
        """Gold on the purses of the face-up cards."""
        return sum(gold for card_id, gold in self.purse_gold.items()
                   if any(c.id == card_id for c in self.face_up.values()))


def _sets(have: Counter[str], wanted: list[str]) -> int:
    """Complete sets: each listed item needed as often as it is listed."""
    need = Counter(wanted)
    return min(have[item] // n for item, n in need.items())


def count(form: Count, view: View, at: Pos | None = None, me: str | None = None) -> int:
    """How many items `form` counts for the card at `at` (id `me`)."""
    if isinstance(form, KeyCount):
        return view.keys
    if isinstance(form, PurseCount):
        return view.purse_gold.get(me, 0) if me is not None else 0
    if isinstance(form, AllPurseCount):
        return view.purse_total
    if isinstance(form, MissingShieldTypeCount):
        present = {s for card in view.face_up.values() for s in card.shields}
        return len(SHIELDS) - len(present)
    cards = view.in_scope(form.scope, at)
    if isinstance(form, ShieldCount | ShieldTypeCount | ShieldSetCount | IdenticalShieldsCount):
        return _shield_count(form, Counter(s for card in cards for s in card.shields))
    return _card_count(form, cards)


def _shield_count(form: ShieldCount | ShieldTypeCount | ShieldSetCount | IdenticalShieldsCount,
                  shields: Counter[str]) -> int:
    """What a form that counts shields counts among `shields` (each shield in scope)."""
    if isinstance(form, ShieldCount):
        return shields[form.shield]
    if isinstance(form, ShieldTypeCount):
        return len(shields)
    if isinstance(form, ShieldSetCount):
        return _sets(shields, list(form.shields))
    return sum(n // form.size for n in shields.values())


def _card_count(form: Count, cards: list[Card]) -> int:
    """What a form that counts cards counts among `cards` (the face-up cards in scope)."""
    if isinstance(form, BannerCount):
        return sum(1 for card in cards if card.location == form.location)
    if isinstance(form, BannerSetCount):
        return _sets(Counter(card.location for card in cards), list(form.locations))
    if isinstance(form, CostCount):
        return sum(1 for card in cards
                   if card.cost == form.cost or (form.or_more and card.cost >= form.cost))
    if isinstance(form, ShieldsOnCardCount):
        return sum(1 for card in cards if len(card.shields) == form.count)
    if isinstance(form, DiscountCount):
        return sum(1 for card in cards if card.discount)
    raise AssertionError(f"unhandled count form {form!r}")
