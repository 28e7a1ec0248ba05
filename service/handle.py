"""What every game handle is, whichever game (`GameHandle`): the edges ask a handle through
this protocol, never by the game's type, so that a page, a route or a command that serves both
games is written once (`service.handles` gives the handle of each kind of game file).

Each game's own use cases stay on its handle and in its package (`service.castell`,
`service.combo`); this protocol is only what both share: loading and editing a file, the
revision, whether the game is over, the legal steps and the history in the game's notation,
steps recorded by their text, the default advice for the player to move, and the game behind
its referee as both games' one interface (`in_play`: `models.play.GameInPlay`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any, ClassVar, Literal, Protocol, TypeVar

from models.play import GameInPlay

Kind = Literal["castell", "combo"]
KINDS: tuple[Kind, ...] = ("castell", "combo")
Steps = Sequence[str | Sequence[str]]
T = TypeVar("T")


class SolveIn(Protocol):
    """Where a step's solves (a festival's towers) run, each given as work and its answer
    returned: a server's bounded pool (`web.solves`); None, the default: right here."""

    def __call__(self, work: Callable[[], T], /) -> T: ...


class GameHandle(Protocol):
    """A game kept in a file, as both games' handles (`service.castell.Game`,
    `service.combo.ComboGame`) answer it."""

    kind: ClassVar[Kind]

    @property
    def revision(self) -> int: ...

    @property
    def game_over(self) -> bool: ...

    def player_names(self) -> list[str]:
        """The players, in seating order."""
        ...

    def to_play(self) -> str | None:
        """The player to move (None: game over, or the table's own step is due first)."""
        ...

    def legal_steps(self) -> list[str]:
        """The steps the game allows now, each in the game's notation."""
        ...

    def history_lines(self, seat: str | None = None) -> list[str]:
        """The steps recorded so far, oldest first, in the game's notation, as `seat` sees
        them (None: a page without a player's seat): a step naming what only its player sees
        (Castle Combo's face-down card) is in words, naming nothing of it, for the others."""
        ...

    def play(self, steps: Steps, *, expect_revision: int, confirm_reveal: bool = False,
             time_limit: float | None = None, as_player: str | None = None,
             solve_in: SolveIn | None = None) -> None:
        """Record `steps` (texts, or the words of one) through the referee, refused when the
        game is not at `expect_revision`, and (`WRONG_PLAYER`) when `as_player` is given and a
        step is another player's (the table's own steps, refills and reveals, are anyone's);
        `save` writes them. The solves a step takes run in `solve_in`, each within
        `time_limit`."""
        ...

    def save(self, expect_revision: int | None = None) -> None: ...

    def saving(self, expect_revision: int | None = None) -> AbstractContextManager[str]:
        """`save`, with the block run while the save goes to disk, the state showing the
        revision it writes; it gives the text it writes."""
        ...

    def in_play(self) -> GameInPlay:
        """The game behind its referee, as both games implement it (`models.play`): players,
        the seat to move, legal steps, apply, scores, a seat's view, copy and save."""
        ...

    def advice(self, time_limit: float) -> Callable[[], Any]:
        """The default advice for the player to move, as work to run (in the background)."""
        ...
