"""The rule variant: every number and every "[reading]" of the rules page is a field here."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, fields, replace
from typing import Any, Literal, get_args

from models.errors import SpecError

Decrease = Literal["any", "one-fewer"]
BaseScope = Literal["per-use", "bottom-only"]
PrizeTies = Literal["share", "turn-order"]
TokenTies = Literal["nobody", "turn-order"]
EarnedRegions = Literal["rewards", "festivals", "size-tokens"]
SpecialMove = Literal["adjacent", "any"]


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
    earned_regions: which regions count as "earned" for region variety. "rewards" = a region
        where you won a festival prize or size token or claimed a local performance tile;
        "festivals" = only festival prizes and size tokens count (tiles do not); "size-tokens"
        = only size tokens, the ones placed on the player board's region spaces.
    special_move: a special action move goes to an "adjacent" region like a normal move, or to
        "any" region (the rule sheet says only "move your pawn to another region").
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
    earned_regions: EarnedRegions = "rewards"
    special_move: SpecialMove = "adjacent"
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
        """The casteller sizes, smallest first."""
        return range(self.min_size, self.max_size + 1)

    @property
    def max_castellers(self) -> int:
        """The whole bag: no pool, tower, level or tile counts more castellers than this."""
        return self.max_per_size * len(self.sizes)

    def with_name(self, name: str) -> Rules:
        """These rules under another name."""
        return replace(self, name=name)

    def settings(self) -> dict[str, Any]:
        """Every switch and its value (what a state file stores)."""
        return {name: getattr(self, name) for name in SWITCHES}

    @property
    def spec(self) -> str:
        """The `--rules` text that gives these rules: a variant name, then the switches that
        differ from it."""
        base = VARIANTS.get(self.name.split(",")[0], STANDARD)
        changed = [f"{name}={_show(getattr(self, name))}" for name in SWITCHES
                   if getattr(self, name) != getattr(base, name)]
        return ",".join([base.name, *changed])


STANDARD = Rules()
VARIANTS: dict[str, Rules] = {
    "standard": STANDARD,
    "one-fewer": Rules(name="one-fewer", decrease="one-fewer"),
    "bottom-base": Rules(name="bottom-base", base_scope="bottom-only"),
}


_BOOLEANS = {"true": True, "yes": True, "on": True, "1": True,
             "false": False, "no": False, "off": False, "0": False}


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def switch_values(name: str) -> tuple[str, ...]:
    """The values a switch takes, as written on the command line."""
    kind = {f.name: f.type for f in fields(Rules)}[name]
    if kind in ("bool", bool):
        return ("true", "false")
    return tuple(get_args(_LITERALS[name]))


_LITERALS: dict[str, Any] = {
    "decrease": Decrease, "base_scope": BaseScope, "prize_ties": PrizeTies,
    "size_token_ties": TokenTies, "earned_regions": EarnedRegions, "special_move": SpecialMove,
}
SWITCHES: tuple[str, ...] = (
    "decrease", "base_scope", "prize_ties", "size_token_ties", "claim_collects_own_token",
    "free_special_is_extra", "token_after_move", "earned_regions", "special_move",
)
"""Every reading that is a switch: `--rules VARIANT,switch=value,...` sets them."""


def _suggest(word: str, known: list[str]) -> str:
    close = difflib.get_close_matches(word, known, n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


def _switch_value(name: str, text: str) -> Any:
    value = text.strip().lower()
    allowed = switch_values(name)
    if value in ("true", "false") or allowed == ("true", "false"):
        if allowed == ("true", "false") and value in _BOOLEANS:
            return _BOOLEANS[value]
    elif value in allowed:
        return value
    raise SpecError(f"rules switch {name}: '{text}' is not one of {', '.join(allowed)}"
                    + _suggest(value, list(allowed)), token=text)


def with_switches(rules: Rules, settings: dict[str, Any]) -> Rules:
    """`rules` with some switches set (values as `switch_values` writes them, or their types)."""
    changes: dict[str, Any] = {}
    for name, value in settings.items():
        key = name.strip().lower().replace("-", "_")
        if key not in SWITCHES:
            raise SpecError(f"unknown rules switch '{name}' (switches: {', '.join(SWITCHES)})"
                            + _suggest(key, list(SWITCHES)), token=name)
        changes[key] = _switch_value(key, _show(value))
    return replace(rules, **changes)


def rules_from_settings(settings: dict[str, Any]) -> Rules:
    """The rules a state file stores (see `Rules.settings`)."""
    rules = with_switches(STANDARD, settings)
    return rules.with_name(rules.spec)


def rules_named(name: str) -> Rules:
    """A variant name, then optionally `switch=value` items: `standard,prize_ties=turn-order`.

    An unknown variant or switch, or a value a switch does not take, is a SpecError with the
    closest names suggested."""
    first, *items = [part.strip() for part in name.split(",")]
    key = first.lower()
    if "=" in key:  # only switches: they change the standard rules
        items, key = [first, *items], "standard"
    if key not in VARIANTS:
        known = ", ".join(VARIANTS)
        raise SpecError(f"unknown rules variant '{first}' (known: {known})"
                        + _suggest(key, list(VARIANTS)), token=first)
    if not items:
        return VARIANTS[key]
    settings: dict[str, str] = {}
    for item in items:
        switch, equals, value = item.partition("=")
        if not equals or not switch.strip():
            raise SpecError(f"rules: '{item}' is not switch=value (e.g. prize_ties=turn-order)",
                            token=item)
        settings[switch] = value
    rules = with_switches(VARIANTS[key], settings)
    return rules.with_name(rules.spec)
