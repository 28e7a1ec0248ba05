"""One question's clock: the wall deadline (a safety net) and the deterministic work it may
spend, made once at the edge and passed down to every solve of the question.

`now()` is the one time source of the solvers (monotonic seconds): every deadline in
`planner` is an instant of it. A `Clock` is a time limit started at an instant: its
`deadline`, what is `left()` of it, and the deterministic work (CP-SAT's units) the limit buys
when the caller fixes it. The request's cancel token (`planner.stopping`) holds the request's
clock, the turn planner's stages read theirs (`planner.turns.full.stages.StageRun.clock`), and
the budgets (`planner.turns.budget.PlanBudget`, `planner.tower.budget.TowerBudget`) say how
much work a second buys when the clock leaves the work to them.
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

    @classmethod
    def until(cls, deadline: float, work: float | None = None) -> Clock:
        """A clock from now to `deadline` (a `now()` instant; none left when it has passed)."""
        started = now()
        return cls(seconds=max(0.0, deadline - started), started=started, work=work)

    @property
    def deadline(self) -> float:
        return self.started + self.seconds

    def left(self) -> float:
        """Wall seconds left before the deadline (0 when passed)."""
        return max(0.0, self.deadline - now())

    def elapsed(self) -> float:
        """Wall seconds since the clock started."""
        return now() - self.started

    @property
    def expired(self) -> bool:
        return self.deadline <= now()

    def units(self, per_second: float) -> float:
        """The deterministic work this clock may spend: its own, else what its seconds buy
        at `per_second` units a second."""
        return per_second * self.seconds if self.work is None else self.work

    def sooner(self, other: Clock | None) -> Clock:
        """Whichever of the two clocks ends first (this one on a tie, or without `other`)."""
        return self if other is None or self.deadline <= other.deadline else other
