"""Whether a tower meets a local performance tile (rules page section 4)."""

from __future__ import annotations

from models.tower.checker import CheckResult, check_tower
from models.tower.pool import Pool
from models.tower.rules import STANDARD, Rules
from models.tower.skills import SkillRanks
from models.tower.tiles import ExhibitionTile, ShapeTile, Tile
from models.tower.tower import Tower


def tile_shortfalls(tile: Tile, result: CheckResult) -> list[str]:
    """Why the checked tower does not meet `tile` (empty when it does)."""
    tower = result.tower
    reasons = [v.message for v in result.violations]
    if isinstance(tile, ShapeTile):
        if tower.shape != tile.counts:
            shown = "-".join(map(str, tower.shape))
            reasons.append(f"the tower's shape is {shown}, the tile asks for {str(tile)[6:]}")
    elif isinstance(tile, ExhibitionTile):
        if tower.height != tile.points:
            reasons.append(f"the tower has {tower.height} levels, the tile asks for {tile.points}")
        if result.valid and not result.uses_all(tile.skills):
            names = "+".join(s.value for s in tile.ordered_skills())
            reasons.append(f"no valid accounting of the tower uses all of {names}")
    return reasons


def meets_tile(tile: Tile, tower: Tower, ranks: SkillRanks | None = None,
               rules: Rules = STANDARD, pool: Pool | None = None) -> bool:
    """Whether a tower meets a tile (with the ranks, rules and pool given)."""
    return not tile_shortfalls(tile, check_tower(tower, ranks, rules, pool))
