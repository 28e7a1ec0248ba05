"""The dynamic program's bounds and the shortcuts they allow, against the exhaustive search.

With one fewer a level far over the limit has few levels above it (each must be one fewer, so
each needs Base), so a narrower bottom can have a higher bound than a wider one: a bound that
rules out a wide bottom must not rule out the narrower ones. These teams (found by comparing
the program with such a shortcut against one without) lose their best tower to it."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.tower import Festival, Pool, Rules, SkillRanks, rules_named
from planner.tower.api import solve
from planner.tower.questions import BestTower, FestivalTower
from planner.tower.result import Status
from tests import strategies as cs
from tests.planner.tower.helpers import assert_sound

ONE_FEWER_BASE = [
    ("10,7,4x2,3x3,1", "base=1,mix=2,strength=2"),
    ("10,9x5,3x2", "balance=2,base=1,mix=1,strength=1,width=1"),
    ("10,6,3x2,2x3,1x2", "base=1,mix=2,strength=1"),
    ("10,6x2,5x3,2x2,1", "balance=1,base=1,mix=1,strength=1"),
    ("10,9,6x2,5x4,3", "balance=1,base=1,mix=2,strength=2,width=1"),
]


@pytest.mark.parametrize(("pool_text", "skills"), ONE_FEWER_BASE)
def test_one_fewer_wide_bottoms_do_not_hide_narrower_ones(pool_text: str, skills: str) -> None:
    pool, ranks, rules = Pool.parse(pool_text), SkillRanks.parse(skills), rules_named("one-fewer")
    dp = solve(BestTower(), pool, ranks, rules, engine="dp")
    reference = solve(BestTower(), pool, ranks, rules, engine="search", time_limit=60)
    assert reference.status is Status.OPTIMAL
    assert (dp.status, dp.objective) == (reference.status, reference.objective)
    assert_sound(dp, BestTower(), pool, ranks, rules)


base_ranks = cs.ranks(2).filter(lambda r: r.base > 0)


@settings(max_examples=60)
@given(cs.pools(4, 11), base_ranks, cs.rules, st.booleans())
def test_dp_agrees_with_search_when_base_frees_wide_levels(pool: Pool, ranks: SkillRanks,
                                                          rules: Rules, festival: bool) -> None:
    """Base is where the bounds differ most between the readings (widths above a freed level)."""
    question = FestivalTower(Festival((pool.sizes[-1],))) if festival else BestTower()
    dp = solve(question, pool, ranks, rules, engine="dp")
    reference = solve(question, pool, ranks, rules, engine="search", time_limit=60)
    assert reference.proven
    assert (dp.status, dp.objective) == (reference.status, reference.objective)
    assert_sound(dp, question, pool, ranks, rules)
