import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.errors import NotationError, SpecError
from models.tower import Festival, Pool, SkillRanks, Tower, parse_tile, rules_named
from tests import strategies as cs


@given(cs.pools(min_size=0))
def test_pool_round_trips(pool: Pool) -> None:
    assert Pool.parse(str(pool)) == pool


@given(cs.ranks(max_rank=5))
def test_skills_round_trip(ranks: SkillRanks) -> None:
    assert SkillRanks.parse(str(ranks)) == ranks


@given(cs.towers)
def test_tower_round_trips(tower: Tower) -> None:
    assert Tower.parse(str(tower)) == tower


@given(st.one_of(cs.shape_tiles, cs.exhibition_tiles))
def test_tile_round_trips(tile: object) -> None:
    assert parse_tile(str(tile)) == tile


@given(cs.festivals)
def test_festival_round_trips(festival: Festival) -> None:
    assert Festival.parse(str(festival)) == festival


def test_shorthand_and_canonical_tower_text() -> None:
    tower = Tower.parse("9x4/7x3/5x2/3")
    assert tower == Tower.parse("9,9,9,9/7,7,7/5,5/3")
    assert str(tower) == "9,9,9,9/7,7,7/5,5/3"
    assert str(Tower.parse(" 5,6 / 4 ")) == "6,5/4"


def test_pool_notation() -> None:
    pool = Pool.parse("10,9x3,7,7")
    assert pool.count(9) == 3 and pool.count(7) == 2 and pool.total == 6
    assert str(pool) == "10,9x3,7x2"


def test_skill_names_are_case_insensitive_and_unnamed_are_zero() -> None:
    ranks = SkillRanks.parse("Balance=1,WIDTH=2")
    assert (ranks.balance, ranks.width, ranks.mix, ranks.base, ranks.strength) == (1, 2, 0, 0, 0)


@pytest.mark.parametrize(
    ("text", "token"),
    [("11", "11"), ("0", "0"), ("-3", "-3"), ("a", "a"), ("9,,7", "9,,7"), ("9x0", "9x0"),
     ("9xz", "9xz"), ("", "")],
)
def test_bad_pools_name_the_token(text: str, token: str) -> None:
    with pytest.raises(NotationError) as caught:
        Pool.parse(text)
    assert caught.value.token == token
    if token:
        assert token in str(caught.value)


@pytest.mark.parametrize("text", ["9,9//5", "/9", "9/", "", "9/11", "9/0", "9/x"])
def test_bad_towers(text: str) -> None:
    with pytest.raises(NotationError):
        Tower.parse(text)


def test_empty_level_is_named() -> None:
    with pytest.raises(NotationError, match="level 2"):
        Tower.parse("9,9//5")


def test_unknown_skill_suggests_closest() -> None:
    with pytest.raises(NotationError, match="did you mean 'width'"):
        SkillRanks.parse("widht=1")


@pytest.mark.parametrize("text", ["width=-1", "width", "width=x", "width=1,width=2", "width=1,"])
def test_bad_skills(text: str) -> None:
    with pytest.raises(NotationError):
        SkillRanks.parse(text)


@pytest.mark.parametrize(
    "text",
    ["shape:", "shape:4-0", "shape:4--3", "exhibition:4", "exhibition:0:width",
     "exhibition:x:width", "exhibition:4:widht", "exhibition:4:width+width", "circle:3"],
)
def test_bad_tiles(text: str) -> None:
    with pytest.raises(NotationError):
        parse_tile(text)


def test_unknown_rules_variant() -> None:
    with pytest.raises(SpecError, match="one-fewer"):
        rules_named("one-fewr")
    assert rules_named("One-Fewer").decrease == "one-fewer"


def test_parse_errors_are_not_rule_violations() -> None:
    assert issubclass(NotationError, SpecError)
