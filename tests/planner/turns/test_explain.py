"""Why a plan's move is there, as the explanations tell it."""

from __future__ import annotations

from dataclasses import replace

from models.game import Move, RegionGraph, move_targets
from models.tower import STANDARD
from planner.turns.explain import Target, _why_move
from tests.planner.turns.game_states import BOARD

GRAPH = RegionGraph(BOARD)
NAMES = {r: BOARD.region(r).name for r in BOARD.region_ids}


def reason(special_move: str) -> str:
    """A move to Terres de l'Ebre, the turn's last action, toward a festival in Girona (3 steps
    away on the default board)."""
    target = Target(5, "Figueres", "girona", None)
    rules = replace(STANDARD, special_move=special_move)
    jumps = move_targets(BOARD, rules, "terres-de-lebre", special=True)
    text, serves = _why_move("terres-de-lebre", [], target, GRAPH, NAMES, 0, 2,
                             [[Move(to="terres-de-lebre")], []], jumps=jumps, here=None)
    assert serves == "girona"  # from off the board, every move is nearer
    return text


def test_a_move_toward_a_festival_counts_the_moves_left() -> None:
    away = GRAPH.distance("terres-de-lebre", "girona")
    assert away > 1
    assert reason("adjacent").endswith(f"{away} move(s) away")


def test_with_the_any_reading_a_special_move_reaches_it_at_once() -> None:
    assert reason("any").endswith("away (or one special move)")
