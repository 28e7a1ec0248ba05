"""Castle Combo actions and their text, as a player types them (and the history records them).

    key move | key renew
    buy V12 at 0,1 [neighbour Ben] [choose 2] [discard C07]
    flip C03 at 1,1
    reveal V12 C03

`at ROW,COLUMN` is relative to the player's first card (rows down, columns right; the first
card may leave it out). `choose N` picks option N (from 1) of the next `choose` ability, in the
order the card's effects run; `discard ID` names the row card a `discard_from_row` removes;
`neighbour NAME` the neighbour whose tableau a `from = "neighbour"` effect counts.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Literal

from models.combo.tableau import Pos
from models.errors import NotationError

MAX_ACTION_CHARS = 300


@dataclass(frozen=True)
class Key:
    kind: Literal["move", "renew"]

    def __str__(self) -> str:
        return f"key {self.kind}"


@dataclass(frozen=True)
class Take:
    card: str
    at: Pos | None
    face_down: bool = False
    neighbour: str | None = None
    choices: tuple[int, ...] = ()
    discards: tuple[str, ...] = ()

    def __str__(self) -> str:
        words = ["flip" if self.face_down else "buy", self.card]
        if self.at is not None:
            words.append(f"at {self.at[0]},{self.at[1]}")
        if self.neighbour is not None:
            words.append(f"neighbour {shlex.quote(self.neighbour)}")
        words += [f"choose {n}" for n in self.choices]
        words += [f"discard {d}" for d in self.discards]
        return " ".join(words)


@dataclass(frozen=True)
class Reveal:
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "reveal " + " ".join(self.cards)


Action = Key | Take | Reveal
_ID = re.compile(r"^[A-Za-z0-9_.]{1,16}$")
_AT = re.compile(r"^(-?\d{1,2}),(-?\d{1,2})$")


def _card(token: str) -> str:
    if not _ID.match(token):
        raise NotationError(f"'{token}' is not a card id", token=token)
    return token


VERBS = ("key", "buy", "flip", "reveal", "undo")


def group_words(args: list[str]) -> list[str]:
    """Command-line arguments -> action texts: a new action starts at each verb, so both
    `"reveal V12 C03"` and `reveal V12 C03` (three arguments) are one action."""
    actions: list[str] = []
    for arg in args:
        first = arg.split(maxsplit=1)[0].lower() if arg.strip() else ""
        if first in VERBS or not actions:
            actions.append(arg)
        else:
            actions[-1] += " " + (shlex.quote(arg) if " " in arg.strip() else arg)
    return actions


def parse_action(text: str) -> Action:
    if len(text) > MAX_ACTION_CHARS:
        raise NotationError(f"an action is at most {MAX_ACTION_CHARS} characters")
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise NotationError(f"cannot read action '{text}': {error}") from None
    if not words:
        raise NotationError("empty action")
    verb = words[0].lower()
    rest = words[1:]
    if verb == "key":
        if len(rest) != 1 or rest[0].lower() not in ("move", "renew"):
            raise NotationError(f"'{text}': write 'key move' or 'key renew'")
        return Key("move" if rest[0].lower() == "move" else "renew")
    if verb == "reveal":
        if not rest or len(rest) > 6:
            raise NotationError(f"'{text}': write 'reveal ID [ID...]' (1-6 cards)")
        return Reveal(tuple(_card(w) for w in rest))
    if verb in ("buy", "flip"):
        return _take(text, verb == "flip", rest)
    raise NotationError(f"unknown action '{words[0]}' (key, buy, flip, reveal, undo)",
                        token=words[0])


def _take(text: str, face_down: bool, words: list[str]) -> Take:
    if not words:
        raise NotationError(f"'{text}': which card?")
    card = _card(words[0])
    at: Pos | None = None
    neighbour: str | None = None
    choices: list[int] = []
    discards: list[str] = []
    i = 1
    while i < len(words):
        word = words[i].lower()
        if i + 1 >= len(words):
            raise NotationError(f"'{text}': '{words[i]}' needs a value")
        value = words[i + 1]
        if word == "at" and at is None:
            match = _AT.match(value)
            if not match:
                raise NotationError(f"'{text}': 'at' takes ROW,COLUMN such as 0,1 or -1,0",
                                    token=value)
            at = (int(match[1]), int(match[2]))
        elif word == "neighbour" and neighbour is None and not face_down:
            neighbour = value
        elif word == "choose" and not face_down:
            if not value.isdigit() or not 1 <= int(value) <= 9:
                raise NotationError(f"'{text}': 'choose' takes an option number 1-9",
                                    token=value)
            choices.append(int(value))
        elif word == "discard" and not face_down:
            discards.append(_card(value))
        else:
            raise NotationError(f"'{text}': unexpected '{words[i]}'", token=words[i])
        i += 2
    if len(choices) > 8 or len(discards) > 8:
        raise NotationError(f"'{text}': too many choices")
    return Take(card, at, face_down, neighbour, tuple(choices), tuple(discards))
