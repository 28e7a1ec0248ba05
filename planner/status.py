"""How far a solve got, for every solver of the project (towers, turn plans, Castle Combo
arrangements): one name, one meaning."""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """How far a solve got: optimal, feasible, infeasible or unknown."""

    OPTIMAL = "optimal"  # proven best (or, for a yes/no question, a proven yes)
    FEASIBLE = "feasible"  # an answer, but the time limit came before the proof
    INFEASIBLE = "infeasible"  # proven: no answer exists
    UNKNOWN = "unknown"  # the time limit came before any answer
