"""Players' names: as a player at the table types them (another case, or spaces around the
name), and the names no player can take (a reserved role, a control or bidi character, two
names only case apart), checked here for both games' setups, deal files and state files."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Sequence

from models.errors import SpecError


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


# roles a seat can hold, never a player's name: the web's seat layer tells the scorekeeper by
# this word, so a player called so would act for everyone (compared case-folded)
RESERVED = frozenset({"scorekeeper"})

# characters that change how the text around them is shown without showing themselves: the
# bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), the direction marks
# and the zero-width space and no-break space; two names that differ only by one look alike
_INVISIBLE = frozenset("\u061c\u200b\u200e\u200f\ufeff"
                       + "".join(map(chr, range(0x202A, 0x202F)))
                       + "".join(map(chr, range(0x2066, 0x206A))))


def folded(name: str) -> str:
    """A name as a player at the table may type it: case and spaces around it ignored (the
    form `typed_match` compares)."""
    return name.strip().casefold()


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name (a control or bidi character, a reserved role),
    or None when it can."""
    for char in name:
        if unicodedata.category(char) == "Cc":
            return f"a player name holds no control character (U+{ord(char):04X})"
        if char in _INVISIBLE:
            return f"a player name holds no direction or invisible character (U+{ord(char):04X})"
    if folded(name) in RESERVED:
        return f"'{name.strip()}' is a role, not a player's name"
    return None


def names_problem(names: Sequence[str]) -> str | None:
    """Why `names` cannot be a game's players: one name's problem (`name_problem`), or two
    names that differ only in case or spaces around them; None when they can."""
    seen: dict[str, str] = {}
    for name in names:
        problem = name_problem(name)
        if problem:
            return problem
        if folded(name) in seen:
            return (f"two players are named '{seen[folded(name)]}' and '{name}' (names that "
                    "differ only in case are one name at the table)")
        seen[folded(name)] = name
    return None


def check_names(names: Sequence[str]) -> None:
    """Refuse `names` as a game's players (a SpecError about the `players` field)."""
    problem = names_problem(names)
    if problem:
        raise SpecError(problem, field="players")
