"""The tower solver: the questions a player asks of a pool (best tower, festival tower, tile
check), the dynamic program that answers them, the CP-SAT layout and models, the exhaustive
reference search, why-not explanations, and `solve`/`answer`, the one entry point whichever
engine answers.

The CP-SAT names (`build_layout`, `solve_cpsat`, ...) are loaded on first use (PEP 562), so
that importing the package, and every command that needs no CP-SAT model, never loads
ortools."""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.lazy import lazy_names
from planner.tower.api import (
    DEFAULT_ENGINE,
    DEFAULT_TIME_LIMIT,
    ENGINES,
    Answer,
    Engine,
    answer,
    solve,
)
from planner.tower.bounds import level_cap, max_height
from planner.tower.budget import DEFAULT_TOWER, TowerBudget
from planner.tower.dp import solve_dp
from planner.tower.finders import festival_tower, tile_tower
from planner.tower.objective import height_weight, objective_of
from planner.tower.questions import BestTower, FestivalTower, Question, TileCheck
from planner.tower.result import SolveResult, Status
from planner.tower.whynot import Suggestion, WhyNot

if TYPE_CHECKING:
    from planner.tower.cpsat import (
        STATUS,
        build_model,
        configure,
        solve_cpsat,
        stopped_by_clock,
    )
    from planner.tower.layout import LayoutCaps, TowerLayout, build_layout

_LAZY = {
    "STATUS": "planner.tower.cpsat", "build_model": "planner.tower.cpsat",
    "configure": "planner.tower.cpsat", "solve_cpsat": "planner.tower.cpsat",
    "stopped_by_clock": "planner.tower.cpsat",
    "LayoutCaps": "planner.tower.layout", "TowerLayout": "planner.tower.layout",
    "build_layout": "planner.tower.layout",
}


__getattr__ = lazy_names(__name__, _LAZY)


__all__ = [
    "DEFAULT_ENGINE", "DEFAULT_TIME_LIMIT", "DEFAULT_TOWER", "ENGINES", "STATUS",
    "Answer", "BestTower", "Engine", "FestivalTower", "LayoutCaps", "Question", "SolveResult",
    "Status", "Suggestion", "TileCheck", "TowerBudget", "TowerLayout", "WhyNot", "answer",
    "build_layout", "build_model", "configure", "festival_tower", "height_weight", "level_cap",
    "max_height", "objective_of", "solve", "solve_cpsat", "solve_dp", "stopped_by_clock",
    "tile_tower",
]
