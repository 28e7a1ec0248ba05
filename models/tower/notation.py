"""Shared pieces of the text notations: sizes and the `9x3` repeat shorthand."""

from __future__ import annotations

import re
from collections import Counter
from typing import Annotated

from annotated_types import Interval

from models.errors import NotationError
from models.tower.rules import STANDARD, Rules

# ASCII digits only: int() would also take '1_0', '+3', ' 3' and Arabic-Indic or fullwidth
# digits (the text is bounded by MAX_TEXT, so int() stays cheap)
_WHOLE = re.compile(r"-?[0-9]+")


# The longest notation text read: the whole bag written out is under 500 characters.
MAX_TEXT = 5_000


def bounded(text: str, what: str) -> str:
    """`text` unless it is longer than any notation needs (refused before it is split)."""
    if len(text) > MAX_TEXT:
        raise NotationError(f"the {what} text is {len(text)} characters long; at most "
                            f"{MAX_TEXT}",
                            token=text[:40])
    return text


def whole_number(text: str) -> int | None:
    """`text` as an int when it is plain ASCII digits (an optional '-'), else None."""
    if not _WHOLE.fullmatch(text):
        return None
    try:
        return int(text)
    except ValueError:  # over Python's 4300-digit limit
        return None


def parse_size(token: str, rules: Rules = STANDARD, *, where: str = "") -> int:
    """One casteller size, an integer in the rules' size range."""
    text = token.strip()
    context = f" in {where}" if where else ""
    size = whole_number(text)
    if size is None:
        raise NotationError(f"'{text}'{context} is not a casteller size", token=text)
    if not rules.min_size <= size <= rules.max_size:
        raise NotationError(
            f"size {size}{context} is outside {rules.min_size}..{rules.max_size}", token=text
        )
    return size


def parse_sizes(text: str, rules: Rules = STANDARD, *, what: str) -> list[int]:
    """A comma list of sizes where `9x3` stands for three 9s."""
    bounded(text, what)
    sizes: list[int] = []
    held: Counter[int] = Counter()
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            raise NotationError(f"empty item in {what} '{text}'", token=text)
        size_text, times, repeat = item.lower().partition("x")
        size = parse_size(size_text, rules, where=f"{what} '{text}'")
        count = 1
        if times:
            parsed = whole_number(repeat.strip())
            if parsed is None:
                raise NotationError(
                    f"repeat '{item}' in {what} '{text}' must be SIZExCOUNT, e.g. 9x3", token=item
                )
            count = parsed
            if count < 1:
                raise NotationError(f"repeat count in '{item}' must be >= 1", token=item)
        held[size] += count
        if held[size] > rules.max_per_size:  # checked before the list is built
            raise NotationError(
                f"{what} '{_short(text)}' holds {held[size]} castellers of size {size}; the bag "
                f"has {rules.max_per_size} of each size", token=item)
        sizes.extend([size] * count)
    return sizes


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


# A casteller size in a file field (board, state, actions): the standard rules' size range.
# (annotated_types, which pydantic reads as it reads Field(ge=, le=): the tower rules load
# without pydantic, which only the file loaders need.)
Size = Annotated[int, Interval(ge=STANDARD.min_size, le=STANDARD.max_size)]
