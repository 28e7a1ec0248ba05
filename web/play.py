"""A page's steps, as one service call (`service.step.play_steps`: loaded under the file's lock,
each step checked by the referee against the revision the page showed, then one atomic save).
The errors a step may meet become (status, message) here, for the routes to show next to the
control."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from fastapi import HTTPException

from models.errors import CastellError, Reason, Refused, SpecError, TimeLimitReached
from service.handle import GameHandle, Kind, Steps
from service.handles import load_handle
from service.step import ReopenUnconfirmed, play_steps
from service.store import StaleRevision
from web.solves import SolvePool
from web.wording import said

T = TypeVar("T")
STALE = "the game changed: reload"
# Refused (a rule says no) is 422: the request was well formed, the game does not allow it;
# bad input (a SpecError: unknown region, a typo) is 400; a stale revision 409
REFUSED_STATUS = 422
REOPEN = "the game is over: undoing its last step reopens it and takes its final score back; " \
    "confirm to do it"
# another seat's step (`Reason.WRONG_PLAYER`), or a step from a page that only watches
FORBIDDEN = 403


class StepError(Exception):
    def __init__(self, status: int, message: str, code: str | None = None):
        super().__init__(message)
        self.status, self.message, self.code = status, message, code


def play(path: Path, kind: Kind, steps: Steps, revision: int, *, wait: float,
         solves: SolvePool, time_limit: float, confirm: bool = False,
         as_player: str | None = None, reopen: bool = False,
         draw: Callable[[GameHandle, str], T] | None = None) -> tuple[GameHandle, T | None]:
    """Record `steps` (texts or words in the game's notation, `undo` among them) on the game
    in `path` as one write, unless it moved on from `revision`: the one service call
    (`service.step.play_steps`: load, play, save), its errors worded. The game as saved, and
    what `draw` made of it and of the text it is saved as (before the write). With
    `as_player`, every step must be that player's (or the table's). `wait`: the seconds left
    of the step's wait for the game's lock (`web.step_gate`); the festival towers a step
    solves (the end of a round) each take a place in the server's pool, `solves`, and at
    most `time_limit` seconds."""
    try:
        return play_steps(path, kind, steps, revision, wait=wait, confirm=confirm,
                          as_player=as_player, reopen=reopen, time_limit=time_limit,
                          solve_in=solves.run, before_save=draw)
    except ReopenUnconfirmed:
        raise StepError(REFUSED_STATUS, REOPEN, "reopen_unconfirmed") from None
    except StaleRevision:
        raise StepError(409, STALE, "stale_revision") from None
    except Refused as error:
        status = FORBIDDEN if error.code is Reason.WRONG_PLAYER else REFUSED_STATUS
        raise StepError(status, str(error), error.code.value) from None
    except SpecError as error:
        raise StepError(400, said(error)) from None
    except TimeLimitReached as error:  # nothing recorded: the page words how to give more
        raise StepError(503, f"{error}: the page gives each tower {time_limit:g} s; "
                        f"at the server, castell play {path.name} end --time-limit 600 gives "
                        "more") from None
    except HTTPException as error:  # the pool full (or stopping): nothing recorded
        raise StepError(error.status_code, str(error.detail)) from None
    except CastellError as error:  # a lock another writer held too long, an unreadable file
        raise StepError(503, str(error)) from None


def load(path: Path, kind: Kind) -> GameHandle:
    """The game as it stands (read without the lock: the write is atomic)."""
    try:
        return load_handle(path, kind)
    except CastellError as error:
        raise StepError(400, said(error)) from None
