"""Shared pieces of the text notations: sizes and the `9x3` repeat shorthand."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from models.errors import NotationError
from models.tower.rules import STANDARD, Rules


def parse_size(token: str, rules: Rules = STANDARD, *, where: str = "") -> int:
    """One casteller size, an integer in the rules' size range."""
    text = token.strip()
    context = f" in {where}" if where else ""
    try:
        size = int(text)
    except ValueError:
        raise NotationError(f"'{text}'{context} is not a casteller size", token=text) from None
    if not rules.min_size <= size <= rules.max_size:
        raise NotationError(
            f"size {size}{context} is outside {rules.min_size}..{rules.max_size}", token=text
        )
    return size


def parse_sizes(text: str, rules: Rules = STANDARD, *, what: str) -> list[int]:
    """A comma list of sizes where `9x3` stands for three 9s."""
    sizes: list[int] = []
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            raise NotationError(f"empty item in {what} '{text}'", token=text)
        size_text, times, repeat = item.lower().partition("x")
        size = parse_size(size_text, rules, where=f"{what} '{text}'")
        count = 1
        if times:
            try:
                count = int(repeat)
            except ValueError:
                raise NotationError(
                    f"repeat '{item}' in {what} '{text}' must be SIZExCOUNT, e.g. 9x3", token=item
                ) from None
            if count < 1:
                raise NotationError(f"repeat count in '{item}' must be >= 1", token=item)
        sizes.extend([size] * count)
    return sizes


# A casteller size in a file field (board, state, actions): the standard rules' size range.
Size = Annotated[int, Field(ge=STANDARD.min_size, le=STANDARD.max_size)]
