"""The rule variant: every number and every "[reading]" of the rules page is a field here."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from typing import Literal

from models.errors import SpecError

Decrease = Literal["any", "one-fewer"]
BaseScope = Literal["per-use", "bottom-only"]
PrizeTies = Literal["share", "turn-order"]
TokenTies = Literal["nobody", "turn-order"]


@dataclass(frozen=True)
class Rules:
    """A rule variant.

    decrease: R4 reading. "any" = the level above holds fewer castellers (any decrease, the
        rules page's reading); "one-fewer" = exactly one fewer (some reviews' reading).
    base_scope: Base reading. "per-use" = each Base use frees one level from the width limit
        (the rules page's reading); "bottom-only" = only the bottom level may be freed, however
        high the rank (the rule sheet's "one level ... all levels above obey the width limit").

    Game readings the rules page does not settle (ours, each a switch):
    prize_ties: "share" = players tied on tower score all take the prize of their rank (the next
        rank is skipped); "turn-order" = the tie goes to the earlier player in turn order.
    size_token_ties: "nobody" = a size token tied on casteller count goes to no one;
        "turn-order" = to the earlier player in turn order.
    claim_collects_own_token: the special action token spent on a claim is placed in the row
        first, so the claimer collects it back with the others (True), or not (False).
    free_special_is_extra: the special action granted by training a special tile is on top of
        the turn's own special action (True), or replaces it (False).
    token_after_move: the token of a special move goes to the row of the region the pawn moves
        to, where it stands once the action is complete (True), or the one it leaves (False).
    max_per_size: the most castellers of one size any pool or tower may hold: the bag's count
        per size (150 castellers in the box, the count per size unpublished; 15 of each is the
        default board's reading). Every notation is bounded by it before anything is allocated.
    """

    name: str = "standard"
    decrease: Decrease = "any"
    base_scope: BaseScope = "per-use"
    width_limit: int = 3
    min_size: int = 1
    max_size: int = 10
    festival_min_levels: int = 4
    prize_ties: PrizeTies = "share"
    size_token_ties: TokenTies = "nobody"
    claim_collects_own_token: bool = True
    free_special_is_extra: bool = True
    token_after_move: bool = True
    max_per_size: int = 15

    def __post_init__(self) -> None:
        if not 1 <= self.min_size <= self.max_size:
            raise SpecError(f"rules {self.name}: size range {self.min_size}..{self.max_size}")
        if self.width_limit < 1 or self.festival_min_levels < 1:
            raise SpecError(f"rules {self.name}: width limit and festival minimum must be >= 1")
        if self.max_per_size < 1:
            raise SpecError(f"rules {self.name}: the bag holds at least one casteller per size")

    @property
    def sizes(self) -> range:
        return range(self.min_size, self.max_size + 1)

    @property
    def max_castellers(self) -> int:
        """The whole bag: no pool, tower, level or tile counts more castellers than this."""
        return self.max_per_size * len(self.sizes)

    def with_name(self, name: str) -> Rules:
        return replace(self, name=name)


STANDARD = Rules()
VARIANTS: dict[str, Rules] = {
    "standard": STANDARD,
    "one-fewer": Rules(name="one-fewer", decrease="one-fewer"),
    "bottom-base": Rules(name="bottom-base", base_scope="bottom-only"),
}


def rules_named(name: str) -> Rules:
    """The named variant; an unknown name is a SpecError with the closest names suggested."""
    key = name.strip().lower()
    if key in VARIANTS:
        return VARIANTS[key]
    close = difflib.get_close_matches(key, list(VARIANTS), n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    known = ", ".join(VARIANTS)
    raise SpecError(f"unknown rules variant '{name}' (known: {known}){hint}", token=name)
