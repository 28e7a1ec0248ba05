"""Hand-checked towers: at least two per rule and per skill. Each row says why in its id."""

import pytest

from models.tower import VARIANTS, Pool, SkillRanks, Tower, check_tower

# (id, tower, skills, variant, expected violated rules (empty = valid), expected uses or None)
CASES = [
    # R1: one size per level
    ("r1-one-size", "5,5/4", "", "standard", set(), dict(mix=0)),
    ("r1-two-sizes-no-mix", "6,5/4", "", "standard", {"R1"}, None),
    ("r1-spread-2-even-with-mix", "7,5/4", "mix=3", "standard", {"R1"}, None),
    # Mix: spread of exactly 1, one use per mixed level
    ("mix-spread-1", "6,5/4", "mix=1", "standard", set(), dict(mix=1)),
    ("mix-two-levels-need-rank-2", "8,7,7/5,4", "mix=1", "standard", {"rank"}, None),
    ("mix-two-levels-rank-2", "8,7,7/5,4", "mix=2", "standard", set(), dict(mix=2)),
    # R2: smaller above
    ("r2-smaller-above", "9,9,9/8,8/7", "", "standard", set(), dict(strength=0)),
    ("r2-larger-on-smaller", "5/6", "", "standard", {"R2", "R4"}, None),
    ("r2-larger-on-smaller-even-with-strength", "5,5/6", "strength=3", "standard", {"R2"}, None),
    ("r2-mixed-level-max-vs-min", "7,6/6", "mix=1", "standard", {"R2"}, None),
    # Strength: same size on same size, one use per pair
    ("strength-equal", "6,6/6", "strength=1", "standard", set(), dict(strength=1)),
    ("strength-needed", "6,6/6", "", "standard", {"R2"}, None),
    ("strength-mixed-top", "7,7/7,6", "strength=1,mix=1,balance=1", "standard", set(),
     dict(strength=1, mix=1, balance=1)),
    ("strength-twice-rank-1", "6,6,6/6,6/6", "strength=1", "standard", {"rank"}, None),
    # R3: width limit 3
    ("r3-three-wide", "9,9,9/7,7/5", "", "standard", set(), dict(width=0, base=0)),
    ("r3-four-wide", "9,9,9,9/7,7,7/5,5/3", "", "standard", {"R3"}, None),
    # Width: raises the limit by one per rank
    ("width-1-pays-four", "9,9,9,9/7,7,7/5,5/3", "width=1", "standard", set(), dict(width=1)),
    ("width-1-not-five", "9x5/7x4/5x3/3,3/2", "width=1", "standard", {"R3"}, None),
    ("width-2-pays-five", "9x5/7x4/5x3/3,3/2", "width=2", "standard", set(), dict(width=2)),
    # Base: frees one level per use
    ("base-frees-bottom", "9x6/7x3/5,5/3", "base=1", "standard", set(), dict(base=1, width=0)),
    ("base-one-use-two-wide", "9x6/7x5/5,5/3", "base=1", "standard", {"R3"}, None),
    ("base-two-uses", "9x6/7x5/5,5/3", "base=2", "standard", set(), dict(base=2)),
    # a level of 4 paid by Width or by Base
    ("four-paid-by-width", "9x4/7x3/5,5/3", "width=1", "standard", set(), dict(width=1, base=0)),
    ("four-paid-by-base", "9x4/7x3/5,5/3", "base=1", "standard", set(), dict(width=0, base=1)),
    ("five-and-four-width-and-base", "9x5/7x4/5x3/3", "width=1,base=1", "standard", set(),
     dict(width=1, base=1)),
    # R4: fewer above
    ("r4-fewer", "9,9,9/7/5", "", "standard", {"R4"}, None),  # 1 on 1 needs Balance
    ("r4-any-decrease", "9,9,9/7", "", "standard", set(), dict(balance=0)),
    ("r4-more-above", "9/7,7", "", "standard", {"R4"}, None),
    ("r4-more-above-even-with-balance", "9/7,7", "balance=3", "standard", {"R4"}, None),
    # Balance: as many as below, one use per level
    ("balance-equal", "9,9/7,7/5", "balance=1", "standard", set(), dict(balance=1)),
    ("balance-needed", "9,9/7,7/5", "", "standard", {"R4"}, None),
    ("balance-two-levels-rank-1", "9,9/7,7/5,5", "balance=1", "standard", {"rank"}, None),
    # one-fewer variant
    ("one-fewer-ok", "9,9,9/7,7/5", "", "one-fewer", set(), dict(balance=0)),
    ("one-fewer-gap", "9,9,9/7", "", "one-fewer", {"R4"}, None),
    ("one-fewer-balance", "9,9/7,7/5", "balance=1", "one-fewer", set(), dict(balance=1)),
    # bottom-base variant: only the bottom level may be freed
    ("bottom-base-frees-bottom", "9x6/7x3/5", "base=2", "bottom-base", set(), dict(base=1)),
    ("bottom-base-not-second", "9x6/7x5/5", "base=2", "bottom-base", {"R3"}, None),
]


@pytest.mark.parametrize(("tower", "skills", "variant", "broken", "uses"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hand_checked(tower: str, skills: str, variant: str, broken: set[str],
                      uses: dict[str, int] | None) -> None:
    result = check_tower(Tower.parse(tower), SkillRanks.parse(skills), VARIANTS[variant])
    assert {v.rule for v in result.violations} == broken, result.violations
    assert result.valid == (not broken)
    if uses is None:
        assert result.uses is None
    else:
        assert result.uses is not None
        for skill, expected in uses.items():
            assert getattr(result.uses, skill) == expected


def test_violations_name_the_level() -> None:
    result = check_tower(Tower.parse("9,9/7,7/5"))
    assert [(v.rule, v.level) for v in result.violations] == [("R4", 2)]
    assert "level 2" in result.violations[0].message


def test_pool_violation() -> None:
    result = check_tower(Tower.parse("9,9/7"), pool=Pool.parse("9,7,7"))
    assert [v.rule for v in result.violations] == ["pool"]
    assert "size 9" in result.violations[0].message
    assert check_tower(Tower.parse("9,9/7"), pool=Pool.parse("9,9,7")).valid


def test_exhibition_needs_one_accounting_for_all_skills() -> None:
    # 4-wide bottom with width=1,base=1: Width (k=1) or Base (k=0), never both at once
    result = check_tower(Tower.parse("9x4/7x3/5,5/3"), SkillRanks.parse("width=1,base=1"))
    assert result.usable_skills() >= {"width", "base"}
    assert result.uses_all({"width"}) and result.uses_all({"base"})
    assert not result.uses_all({"width", "base"})
    # 5-wide and 4-wide levels: Base frees the 5, Width pays the 4, in one accounting
    both = check_tower(Tower.parse("9x5/7x4/5x3/3"), SkillRanks.parse("width=1,base=1"))
    assert both.uses_all({"width", "base"})


def test_sizes_outside_the_rules_range_are_violations() -> None:
    result = check_tower(Tower.of([[11, 11], [9]]))
    assert [(v.rule, v.level) for v in result.violations] == [("size", 1)]
