"""Castle Combo solvers: the best arrangement of nine cards (CP-SAT, with an exhaustive
reference), bots, the turn advisor and tournaments. Every answer is re-scored by `models.combo`.

The CP-SAT names (`best_arrangement`, `Engine`, `Limits`) are loaded on first use (PEP 562):
the advisor, the bots and tournaments need no CP-SAT model, and ortools takes about a second
to import, which `combo advise -t` would otherwise spend out of its time limit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.combo.advisor import (
    BOT_SAMPLES,
    LAST_TURN,
    MAX_SAMPLES,
    VALUES,
    ActionValue,
    Advice,
    LastTurn,
    Value,
    advise,
    advisor_bot,
)
from planner.combo.arrange_search import arrange_exhaustive
from planner.combo.bots import BOTS, Greedy, OneStep, Values, greedy, play_out, random_bot
from planner.combo.question import (
    ALL_CELLS,
    ArrangeQuestion,
    ArrangeResult,
    Status,
    arrangement_question,
    offsets_for,
    parse_cards,
)
from planner.combo.tournament import (
    COMBO,
    ComboSetup,
    GameRecord,
    Summary,
    games,
    play_game,
    summarise,
)
from planner.combo.tournament import run as run_tournament
from planner.lazy import lazy_names
from planner.stats import wilson

if TYPE_CHECKING:
    from planner.combo.arrange import Engine, Limits, best_arrangement

_LAZY = {name: "planner.combo.arrange" for name in ("Engine", "Limits", "best_arrangement")}


__getattr__ = lazy_names(__name__, _LAZY)

__all__ = [
    "ALL_CELLS",
    "BOTS",
    "BOT_SAMPLES",
    "COMBO",
    "LAST_TURN",
    "MAX_SAMPLES",
    "VALUES",
    "ActionValue",
    "Advice",
    "ArrangeQuestion",
    "ArrangeResult",
    "ComboSetup",
    "Engine",
    "GameRecord",
    "Greedy",
    "LastTurn",
    "Limits",
    "OneStep",
    "Status",
    "Summary",
    "Value",
    "Values",
    "advise",
    "advisor_bot",
    "arrange_exhaustive",
    "arrangement_question",
    "best_arrangement",
    "games",
    "greedy",
    "offsets_for",
    "parse_cards",
    "play_game",
    "play_out",
    "random_bot",
    "run_tournament",
    "summarise",
    "wilson",
]
