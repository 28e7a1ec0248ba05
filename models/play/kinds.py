"""The kinds of game in play: each kind's name, title and adapter (a `GameInPlay` over its
referee), loaded from its own package when first asked for."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

from models.errors import SpecError


@dataclass(frozen=True)
class GameKind:
    """A kind of game: its name (`castell`), its title and its adapter (`module:Class`)."""

    name: str
    title: str
    adapter_path: str

    @property
    def adapter(self) -> Any:
        """The adapter class (`from_text(text, ...)` makes a game in play of a file's text)."""
        module, _, name = self.adapter_path.partition(":")
        return getattr(import_module(module), name)


KINDS: dict[str, GameKind] = {
    "castell": GameKind("castell", "Castell", "models.game.play:CastellInPlay"),
    "combo": GameKind("combo", "Castle Combo", "models.combo.play:ComboInPlay"),
}


def kind_named(name: str) -> GameKind:
    try:
        return KINDS[name]
    except KeyError:
        raise SpecError(f"no game called '{name}' (games: {', '.join(KINDS)})") from None
