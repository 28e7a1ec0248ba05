"""Every tuning value of the tower solvers in one frozen object, passed down, never patched.

A `TowerBudget` says how much work a tower question may take: the deterministic units a
second of a CP-SAT time limit buys, the dynamic program's state budgets for the bounds and
for any one program, and the wall clock that guards the bounds on a loaded machine. The
defaults are the product's; the turn planner passes its own (`PlanBudget.tower`), tests and
benchmarks a `dataclasses.replace(TowerBudget(), ...)`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class TowerBudget:
    """The tower solvers' tuning (the measurements behind each value beside it)."""

    # Deterministic work CP-SAT may do per second of the time limit. CP-SAT's deterministic
    # time (its own count of work, the same on every machine) advanced 0.35-0.45 units per
    # CPU second, 0.15-0.4 per wall second on the shared 2-core machine (one worker, plan
    # models, 5 engineers' loads): at 0.15 the deterministic budget, not the clock, ends a
    # solve unless the machine is very busy, so the same question gets the same answer; a
    # clock hit is reported (`stopped_by_clock`). Higher uses more of a time limit, but the
    # clock would decide more.
    deterministic_per_second: float = 0.15
    # the most states (A and B evaluations) one dynamic program keeps: its memo, keys and
    # choices hold a few hundred bytes a state, so any question stays well under 1 GB; past
    # it the program ends as at its time limit (a deterministic end, whatever the machine)
    max_states: int = 1_500_000
    # the dynamic program's budget (A states) for a height bound (`tallest`): <~50 ms
    tallest_states: int = 10_000
    # ... for a festival score bound or a tile's reach (`festival_cap`, `tile_in_reach`):
    # 1-25 ms
    score_states: int = 50_000
    # The bounds' programs run on a budget of states (the same bound on every machine: 1-25
    # ms on the teams of a game), and this wall clock (seconds) as a safety net: a state is
    # far dearer on a team of the whole bag with ranks at 150 (50,000 states took 40 s),
    # where the bound falls back to its rough form. Only what the state budget decides is
    # cached: a bound the clock cut short (a loaded machine can be that slow on an ordinary
    # team) or a stop of the request (a cancel, its deadline) is rough this once, so that
    # the same question gets the same bound whenever the machine is free again.
    bound_wall: float = 0.15

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if value < 0:
                raise ValueError(f"TowerBudget.{field.name} must not be negative, not {value}")

    def work(self, seconds: float) -> float:
        """The deterministic units `seconds` of a time limit buy."""
        return self.deterministic_per_second * seconds


DEFAULT_TOWER = TowerBudget()
