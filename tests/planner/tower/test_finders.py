"""The referee's tower finders: a tile's tower is asked again at every listing of the legal
steps (each page drawn, each bot's step); the same question is answered once."""

from __future__ import annotations

from models.tower import STANDARD, Pool, SkillRanks
from models.tower.tiles import parse_tile
from planner.tower import solve, tile_tower
from planner.tower.finders import _tile_tower
from planner.tower.questions import TileCheck


def test_a_tiles_tower_is_solved_once_and_answered_alike() -> None:
    pool, ranks, tile = Pool.parse("5,4x2,3x2,2,1"), SkillRanks(), parse_tile("shape:2-1")
    first = tile_tower(pool, ranks, tile, STANDARD)
    misses = _tile_tower.cache_info().misses
    assert tile_tower(Pool.parse("5,4x2,3x2,2,1"), ranks, tile, STANDARD) == first
    assert _tile_tower.cache_info().misses == misses  # answered from what was kept
    assert first == solve(TileCheck(tile), pool, ranks, STANDARD).tower is not None


def test_no_tower_is_kept_as_no_tower() -> None:
    tile = parse_tile("shape:4-3-2-1")
    assert tile_tower(Pool.parse("2,1"), SkillRanks(), tile, STANDARD) is None
    assert tile_tower(Pool.parse("2,1"), SkillRanks(), tile, STANDARD) is None
