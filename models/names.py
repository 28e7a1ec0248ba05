"""Names as a player at the table types them: another case, or spaces around the name."""

from __future__ import annotations

import difflib
from collections.abc import Sequence


def typed_match(names: Sequence[str], typed: str) -> int | None:
    """The index of the name `typed` stands for: the exact name first, else the one name equal
    to it but for case and spaces around it; None when there is none, or several (two names
    only case apart need the exact one)."""
    if typed in names:
        return names.index(typed)
    folded = typed.strip().casefold()
    alike = [i for i, name in enumerate(names) if name.strip().casefold() == folded]
    return alike[0] if len(alike) == 1 else None


def did_you_mean(names: Sequence[str], typed: str) -> str:
    """`; did you mean 'Biel'?` for the one name `typed` is close to (another case ignored),
    else empty: the end of an unknown-name message."""
    folded = [name.casefold() for name in names]
    close = difflib.get_close_matches(typed.strip().casefold(), folded, n=1, cutoff=0.5)
    return f"; did you mean '{names[folded.index(close[0])]}'?" if close else ""
