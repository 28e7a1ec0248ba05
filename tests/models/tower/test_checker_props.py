from hypothesis import given
from hypothesis import strategies as st

from models.tower import SKILL_ORDER, Rules, SkillRanks, Tower, check_tower
from models.tower.skills import Skill
from tests import strategies as cs

any_tower = st.one_of(cs.towers, cs.plausible_towers())


@given(any_tower, cs.ranks(3), cs.rules, cs.pools(min_size=0))
def test_checker_never_crashes(tower: Tower, ranks: SkillRanks, rules: Rules, pool: object) -> None:
    result = check_tower(tower, ranks, rules)
    assert result.valid == (not result.violations)
    assert (result.uses is not None) == result.valid
    for violation in result.violations:
        assert violation.message
        assert violation.level is None or 1 <= violation.level <= tower.height


@given(cs.plausible_towers(), cs.ranks(2), cs.rules, st.sampled_from(list(Skill)))
def test_more_rank_never_invalidates(tower: Tower, ranks: SkillRanks, rules: Rules,
                                     skill: Skill) -> None:
    if check_tower(tower, ranks, rules).valid:
        assert check_tower(tower, ranks.plus(skill), rules).valid


@given(cs.plausible_towers(), cs.ranks(2), cs.rules)
def test_removing_the_top_keeps_valid(tower: Tower, ranks: SkillRanks, rules: Rules) -> None:
    if tower.height > 1 and check_tower(tower, ranks, rules).valid:
        assert check_tower(tower.without_top(), ranks, rules).valid


@given(cs.plausible_towers(), cs.ranks(2), cs.rules)
def test_uses_never_exceed_ranks(tower: Tower, ranks: SkillRanks, rules: Rules) -> None:
    result = check_tower(tower, ranks, rules)
    for accounting in result.accountings:
        for skill in SKILL_ORDER:
            assert accounting[skill] <= ranks[skill]


@given(cs.plausible_towers(), cs.rules)
def test_valid_with_its_own_uses_as_ranks(tower: Tower, rules: Rules) -> None:
    """A valid tower stays valid under exactly the ranks its accounting spends."""
    generous = SkillRanks(3, 3, 3, 3, 3)
    result = check_tower(tower, generous, rules)
    for accounting in result.accountings:
        assert check_tower(tower, SkillRanks(**accounting.as_dict()), rules).valid
