"""The tile goal's stages on the full plan model: claim the tile in the earliest turn; then
fewer special tokens spent, then more castellers."""

from __future__ import annotations

from ortools.sat.python import cp_model

from models.errors import SpecError
from planner.turns.full.model import STOPS, PlanModel
from planner.turns.full.spent import spent_stage
from planner.turns.full.stages import Stage

Expr = cp_model.LinearExpr


def tile_stages(plan: PlanModel, tile: str | None) -> list[Stage]:
    """The tile goal's stages, in order."""
    return [Stage("turn of the claim", claim_turn(plan, tile), "min"), spent_stage(plan)[0]]


def claim_turn(plan: PlanModel, tile: str | None) -> Expr:
    """The tile goal's objective: the turn the tile is claimed in (the claim required)."""
    horizon = plan.horizon
    horizon.board.tile(tile or "")  # an unknown tile is a SpecError naming it
    row = next((g for g, tiles in horizon.tiles.items() if tile in [t.id for t in tiles]),
               None)
    if row is None:
        raise SpecError(f"tile {tile} lies in no region's row (it was claimed already)",
                        token=tile)
    claim = next((c for c in plan.claims if c.tile.id == tile), None)
    if claim is None:  # no team in reach can build it: proven at once
        plan.model.add_bool_or([])
        return cp_model.LinearExpr.constant(0)
    plan.model.add(claim.claimed == 1)
    return cp_model.LinearExpr.sum([var * (i // STOPS) for i, var in claim.at.items()])
