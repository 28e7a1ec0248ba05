"""Why a plan's move is there, as the explanations tell it."""

from __future__ import annotations

from models.game import Move, RegionGraph
from planner.turns.explain import Target, _why_move
from tests.planner.turns.game_states import BOARD

GRAPH = RegionGraph(BOARD)
NAMES = {r: BOARD.region(r).name for r in BOARD.region_ids}


def reason(far: bool) -> str:
    """A move to Terres de l'Ebre, the turn's last action, toward a festival in Girona (3 steps
    away on the default board)."""
    target = Target(5, "Figueres", "girona", None)
    return _why_move("terres-de-lebre", [], target, GRAPH, NAMES, 0, 2,
                     [[Move(to="terres-de-lebre")], []], far=far)


def test_a_move_toward_a_festival_counts_the_moves_left() -> None:
    away = GRAPH.distance("terres-de-lebre", "girona")
    assert away > 1
    assert reason(False).endswith(f"{away} move(s) away")


def test_with_the_any_reading_a_special_move_reaches_it_at_once() -> None:
    assert reason(True).endswith("away (or one special move)")
