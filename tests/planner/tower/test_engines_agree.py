"""Three engines, one truth: the dynamic program and CP-SAT against the exhaustive search on
random small instances, and the dynamic program against CP-SAT on bigger ones."""

from hypothesis import event, given, settings
from hypothesis import strategies as st

from models.tower import ExhibitionTile, Pool, Rules, Skill, SkillRanks
from planner.tower.api import Engine, solve
from planner.tower.questions import BestTower, FestivalTower, Question, TileCheck
from planner.tower.result import SolveResult, Status
from tests import strategies as cs
from tests.planner.tower.helpers import assert_sound

questions = st.one_of(
    st.just(BestTower()),
    cs.festivals.map(FestivalTower),
    cs.shape_tiles.map(TileCheck),
    cs.exhibition_tiles.map(TileCheck),
)


def _agree(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules,
           engines: tuple[Engine, ...] = ("dp", "cpsat", "search"), *,
           in_hypothesis: bool = True) -> SolveResult:
    results = [solve(question, pool, ranks, rules, engine=engine,
                     time_limit=120 if engine == "search" else 30) for engine in engines]
    reference = results[-1]
    for result in results:
        assert result.proven, (result.engine, result.status)
        assert result.status == reference.status, (result.engine, str(result.tower),
                                                    str(reference.tower))
        assert result.objective == reference.objective, (result.engine, str(result.tower),
                                                         str(reference.tower))
        assert_sound(result, question, pool, ranks, rules)
    if in_hypothesis:
        event(f"{type(question).__name__}: {reference.status}")
    return reference


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
    result = solve(FestivalTower(cs.Festival((6, 3))), pool, SkillRanks(width=1), Rules())
    assert result.status is Status.OPTIMAL


@settings(max_examples=40)
@given(cs.pools(14, 45), cs.ranks(3), cs.rules, questions)
def test_dp_agrees_with_cpsat_on_bigger_teams(pool: Pool, ranks: SkillRanks, rules: Rules,
                                              question: Question) -> None:
    """Teams too big for the exhaustive search: the two exact product engines agree."""
    _agree(question, pool, ranks, rules, engines=("dp", "cpsat"))


@settings(max_examples=60)
@given(cs.pools(2, 10), cs.ranks(4), cs.rules, questions)
def test_dp_agrees_with_search_at_high_ranks(pool: Pool, ranks: SkillRanks, rules: Rules,
                                             question: Question) -> None:
    """Ranks up to 4 (a why-not's +1 on rank 3) on small teams, against the reference."""
    _agree(question, pool, ranks, rules, engines=("dp", "search"))


def test_an_exhibition_can_need_a_narrower_level() -> None:
    """9x4/7x3/5/3 uses Balance (1 = 1 at the top) where the widest 5-level (5x2) would not:
    a program that tried only the widest level of each kind missed it."""
    tile = ExhibitionTile(4, frozenset({Skill.BALANCE, Skill.WIDTH}))
    found = _agree(TileCheck(tile), Pool.parse("9x4,7x3,5x2,3"), SkillRanks(width=1, balance=1),
                   Rules(), in_hypothesis=False)
    assert found.status is Status.OPTIMAL


@st.composite
def exhibitions_of_a_tower(draw: st.DrawFn) -> tuple[Pool, SkillRanks, TileCheck]:
    """An exhibition as tall as a random near-valid tower, on that tower's castellers plus a
    few more: many of them are achievable, often only by narrower levels."""
    tower = draw(cs.plausible_towers())
    # spare castellers, often of the tower's own sizes: wider levels the answer must not take
    extra = draw(st.lists(st.one_of(cs.sizes, st.sampled_from(tower.sizes())), max_size=3))
    skills = draw(st.frozensets(st.sampled_from(list(Skill)), min_size=1, max_size=2))
    ranks = draw(cs.ranks(2))
    if draw(st.booleans()):  # without Strength, every level of a size is the run's only one
        ranks = SkillRanks(**{**ranks.as_dict(), "strength": 0})
    return Pool.of([*tower.sizes(), *extra]), ranks, TileCheck(ExhibitionTile(tower.height,
                                                                                 skills))


@settings(max_examples=80)
@given(exhibitions_of_a_tower(), cs.rules)
def test_exhibitions_of_plausible_towers_agree(drawn: tuple[Pool, SkillRanks, TileCheck],
                                               rules: Rules) -> None:
    pool, ranks, question = drawn
    _agree(question, pool, ranks, rules, engines=("dp", "cpsat"))
