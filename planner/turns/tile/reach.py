"""When a tile goal is out of reach: why, and the fewest turns that would claim the tile."""

from __future__ import annotations

from ortools.sat.python import cp_model

from models.game import Board, GameState
from models.tower import Rules
from planner.clock import now
from planner.stopping import solve_stoppable
from planner.tower import STATUS, Status, configure, max_height
from planner.turns.budget import MAX_TURNS, PlanBudget
from planner.turns.full.model import PlanModel, PlanStopped, build_plan_model
from planner.turns.horizon import build_horizon
from planner.turns.tile.stages import claim_turn


def tile_reasons(plan: PlanModel, tile_id: str) -> tuple[str, ...]:
    """Why no plan of the horizon claims `tile_id` (a proven no)."""
    horizon = plan.horizon
    tile = horizon.board.tile(tile_id)
    turns = len(horizon.turns)
    region = next(g for g, tiles in horizon.tiles.items() if tile_id in [t.id for t in tiles])
    name = horizon.board.region(region).name
    tallest = max_height(horizon.upper_pool(), horizon.upper_ranks(), horizon.rules)
    if not any(c.tile.id == tile_id for c in plan.claims):
        return (f"{tile_id} ({tile.tile}) needs {tile.spec.height} levels; with every "
                f"casteller in reach recruited and every training in {turns} turn(s), no "
                f"tower stands more than {tallest}",)
    return (f"no plan of {turns} turn(s) stands in {name} with a team and ranks that build "
            f"{tile_id} ({tile.tile}), with every casteller in reach (those in sight now) "
            "counted",)


def fewest_turns_for_tile(start: GameState, board: Board, player: str, tile_id: str,
                          rules: Rules, cautious: bool, tried: int, deadline: float,
                          budget: PlanBudget) -> int | None:
    """The fewest turns (more than `tried`, at most `MAX_TURNS` and the game's end) in which
    a plan claims `tile_id`; None when none does, or the wall clock ran out first. Each
    horizon is first checked by the height bound (no solve), then by a feasibility solve on a
    fixed deterministic budget (`budget.fewest_work` units each)."""
    left = board.rounds - start.round + 1
    for turns in range(tried + 1, min(MAX_TURNS, left) + 1):
        if now() > deadline:
            return None
        horizon = build_horizon(start, board, player, turns, rules, cautious)
        tile = board.tile(tile_id)
        if tile.spec.height > max_height(horizon.upper_pool(), horizon.upper_ranks(), rules):
            continue
        try:
            plan = build_plan_model(horizon, {tile_id}, budget)
        except PlanStopped:  # a cancel or the time limit: not decided
            return None
        claim_turn(plan, tile_id)  # requires the claim
        solver = cp_model.CpSolver()
        configure(solver, time_limit=max(0.1, deadline - now()), workers=1,
                  seed=0, deterministic=budget.fewest_work)
        solver.parameters.linearization_level = 0
        status = STATUS.get(solve_stoppable(solver, plan.model), Status.UNKNOWN)
        if status in (Status.OPTIMAL, Status.FEASIBLE):
            return turns
        if status is Status.UNKNOWN:
            return None  # not decided: a longer horizon could not be trusted to be the fewest
    return None
