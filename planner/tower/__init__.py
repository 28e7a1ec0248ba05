"""The tower solver: the questions a player asks of a pool (best tower, festival tower, tile
check), the CP-SAT layout and models, the exhaustive reference search, why-not explanations,
and `solve`/`answer`, the one entry point whichever engine answers."""

from planner.tower.api import DEFAULT_TIME_LIMIT, Answer, Engine, answer, solve
from planner.tower.bounds import level_cap, max_height
from planner.tower.cpsat import (
    DETERMINISTIC_PER_SECOND,
    STATUS,
    build_model,
    configure,
    solve_cpsat,
    stopped_by_clock,
)
from planner.tower.finders import festival_tower, tile_tower
from planner.tower.layout import Limits, TowerLayout, build_layout
from planner.tower.objective import height_weight, objective_of
from planner.tower.questions import BestTower, FestivalTower, Question, TileCheck
from planner.tower.result import SolveResult, Status
from planner.tower.whynot import Suggestion, WhyNot

__all__ = [
    "DEFAULT_TIME_LIMIT", "DETERMINISTIC_PER_SECOND", "STATUS", "Answer", "BestTower",
    "Engine", "FestivalTower", "Limits",
    "Question", "SolveResult", "Status", "Suggestion", "TileCheck", "TowerLayout", "WhyNot",
    "answer", "build_layout", "build_model", "configure", "festival_tower", "height_weight",
    "level_cap", "max_height", "objective_of", "solve", "solve_cpsat", "stopped_by_clock",
    "tile_tower",
]
