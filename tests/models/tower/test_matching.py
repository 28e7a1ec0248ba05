from models.tower import (
    Pool,
    SkillRanks,
    Tower,
    check_tower,
    meets_tile,
    parse_tile,
    tile_shortfalls,
)


def test_shape_tile_needs_exact_counts_and_a_valid_tower() -> None:
    tile = parse_tile("shape:4-3-2-1")
    ranks = SkillRanks.parse("width=1")
    assert meets_tile(tile, Tower.parse("9x4/7x3/5x2/3"), ranks)
    assert not meets_tile(tile, Tower.parse("9x4/7x3/5x2/3"))  # 4 wide needs Width or Base
    assert not meets_tile(tile, Tower.parse("9x3/7x2/5"), ranks)  # wrong shape


def test_shape_tile_respects_the_pool() -> None:
    tile = parse_tile("shape:3-2-1")
    tower = Tower.parse("9x3/7x2/5")
    assert meets_tile(tile, tower, pool=Pool.parse("9x3,7x2,5"))
    assert not meets_tile(tile, tower, pool=Pool.parse("9x2,7x2,5"))


def test_exhibition_tile_needs_points_levels_and_all_skills() -> None:
    tile = parse_tile("exhibition:4:balance+width")
    ranks = SkillRanks.parse("balance=1,width=1")
    assert meets_tile(tile, Tower.parse("9x4/7x3/5/3"), ranks)
    assert not meets_tile(tile, Tower.parse("9x4/7x3/5,5/3"), ranks)  # no Balance use
    assert not meets_tile(tile, Tower.parse("9x4/7x3/5/3/1"), ranks)  # 5 levels


def test_shortfalls_say_why() -> None:
    tile = parse_tile("exhibition:4:balance+width")
    result = check_tower(Tower.parse("9x4/7x3/5,5/3"), SkillRanks.parse("balance=1,width=1"))
    assert tile_shortfalls(tile, result) == ["no valid accounting of the tower uses all of "
                                             "balance+width"]
