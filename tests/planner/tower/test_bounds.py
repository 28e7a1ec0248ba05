"""The height bounds the CP-SAT models (the tower's and the turn planner's layouts) get."""

from dataclasses import replace

from hypothesis import given, settings

from models.tower import Pool, Rules, SkillRanks
from planner.tower import TowerBudget, bounds, max_height, solve
from planner.tower.bounds import tallest
from planner.tower.questions import BestTower
from tests import strategies as cs


@settings(max_examples=60)
@given(cs.pools(1, 12), cs.ranks(3), cs.rules)
def test_tallest_is_the_height_of_the_searched_best_tower(pool: Pool, ranks: SkillRanks,
                                                          rules: Rules) -> None:
    reference = solve(BestTower(), pool, ranks, rules, engine="search", time_limit=120)
    assert reference.tower is not None and reference.proven
    assert tallest(pool, ranks, rules) == reference.tower.height <= max_height(pool, ranks, rules)


@settings(max_examples=20)
@given(cs.pools(1, 12), cs.ranks(3), cs.rules, cs.sizes, cs.ranks(1))
def test_tallest_bounds_every_smaller_pool_and_ranks(pool: Pool, ranks: SkillRanks,
                                                     rules: Rules, extra: int,
                                                     more: SkillRanks) -> None:
    """What the turn planner relies on: a bigger pool and higher ranks never lose height."""
    bigger = SkillRanks(**{s: ranks.as_dict()[s] + more.as_dict()[s] for s in ranks.as_dict()})
    assert tallest(pool, ranks, rules) <= tallest(pool.add(extra), bigger, rules)


def test_tallest_falls_back_to_the_rough_bound_beyond_its_budget() -> None:
    # the budget in states decides here, not the wall clock's safety net: with both cores
    # busy the whole bag's program ran past the default `bound_wall`'s 0.15 s and fell back
    # to the rough bound
    roomy = TowerBudget(bound_wall=60.0)
    bounds._tallest.cache_clear()
    bag = Pool.of(size for size in range(1, 11) for _ in range(15))
    ranks = SkillRanks(balance=3, base=3, mix=3, strength=3, width=3)
    assert tallest(bag, ranks, Rules(), state_limit=10, budget=roomy) == max_height(
        bag, ranks, Rules())
    assert tallest(bag, ranks, Rules(), budget=replace(roomy, tallest_states=10)) == max_height(
        bag, ranks, Rules())
    assert tallest(bag, ranks, Rules(), budget=roomy) < max_height(bag, ranks, Rules())


def test_a_bound_the_clock_cut_short_is_rough_once_and_not_kept() -> None:
    # a loaded machine can run past the wall clock's safety net on an ordinary team: the
    # same question must get the exact bound again once the machine is free
    bag = Pool.of(size for size in range(1, 11) for _ in range(15))
    ranks = SkillRanks(balance=3, base=3, mix=3, strength=3, width=3)
    bounds._tallest.cache_clear()
    assert tallest(bag, ranks, Rules(), budget=TowerBudget(bound_wall=0.0)) == max_height(
        bag, ranks, Rules())
    assert bounds._tallest.cache_info().currsize == 0
    assert tallest(bag, ranks, Rules(), budget=TowerBudget(bound_wall=60.0)) < max_height(
        bag, ranks, Rules())
