"""A page's steps, as one service call (`service.step.play_steps`: loaded under the file's lock,
each step checked by the referee against the revision the page showed, then one atomic save).
The errors a step may meet become (status, message) here, for the routes to show next to the
control."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from models.errors import CastellError, Reason, Refused, SpecError, TimeLimitReached
from service.handle import GameHandle, Kind, Steps
from service.handles import load_handle
from service.step import ReopenUnconfirmed, play_steps
from service.store import StaleRevision
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


# a step waits this long for another writer's (a step takes milliseconds): then 503 "busy".
# A route's step has waited for the lock to be free already, in the event loop
# (`web.step_gate`): this is the net for a lock taken again between that look and here
STEP_LOCK_WAIT_S = 5.0
# the seconds a step gives each festival tower it resolves (the end of a round): more than the
# CLI's default, since a page has no option to give more (proven towers of the whole bag at
# the highest ranks take well under a second; this is the net, not the usual)
FESTIVAL_TIME_LIMIT_S = 60.0


def play(path: Path, kind: Kind, steps: Steps, revision: int, confirm: bool = False,
         as_player: str | None = None, reopen: bool = False,
         draw: Callable[[GameHandle], T] | None = None) -> tuple[GameHandle, T | None]:
    """Record `steps` (texts or words in the game's notation, `undo` among them) on the game
    in `path` as one write, unless it moved on from `revision`: the one service call
    (`service.step.play_steps`: load, play, save), its errors worded. The game as saved, and
    `draw`'s page of it (drawn before the write). With `as_player`, every step must be that
    player's (or the table's)."""
    try:
        return play_steps(path, kind, steps, revision, wait=STEP_LOCK_WAIT_S, confirm=confirm,
                          as_player=as_player, reopen=reopen,
                          time_limit=FESTIVAL_TIME_LIMIT_S, before_save=draw)
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
        raise StepError(503, f"{error}: the page gives each tower {FESTIVAL_TIME_LIMIT_S:g} s; "
                        f"at the server, castell play {path.name} end --time-limit 600 gives "
                        "more") from None
    except CastellError as error:  # a lock another writer held too long, an unreadable file
        raise StepError(503, str(error)) from None


def load(path: Path, kind: Kind) -> GameHandle:
    """The game as it stands (read without the lock: the write is atomic)."""
    try:
        return load_handle(path, kind)
    except CastellError as error:
        raise StepError(400, said(error)) from None
