"""What a solve returns, whichever engine ran it."""

from __future__ import annotations

from dataclasses import dataclass

from models.tower import SkillUses, Tower
from planner.status import Status

# how far a solve got (for a tile, optimal is a tower that meets it): the project's one Status
__all__ = ["SolveResult", "Status"]


@dataclass(frozen=True)
class SolveResult:
    """A tower solve's answer: status, tower, objective, bound, skill uses, time, engine."""
    status: Status
    tower: Tower | None
    objective: int | None
    bound: float | None
    uses: SkillUses | None
    wall_time_s: float
    engine: str
    branches: int = 0  # CP-SAT search branches (0 for the exhaustive search)
    # the wall clock (or a stop), not a finished search or CP-SAT's deterministic budget,
    # ended an unproven solve: its answer may differ from one run (or machine) to the next
    clock_hit: bool = False
    # the dynamic program's memory bound (`TowerBudget.max_states`) ended it, not a clock
    memory_hit: bool = False

    @property
    def found(self) -> bool:
        """Whether a tower was found."""
        return self.tower is not None

    @property
    def proven(self) -> bool:
        """Whether the answer is proven (optimal or infeasible)."""
        return self.status in (Status.OPTIMAL, Status.INFEASIBLE)
