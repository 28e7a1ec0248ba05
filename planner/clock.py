"""One question's clock: the wall deadline (a safety net) and the deterministic work it may
spend, made once at the edge and passed down to every solve of the question.

Skeleton: `start` and `left` are the public surface every caller may rely on; the budget
plumbing below it grows behind them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


def now() -> float:
    """The one time source of the solvers (monotonic seconds)."""
    return time.monotonic()


@dataclass(frozen=True)
class Clock:
    """A question's time: `seconds` of limit from `started` (`now()`), and the deterministic
    work (solver units) that limit buys, when the caller fixes it (None: the budget's)."""

    seconds: float
    started: float
    work: float | None = None

    @classmethod
    def start(cls, seconds: float, work: float | None = None) -> Clock:
        """A clock of `seconds` from now."""
        return cls(seconds=seconds, started=now(), work=work)

    @property
    def deadline(self) -> float:
        return self.started + self.seconds

    def left(self) -> float:
        """Wall seconds left before the deadline (0 when passed)."""
        return max(0.0, self.deadline - now())
