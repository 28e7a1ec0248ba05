"""Castle Combo solvers: the best arrangement of nine cards (CP-SAT, with an exhaustive
reference), bots, the turn advisor and tournaments. Every answer is re-scored by `models.combo`."""

from planner.combo.arrange import Limits, best_arrangement
from planner.combo.arrange_search import arrange_exhaustive
from planner.combo.question import (
    ALL_CELLS,
    ArrangeQuestion,
    ArrangeResult,
    Status,
    arrangement_question,
    offsets_for,
    parse_cards,
)

__all__ = [
    "ALL_CELLS", "ArrangeQuestion", "ArrangeResult", "Limits", "Status",
    "arrange_exhaustive", "arrangement_question", "best_arrangement", "offsets_for",
    "parse_cards",
]
