"""Upper bounds on a tower's height and level width, from the pool, ranks and rules."""

from __future__ import annotations

from models.pool import Pool
from models.rules import Rules
from models.skills import SkillRanks


def level_cap(level: int, pool: Pool, ranks: SkillRanks, rules: Rules) -> int:
    """The most castellers level `level` (0-based) can hold."""
    base_may_free = ranks.base > 0 and (rules.base_scope == "per-use" or level == 0)
    if base_may_free:
        return pool.total
    return min(pool.total, rules.width_limit + ranks.width)


def max_height(pool: Pool, ranks: SkillRanks, rules: Rules) -> int:
    """No valid tower from `pool` is taller than this.

    Level lows fall strictly except at Strength uses, and each is a pool size; level counts fall
    strictly except at Balance uses, starting from at most the bottom level's cap.
    """
    by_sizes = len(pool.sizes) + ranks.strength
    by_counts = level_cap(0, pool, ranks, rules) + ranks.balance
    if ranks.base > 0 and rules.base_scope == "bottom-only":
        by_counts = 1 + level_cap(1, pool, ranks, rules) + ranks.balance
    return max(0, min(pool.total, by_sizes, by_counts))
