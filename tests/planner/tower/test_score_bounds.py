"""The festival score caps and tile reach the turn planner's model gets from the tower dynamic
program (`planner.tower.bounds`), against the exhaustive search."""

from hypothesis import given, settings
from hypothesis import strategies as st

from models.tower import Festival, Pool, Rules, SkillRanks, Tile
from planner.tower import FestivalTower, TileCheck, solve
from planner.tower.bounds import festival_cap, max_height, tile_in_reach
from tests import strategies as cs


@st.composite
def teams(draw: st.DrawFn) -> tuple[Pool, Festival]:
    """A team near a tower (so that about a fifth of them compete) and a festival whose token
    sizes it holds."""
    tower = draw(cs.plausible_towers())
    extra = draw(st.lists(cs.sizes, max_size=2))
    pool = Pool.of([*tower.sizes(), *extra])
    tokens = draw(st.lists(st.sampled_from(sorted(pool.sizes)), min_size=1, max_size=2))
    return pool, Festival(tuple(tokens))


small_teams = teams().filter(lambda team: team[0].total <= 13)  # the search's reach


@settings(max_examples=60, deadline=None)
@given(small_teams | st.tuples(cs.pools(1, 11), cs.festivals), cs.ranks(2), cs.rules)
def test_the_festival_cap_is_the_searched_best_score(team: tuple[Pool, Festival],
                                                     ranks: SkillRanks, rules: Rules) -> None:
    pool, festival = team
    reference = solve(FestivalTower(festival), pool, ranks, rules, engine="search",
                      time_limit=120)
    assert reference.proven
    cap = festival_cap(festival, pool, ranks, rules)
    assert cap == (None if reference.tower is None else reference.objective)


@settings(max_examples=30, deadline=None)
@given(teams(), cs.ranks(2), cs.rules, cs.sizes, cs.ranks(1))
def test_the_festival_cap_bounds_every_smaller_team(team: tuple[Pool, Festival],
                                                    ranks: SkillRanks, rules: Rules, extra: int,
                                                    more: SkillRanks) -> None:
    """What the turn planner relies on: the cap on the biggest team in reach bounds every team
    the plan can have (a bigger pool and higher ranks never lose a tower)."""
    pool, festival = team
    bigger = SkillRanks(**{s: ranks.as_dict()[s] + more.as_dict()[s] for s in ranks.as_dict()})
    small = festival_cap(festival, pool, ranks, rules)
    big = festival_cap(festival, pool.add(extra), bigger, rules)
    assert small is None or (big is not None and small <= big)


def test_the_festival_cap_falls_back_to_the_rough_bound_beyond_its_budget() -> None:
    bag = Pool.of(size for size in range(1, 11) for _ in range(15))
    ranks = SkillRanks(balance=3, base=3, mix=3, strength=3, width=3)
    festival = Festival((5,))
    rough = max_height(bag, ranks, Rules()) + bag.count(5)
    assert festival_cap(festival, bag, ranks, Rules(), state_limit=10) == rough
    exact = festival_cap(festival, bag, ranks, Rules())
    assert exact is not None and exact < rough


@settings(max_examples=40, deadline=None)
@given(cs.pools(1, 11), cs.ranks(2), cs.rules, cs.shape_tiles | cs.exhibition_tiles)
def test_a_tile_is_in_reach_when_the_search_finds_a_tower(pool: Pool, ranks: SkillRanks,
                                                          rules: Rules, tile: Tile) -> None:
    reference = solve(TileCheck(tile), pool, ranks, rules, engine="search", time_limit=120)
    assert reference.proven
    assert tile_in_reach(tile, pool, ranks, rules) == (reference.tower is not None)
