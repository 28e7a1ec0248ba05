"""A page's step, whichever game, as one use case: the game in its file loaded under the file's
lock, the steps played through its referee against the revision the page showed (and, with
`as_player`, as that player's), then one atomic save. The edge makes one call (`play_steps`)
and words its errors (`web.play`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from models.errors import CastellError
from service.game_identity import remember
from service.handle import GameHandle, Kind, SolveIn, Steps
from service.handles import edit_handle

T = TypeVar("T")


class ReopenUnconfirmed(CastellError):
    """An undo on a finished game, not confirmed: it would reopen the game and take its final
    score back."""


def play_steps(path: Path, kind: Kind, steps: Steps, revision: int, *, wait: float,
               confirm: bool = False, as_player: str | None = None, reopen: bool = False,
               time_limit: float | None = None, solve_in: SolveIn | None = None,
               before_save: Callable[[GameHandle, str], T] | None = None
               ) -> tuple[GameHandle, T | None]:
    """Record `steps` on the game in `path` as one write (waiting at most `wait` seconds for
    another writer), unless it moved on from `revision`; the game as saved (its solves, a
    festival's towers, each within `time_limit`, in `solve_in`: None, here). `before_save`:
    what is made of the game as it will be saved (its revision shown as the save's) and the
    text it is saved as, before the write: a page drawn then is ready when the other screens
    learn of the write. Raises the referee's `Refused` (`StaleRevision` among them),
    `SpecError`, `TimeLimitReached`, `ReopenUnconfirmed`, or a `CastellError` for a lock held
    too long."""
    with edit_handle(path, kind, wait) as game:
        if not reopen and "undo" in steps and game.game_over:
            raise ReopenUnconfirmed("undo reopens the finished game")
        game.play(steps, expect_revision=revision, confirm_reveal=confirm,
                  time_limit=time_limit, as_player=as_player, solve_in=solve_in)
        made = None
        with game.saving(revision) as text:  # the page is drawn while the file goes to disk
            if before_save is not None:
                made = before_save(game, text)
        remember(path, text)  # every page's seats ask the game's identity next
        return game, made
