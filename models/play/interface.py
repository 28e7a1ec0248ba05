"""The interface of a game in play (`GameInPlay`): its players, the seat to move, the steps a
seat may take as that seat sees them, a step applied, whether the game is over, the scores,
what a seat sees (the hidden parts removed), a copy, and its file form. Seats are indices
into `players`, in the game's own order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, TypeVar

Seat = int
G = TypeVar("G", bound="GameInPlay")


class GameInPlay(Protocol):
    """A position of one game, behind its referee. Every method leaves the game as it is:
    `apply` and `view` give new ones."""

    kind: ClassVar[str]

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, seat by seat."""
        ...

    def to_move(self) -> Seat | None:
        """The seat to move (None: the game is over)."""
        ...

    def legal_steps(self, seat: Seat) -> Sequence[Any]:
        """The steps `seat` may take now, from what that seat sees (none: not its turn)."""
        ...

    def apply(self: G, step: Any) -> G:
        """The game after the player to move takes `step` (the referee refuses a wrong one with
        its own `Refused` error)."""
        ...

    @property
    def game_over(self) -> bool: ...

    def scores(self) -> tuple[int, ...]:
        """Each seat's score now (the final scores once the game is over)."""
        ...

    def view(self: G, seat: Seat) -> G:
        """What `seat` sees: the game with the parts hidden from that seat removed (no bot
        nor advice may read them)."""
        ...

    def copy(self: G) -> G: ...

    def save(self) -> str:
        """The game's file text (its JSON form)."""
        ...
