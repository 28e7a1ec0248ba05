"""Castell domain: types, notation and the solver-free rule checker."""

from models.checker import CheckResult, SkillUses, Violation, check_tower, width_accountings
from models.errors import CastellError, NotationError, SpecError
from models.festival import Festival
from models.matching import meets_tile, tile_shortfalls
from models.pool import Pool
from models.rules import STANDARD, VARIANTS, Rules, rules_named
from models.skills import SKILL_ORDER, Skill, SkillRanks, parse_skill
from models.tiles import ExhibitionTile, ShapeTile, Tile, parse_tile
from models.tower import Level, Tower

__all__ = [
    "SKILL_ORDER", "STANDARD", "VARIANTS", "CastellError", "CheckResult", "ExhibitionTile",
    "Festival", "Level", "NotationError", "Pool", "Rules", "ShapeTile", "Skill", "SkillRanks",
    "SkillUses", "SpecError", "Tile", "Tower", "Violation", "check_tower", "meets_tile",
    "parse_skill", "parse_tile", "rules_named", "tile_shortfalls", "width_accountings",
]
