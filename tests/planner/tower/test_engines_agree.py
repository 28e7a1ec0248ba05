"""Two engines, one truth: CP-SAT against the exhaustive search on random small instances."""

from hypothesis import event, given, settings
from hypothesis import strategies as st

from models.tower import Pool, Rules, SkillRanks
from planner.tower.api import solve
from planner.tower.questions import BestTower, FestivalTower, Question, TileCheck
from planner.tower.result import Status
from tests import strategies as cs
from tests.planner.tower.helpers import assert_sound

questions = st.one_of(
    st.just(BestTower()),
    cs.festivals.map(FestivalTower),
    cs.shape_tiles.map(TileCheck),
    cs.exhibition_tiles.map(TileCheck),
)


def _agree(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules) -> None:
    cpsat = solve(question, pool, ranks, rules, engine="cpsat", time_limit=30)
    search = solve(question, pool, ranks, rules, engine="search", time_limit=120)
    assert cpsat.proven and search.proven, (cpsat.status, search.status)
    assert cpsat.status == search.status, (str(cpsat.tower), str(search.tower))
    assert cpsat.objective == search.objective, (str(cpsat.tower), str(search.tower))
    event(f"{type(question).__name__}: {cpsat.status}")
    for result in (cpsat, search):
        assert_sound(result, question, pool, ranks, rules)


@settings(max_examples=150)
@given(cs.pools(1, 12), cs.ranks(2), cs.rules)
def test_best_tower_agrees(pool: Pool, ranks: SkillRanks, rules: Rules) -> None:
    _agree(BestTower(), pool, ranks, rules)


@settings(max_examples=150)
@given(cs.pools(1, 12), cs.ranks(2), cs.rules, cs.festivals)
def test_festival_agrees(pool: Pool, ranks: SkillRanks, rules: Rules, festival: object) -> None:
    _agree(FestivalTower(festival), pool, ranks, rules)  # type: ignore[arg-type]


@settings(max_examples=150)
@given(cs.pools(1, 12), cs.ranks(2), cs.rules, st.one_of(cs.shape_tiles, cs.exhibition_tiles))
def test_tile_check_agrees(pool: Pool, ranks: SkillRanks, rules: Rules, tile: object) -> None:
    _agree(TileCheck(tile), pool, ranks, rules)  # type: ignore[arg-type]


tall_ranks = cs.ranks(2).filter(lambda r: r.width + r.balance + r.base >= 2)


@settings(max_examples=150)
@given(cs.pools(6, 13), tall_ranks, cs.rules)
def test_festival_from_the_pool_agrees(pool: Pool, ranks: SkillRanks, rules: Rules) -> None:
    """Tokens drawn from the pool's own sizes, so that many festivals are achievable."""
    sizes = pool.sizes
    festival = cs.Festival((sizes[0], sizes[-1]))
    _agree(FestivalTower(festival), pool, ranks, rules)


def test_some_instances_are_feasible() -> None:
    """Guard against a vacuous property: the generators do produce achievable questions."""
    pool = Pool.parse("9x4,7x3,6,6,5x2,3")
    result = solve(FestivalTower(cs.Festival((6, 3))), pool, SkillRanks(width=1))
    assert result.status is Status.OPTIMAL
