"""Castle Combo actions and their notation, as a player types them (and the history records
them).

    key move | key renew
    buy V12 at 0,1 [neighbour Ben] [choose 2] [discard C07]
    flip C03 at 1,1
    reveal V12 C03

`at ROW,COLUMN` is relative to the player's first card (rows down, columns right; the first
card may leave it out). `choose N` picks option N (from 1) of the next `choose` ability, in the
order the card's effects run; `discard ID` names the row card a `discard_from_row` removes;
`neighbour NAME` the neighbour whose tableau a `from = "neighbour"` effect counts.

`parse_action`/`format_action` round-trip, as the Castell notation's do: every legal action
formats to a text that parses back to it. Given the game (`state`), card ids and neighbour names
are read as typed at the table (`v12` is V12, `ben` is Ben; `as_typed`). Text that cannot be read
is a `NotationError`; a well-written action that breaks a rule is the referee's refusal.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from models.combo.tableau import Pos
from models.errors import NotationError
from models.names import typed_match

if TYPE_CHECKING:
    from models.combo.state import GameState

MAX_ACTION_CHARS = 300


@dataclass(frozen=True)
class Key:
    """A key use: move the Messenger to the other row, or renew a row."""
    kind: Literal["move", "renew"]

    def __str__(self) -> str:
        return f"key {self.kind}"


@dataclass(frozen=True)
class Take:
    """Take a card from a row: buy it, or flip it face down, at a place of the tableau."""
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
    """The cards turned up in a recorded game (the deck's order is unknown there)."""
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "reveal " + " ".join(self.cards)


Action = Key | Take | Reveal
_ID = re.compile(r"^[A-Za-z0-9_.]{1,16}$", re.ASCII)
# any whole numbers: coordinates are relative to the first card, which may be written anywhere
# (the action's length bounds them)
_AT = re.compile(r"^(-?[0-9]{1,6}),(-?[0-9]{1,6})$")  # ASCII digits: \d reads fullwidth too


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
            # one word (a name with a space or a quote in it is one, as the shell gave it)
            one = " " in arg.strip() or any(c in arg for c in "'\"\\")
            actions[-1] += " " + (shlex.quote(arg) if one else arg)
    return actions


def _text(text: str | Sequence[str]) -> str:
    """The action's text: a string, or the words a shell gave (each quoted as it needs)."""
    if isinstance(text, str):
        return text
    return " ".join(shlex.quote(word) for word in text)


def parse_action(text: str | Sequence[str], state: GameState | None = None) -> Action:
    """The action `text` names (a string, or the words a shell gave). With the game's `state`,
    card ids and player names as typed at the table are read as the game spells them."""
    action = _parse(_text(text))
    return action if state is None else as_typed(action, state)


def format_action(action: Action) -> str:
    """`action` as players write it (and the history records it); `parse_action` reads it back
    to the same action."""
    return str(action)


def as_typed(action: Action, state: GameState) -> Action:
    """The action with its card ids and neighbour name spelt as the game spells them, when they
    name one card or player as typed (another case, spaces around it); anything else is left as
    written, for the referee to refuse by name."""
    if isinstance(action, Key):
        return action
    deck = state.deck()
    card = deck.spelt
    if isinstance(action, Reveal):
        return Reveal(tuple(card(c) for c in action.cards))
    if action.card in deck.by_id and action.neighbour is None \
            and all(d in deck.by_id for d in action.discards):
        return action  # as the game spells it already (every action the bots play)
    neighbour = action.neighbour
    if neighbour is not None:
        names = [p.name for p in state.now.players]
        found = typed_match(names, neighbour)
        neighbour = neighbour if found is None else names[found]
    return replace(action, card=card(action.card), neighbour=neighbour,
                   discards=tuple(card(d) for d in action.discards))


def _parse(text: str) -> Action:
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
            if value not in "123456789" or len(value) != 1:
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
