"""Upper bounds on a tower's height and level width, from the pool, ranks and rules."""

from __future__ import annotations

from models.tower import Pool, Rules, SkillRanks


def level_cap(pool: Pool, ranks: SkillRanks, rules: Rules, *, freeable: bool = True) -> int:
    """The most castellers one level can hold: one size, or two adjacent sizes with Mix; and
    no more than the width limit unless Base may free it (`freeable`)."""
    by_sizes = max((pool.count(s) + (pool.count(s + 1) if ranks.mix else 0)
                    for s in pool.sizes), default=0)
    if ranks.base and freeable:
        return by_sizes
    return min(by_sizes, rules.width_limit + ranks.width)


def max_height(pool: Pool, ranks: SkillRanks, rules: Rules) -> int:
    """No valid tower from `pool` is taller than this.

    Level lows fall strictly except at Strength uses, and each is a pool size; level counts fall
    strictly except at Balance uses, starting from at most the bottom level's cap.
    """
    by_sizes = len(pool.sizes) + ranks.strength
    by_counts = level_cap(pool, ranks, rules) + ranks.balance
    if ranks.base > 0 and rules.base_scope == "bottom-only":
        # only the bottom level may be freed: the next one starts the count from the limit
        by_counts = 1 + level_cap(pool, ranks, rules, freeable=False) + ranks.balance
    return max(0, min(pool.total, by_sizes, by_counts))
