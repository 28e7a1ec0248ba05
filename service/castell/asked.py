"""What a Castell use case asks of a game (`AskedGame`): the state and its board, the player to
move and the names as typed, the readings, the legal actions. The handle (`Game`, in
`service.castell.game`) answers it and calls the use cases that take it (the plan, the view), so
those name this protocol, not the handle, and the two never import each other."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from models.game import Action, Board, GameState, PlayerState
    from models.tower import Rules


class AskedGame(Protocol):
    """A Castell game as its use cases ask it (`service.castell.Game` is one)."""

    state: GameState
    board: Board

    @property
    def rules(self) -> Rules:
        """The readings the game is played with."""
        ...

    def position(self) -> GameState:
        """The state without its history."""
        ...

    def player(self, name: str | None = None) -> PlayerState:
        """The player `name` names as typed (the player to move when None)."""
        ...

    def require_refilled(self) -> None:
        """Refuse while refill draws are still to be recorded."""
        ...

    def legal_actions(self, player: str | None = None) -> list[Action]:
        """What the player to move may do now."""
        ...

    def what_if(self, rules_text: str | None) -> Rules:
        """The game's readings, or the readings of an explicit what-if."""
        ...
