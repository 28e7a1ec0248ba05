"""Putting leftover gold on purses at the end: the exact allocator and its exhaustive reference.

Gold on purse card i scores its rate r_i per gold, and every `all_purse_gold` scroll adds its
points b per gold on any purse, so one more gold on purse i is worth r_i + B (B the sum of those
scrolls' points). The objective is linear with one shared budget and a capacity per purse, so
filling purses in decreasing order of r_i + B, only while that is positive, is optimal (an
exchange argument: moving a gold from a lower to a higher paying purse never loses). Among
allocations with the most points it keeps the most gold in hand, which is the tie-break.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product


@dataclass(frozen=True)
class Purse:
    """A purse to fill: its card, points per gold, and room left."""
    card: str
    rate: int  # points per gold on this card
    room: int  # capacity minus gold already there


@dataclass(frozen=True)
class Allocation:
    """Where leftover gold goes: gold added per purse, the points it scores, gold left in hand."""
    added: dict[str, int]  # card id -> gold put on it now
    points: int  # points the added gold scores (purse rates and all-purse bonus)
    gold_left: int


def _value(purses: Sequence[Purse], bonus: int, added: Sequence[int]) -> int:
    return sum((p.rate + bonus) * a for p, a in zip(purses, added, strict=True))


def allocate(purses: Sequence[Purse], bonus: int, gold: int) -> Allocation:
    """The most points for `gold` leftover gold; among those, the most gold kept."""
    order = sorted(range(len(purses)), key=lambda i: -(purses[i].rate + bonus))
    added = [0] * len(purses)
    left = gold
    for i in order:
        if purses[i].rate + bonus <= 0 or left == 0:
            break
        added[i] = min(purses[i].room, left)
        left -= added[i]
    return Allocation({p.card: a for p, a in zip(purses, added, strict=True) if a},
                      _value(purses, bonus, added), left)


def allocate_exhaustive(purses: Sequence[Purse], bonus: int, gold: int) -> Allocation:
    """Every way to put gold on the purses; the reference the tests hold `allocate` to."""
    best: tuple[int, int] | None = None
    best_added: tuple[int, ...] = ()
    for added in product(*(range(p.room + 1) for p in purses)):
        spent = sum(added)
        if spent > gold:
            continue
        key = (_value(purses, bonus, added), gold - spent)
        if best is None or key > best:
            best, best_added = key, added
    assert best is not None
    return Allocation({p.card: a for p, a in zip(purses, best_added, strict=True) if a},
                      best[0], best[1])
