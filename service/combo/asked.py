"""What a Castle Combo use case asks of a game (`AskedComboGame`): the state, its deck and the
players named as typed. The handle (`ComboGame`, in `service.combo.game`) answers it and calls
the use cases that take it (the advice, the arrangement), so those name this protocol, not the
handle, and the two never import each other."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from models.combo import Deck, GameState, PlayerState


class AskedComboGame(Protocol):
    """A Castle Combo game as its use cases ask it (`service.combo.ComboGame` is one)."""

    state: GameState

    @property
    def deck(self) -> Deck:
        """The game's cards."""
        ...

    def player(self, name: str | None = None) -> PlayerState:
        """The player `name` names as typed (the player to move when None)."""
        ...
