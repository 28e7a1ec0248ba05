"""The card file (TOML, `[[card]]` tables), the shipped invented sample deck, and deck statistics.

Each card is validated on its own so that an error names the card id and the field; a deck then
checks what concerns several cards (unique ids).
"""

from __future__ import annotations

import functools
import tomllib
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from models.combo.cards import (
    IF_FORMS,
    LOCATIONS,
    PER_FORMS,
    SHIELDS,
    Card,
    Choose,
    DiscardFromRow,
    FillPurses,
    Gain,
    Location,
    OpponentsGain,
    PurseGold,
    walk,
)
from models.errors import SpecError
from models.files import parse_toml, read_text
from models.names import typed_match

MAX_FILE_BYTES = 1_000_000
MAX_CARDS = 1000
SAMPLE = "sample"


def sample_path() -> Path:
    """The path of the invented sample deck shipped with the package."""
    return Path(str(resources.files("models.combo") / "data" / "sample.toml"))


def _where(loc: tuple[int | str, ...]) -> str:
    """A pydantic error location as the file writes it: the nesting of `score`/`per` hidden."""
    parts: list[str] = []
    skip = False
    for part in loc:
        if skip:
            skip = False
            continue
        if part in ("count", "condition"):
            skip = True  # the next part is the form's tag, not a file key
            continue
        parts.append(str(part))
    return ".".join(parts)


def card_from_dict(raw: Any, source: str, index: int) -> Card:
    """One card from a card file's table, checked, with errors naming the card."""
    label = f"card {raw.get('id')!r}" if isinstance(raw, dict) and "id" in raw \
        else f"card #{index + 1}"
    try:
        return Card.model_validate(raw)
    except ValidationError as error:
        problems = []
        for problem in error.errors():
            where = _where(problem["loc"])
            message = problem["msg"].removeprefix("Value error, ")
            shown = "" if problem["type"] == "missing" else f" (got {problem['input']!r})"
            problems.append(f"{where}: {message}{shown}" if where else message)
        raise SpecError(f"{source}: {label}: {'; '.join(problems)}") from None


@dataclass(frozen=True)
class Deck:
    """The cards of a card file, by id, in file order."""

    cards: tuple[Card, ...]
    source: str = SAMPLE
    warnings: tuple[str, ...] = ()

    @cached_property
    def by_id(self) -> dict[str, Card]:
        """The cards by id."""
        return {c.id: c for c in self.cards}

    def card(self, card_id: str) -> Card:
        """The card of an id (a SpecError with a did-you-mean if unknown)."""
        try:
            return self.by_id[card_id]
        except KeyError:
            raise SpecError(f"no card '{card_id}' in {self.source}") from None

    def spelt(self, typed: str) -> str:
        """The card id `typed` stands for as typed at the table (another case, spaces around
        it: `v12` is V12), or `typed` itself when it names no card or several."""
        if typed in self.by_id:
            return typed
        found = typed_match([c.id for c in self.cards], typed)
        return typed if found is None else self.cards[found].id

    def of(self, location: Location) -> list[Card]:
        """The cards of one location (Castle or Village)."""
        return [c for c in self.cards if c.location == location]


def deck_from_dict(data: Any, source: str) -> Deck:
    """A deck from a card file's parsed TOML, checked."""
    if not isinstance(data, dict):
        raise SpecError(f"{source}: expected [[card]] tables")
    unknown = sorted(set(data) - {"card"})
    if unknown:
        raise SpecError(f"{source}: unknown top-level key '{unknown[0]}' (only [[card]] tables)")
    raw_cards = data.get("card", [])
    if not isinstance(raw_cards, list) or not raw_cards:
        raise SpecError(f"{source}: no [[card]] tables")
    if len(raw_cards) > MAX_CARDS:
        raise SpecError(f"{source}: {len(raw_cards)} cards; at most {MAX_CARDS}")
    cards = tuple(card_from_dict(raw, source, i) for i, raw in enumerate(raw_cards))
    seen: set[str] = set()
    for card in cards:
        if card.id in seen:
            raise SpecError(f"{source}: card '{card.id}' appears twice")
        seen.add(card.id)
    warnings = tuple(f"card '{c.id}': cost {c.cost} is above 7" for c in cards if c.cost > 7)
    return Deck(cards, source, warnings)


def load_deck(path: Path | str | None = None) -> Deck:
    """The card file at `path`, or the shipped sample deck (`None` or 'sample')."""
    if path is None or str(path) == SAMPLE:
        return _sample()
    target = Path(path)
    return deck_from_dict(parse_toml(read_text(target, MAX_FILE_BYTES), str(target)),
                          str(target))


@functools.lru_cache(maxsize=1)  # the one shipped deck, read once
def _sample() -> Deck:
    data = tomllib.loads(sample_path().read_text(encoding="utf-8"))
    return deck_from_dict(data, SAMPLE)


# --- statistics ------------------------------------------------------------------------------

# The real game's public statistics (rules page section 5): what the sample deck must match.
PUBLISHED: dict[str, Any] = {
    "cards": {"castle": 39, "village": 39},
    "shields": {
        "castle": {"nobility": 14, "faith": 12, "scholarship": 11, "military": 8,
                   "craftsmanship": 7, "peasantry": 0},
        "village": {"nobility": 1, "faith": 5, "scholarship": 6, "military": 10,
                    "craftsmanship": 11, "peasantry": 20},
    },
    "shields_per_card": {"0": 0, "1": 51, "2": 27},
    "costs": {
        "castle": {"0": 1, "1": 0, "2": 1, "3": 6, "4": 10, "5": 10, "6": 6, "7": 5},
        "village": {"0": 11, "1": 0, "2": 11, "3": 4, "4": 6, "5": 5, "6": 1, "7": 1},
    },
    "messenger": {"castle": 19, "village": 19},
    "purses": {"count": 11, "capacities": [3, 4, 4, 4, 5, 5, 5, 6, 7, 8, 9], "rates": [2]},
}


def deck_stats(deck: Deck) -> dict[str, Any]:
    """The same statistics as `PUBLISHED`, counted in `deck`."""
    def per_location(count: Any) -> dict[str, Any]:
        return {loc: count(deck.of(loc)) for loc in LOCATIONS}

    costs = per_location(lambda cards: {
        str(c): sum(1 for card in cards if card.cost == c)
        for c in range(max([7, *(card.cost for card in cards)]) + 1)})
    purses = [c for c in deck.cards if c.capacity]
    per_card = Counter(len(c.shields) for c in deck.cards)
    return {
        "cards": per_location(len),
        "shields": per_location(lambda cards: {
            s: sum(card.shields.count(s) for card in cards) for s in SHIELDS}),
        "shields_per_card": {str(n): per_card.get(n, 0) for n in range(3)},
        "costs": costs,
        "messenger": per_location(lambda cards: sum(1 for c in cards if c.has_messenger)),
        "purses": {"count": len(purses), "capacities": sorted(c.capacity for c in purses),
                   "rates": sorted({c.purse_rate for c in purses})},
    }


def forms_used(deck: Deck) -> dict[str, set[str]]:
    """Which scoring forms (`per`/`if`) and ability forms the deck's cards use."""
    scores: set[str] = set()
    abilities: set[str] = set()
    for card in deck.cards:
        if card.score is not None:
            if card.score.count is not None:
                scores.add(f"per:{card.score.count.per}")
            if card.score.condition is not None:
                scores.add(f"if:{card.score.condition.if_}")
        for effect in walk(card.ability):
            if isinstance(effect, Gain):
                kind = "gain" if effect.count is None else \
                    ("gain_per_neighbour" if effect.from_ == "neighbour" else "gain_per")
                abilities.add(f"{kind}:{effect.gain}")
            elif isinstance(effect, OpponentsGain):
                abilities.add(f"opponents_gain:{effect.opponents_gain}")
            elif isinstance(effect, PurseGold):
                abilities.add("purse_gold")
            elif isinstance(effect, FillPurses):
                abilities.add("fill_purses")
            elif isinstance(effect, DiscardFromRow):
                abilities.add(f"discard_from_row:{effect.reward}")
            elif isinstance(effect, Choose):
                abilities.add("choose")
    return {"scores": scores, "abilities": abilities}


ALL_SCORE_FORMS = frozenset({f"per:{p}" for p in PER_FORMS} | {f"if:{i}" for i in IF_FORMS})
ALL_ABILITY_FORMS = frozenset({
    "gain:gold", "gain:keys", "gain_per:gold", "gain_per:keys", "gain_per_neighbour:gold",
    "opponents_gain:gold", "opponents_gain:keys", "purse_gold", "fill_purses",
    "discard_from_row:gold", "discard_from_row:keys", "choose"})
