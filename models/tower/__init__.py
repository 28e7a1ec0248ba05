"""The tower rules: casteller pools and towers with their notation, the five skills, rule
variants, festivals, local performance tiles, and the solver-free checker that is the spec of
every tower any solver returns. Knows nothing of the game around the tower."""

from models.tower.checker import (
    CheckResult,
    SkillUses,
    Violation,
    check_tower,
    count_steps,
    width_accountings,
)
from models.tower.festival import Festival
from models.tower.matching import meets_tile, tile_shortfalls
from models.tower.notation import Size, parse_sizes
from models.tower.pool import Pool
from models.tower.rules import (
    STANDARD,
    SWITCHES,
    VARIANTS,
    Rules,
    rules_from_settings,
    rules_named,
    switch_values,
)
from models.tower.skills import SKILL_ORDER, Skill, SkillRanks, parse_skill
from models.tower.tiles import ExhibitionTile, ShapeTile, Tile, parse_tile, tile_words
from models.tower.tower import Level, Tower

__all__ = [
    "SKILL_ORDER", "STANDARD", "SWITCHES", "VARIANTS", "CheckResult", "ExhibitionTile",
    "Festival", "Level", "Pool", "Rules", "ShapeTile", "Size", "Skill", "SkillRanks",
    "SkillUses", "Tile", "Tower",
    "Violation", "check_tower", "count_steps", "meets_tile", "parse_sizes", "parse_skill",
    "parse_tile", "rules_from_settings", "rules_named", "switch_values", "tile_shortfalls",
    "tile_words",
    "width_accountings",
]
