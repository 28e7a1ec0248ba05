"""The dp engine's path for teams with no skill ranks (`planner.tower.plain`), against the
exhaustive reference and against the general program, for every question kind and under rule
variants that make taller plain towers possible (a wider width limit, a lower festival height)."""

from hypothesis import event, given, settings
from hypothesis import strategies as st

from models.tower import Festival, Pool, Rules, ShapeTile, SkillRanks, check_tower
from planner.tower import dp
from planner.tower.api import solve
from planner.tower.objective import objective_of
from planner.tower.plain import no_ranks, plain_tower
from planner.tower.questions import BestTower, FestivalTower, Question, TileCheck
from planner.tower.result import Status
from tests import strategies as cs
from tests.planner.tower.helpers import assert_sound

NONE = SkillRanks()

plain_rules = st.builds(
    Rules,
    decrease=st.sampled_from(["any", "one-fewer"]),
    base_scope=st.sampled_from(["per-use", "bottom-only"]),
    width_limit=st.integers(1, 5),
    min_size=st.integers(1, 3),
    max_size=st.integers(8, 10),
    festival_min_levels=st.integers(1, 3),
)
# shapes that fall strictly (often feasible) as well as any falling ones
falling_shapes = st.frozensets(st.integers(1, 3), min_size=1, max_size=3).map(
    lambda c: ShapeTile(tuple(sorted(c, reverse=True))))


@st.composite
def questions(draw: st.DrawFn, pool: Pool) -> Question:
    kind = draw(st.sampled_from(["best", "festival", "festival", "shape", "shape",
                                 "exhibition"]))
    if kind == "best":
        return BestTower()
    if kind == "festival":  # tokens often of the pool's own sizes, so that some qualify
        own = st.lists(st.sampled_from(pool.sizes), min_size=1, max_size=2)
        tokens = draw(st.one_of(own, own, st.lists(cs.sizes, min_size=1, max_size=3)))
        return FestivalTower(Festival(tuple(tokens)))
    if kind == "shape":
        return TileCheck(draw(st.one_of(falling_shapes, cs.shape_tiles)))
    return TileCheck(draw(cs.exhibition_tiles))


@st.composite
def crowded_pools(draw: st.DrawFn, least: int, most: int) -> Pool:
    """Pools of a few sizes held several times, so that tall plain towers are common."""
    sizes = draw(st.lists(cs.sizes, min_size=1, max_size=6, unique=True))
    return Pool.of(draw(st.lists(st.sampled_from(sizes), min_size=least, max_size=most)))


@st.composite
def plain_tower_pools(draw: st.DrawFn, least: int, most: int) -> Pool:
    """The castellers of a random plain tower (sizes and counts falling strictly, up to 5
    levels), plus a few others: tall towers with choices between them."""
    height = draw(st.integers(1, 5))
    counts = sorted(draw(st.lists(st.integers(1, 5), min_size=height, max_size=height,
                                  unique=True)), reverse=True)
    sizes = sorted(draw(st.lists(cs.sizes, min_size=height, max_size=height, unique=True)),
                   reverse=True)
    held = [s for s, c in zip(sizes, counts, strict=True) for _ in range(c)]
    extra = draw(st.lists(cs.sizes, min_size=max(0, least - len(held)),
                          max_size=max(0, most - len(held), least - len(held))))
    return Pool.of(held + extra)


@st.composite
def instances(draw: st.DrawFn, least: int, most: int) -> tuple[Pool, Rules, Question]:
    pool = draw(st.one_of(cs.pools(least, most), crowded_pools(least, most),
                          plain_tower_pools(least, most)))
    return pool, draw(plain_rules), draw(questions(pool))


def test_no_ranks_is_every_rank_zero() -> None:
    assert no_ranks(NONE)
    for skill in ("balance", "base", "mix", "strength", "width"):
        assert not no_ranks(SkillRanks(**{skill: 1}))


@settings(max_examples=300, deadline=None)
@given(instances(1, 12))
def test_plain_agrees_with_search(instance: tuple[Pool, Rules, Question]) -> None:
    """Through `solve` (the dp engine takes this path at rank 0), every answer re-checked."""
    pool, rules, question = instance
    found = solve(question, pool, NONE, rules, engine="dp")
    reference = solve(question, pool, NONE, rules, engine="search", time_limit=60)
    assert reference.proven and found.proven
    assert (found.status, found.objective) == (reference.status, reference.objective), (
        str(found.tower), str(reference.tower))
    assert_sound(found, question, pool, NONE, rules)
    event(f"{type(question).__name__}: {reference.status}")


def _general(question: Question, pool: Pool, rules: Rules) -> int | None:
    """The general program's objective (its own Ask, no plain path), or None: no tower."""
    if isinstance(question, FestivalTower):
        ask = dp.Ask("festival", question.festival.token_sizes, track_tokens=True,
                     min_levels=rules.festival_min_levels)
    elif isinstance(question, TileCheck):
        if not isinstance(question.tile, ShapeTile):
            return None  # an exhibition needs a skill with a rank
        ask = dp.Ask("shape", shape=question.tile.counts)
    else:
        ask = dp.Ask("best")
    tower = dp._program(ask, pool, NONE, rules, 0, float("inf"))
    if tower is None:
        return None
    assert check_tower(tower, NONE, rules, pool).valid
    return objective_of(question, tower, pool.total) if ask.kind != "shape" else 0


@settings(max_examples=400, deadline=None)
@given(instances(10, 150))
def test_plain_agrees_with_the_general_program(instance: tuple[Pool, Rules, Question]) -> None:
    """Teams up to the whole bag: the two exact programs give the same objective."""
    pool, rules, question = instance
    tower = plain_tower(question, pool, rules)
    if tower is not None:
        check = check_tower(tower, NONE, rules, pool)
        assert dp._answers(question, check, rules), str(tower)
    mine = None if tower is None else (
        objective_of(question, tower, pool.total) if not isinstance(question, TileCheck) else 0)
    assert mine == _general(question, pool, rules), str(tower)


def test_a_first_game_team() -> None:
    """10,9x3,8x2,7x2,5,4 with no ranks: 3 levels at most (counts 3 > 2 > 1 under the width
    limit 3), and 9x3 / 8x2 or 7x2 / 5 or 4 reaches them: 3 levels, 6 castellers."""
    pool = Pool.parse("10,9x3,8x2,7x2,5,4")
    found = solve(BestTower(), pool, NONE, Rules())
    assert found.status is Status.OPTIMAL and found.tower is not None
    assert (found.tower.height, found.tower.castellers) == (3, 6)
    assert_sound(found, BestTower(), pool, NONE, Rules())
