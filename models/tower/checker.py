"""The solver-free rule checker: the executable statement of rules R1..R4 and the five skills.

Every tower a solver returns is checked here; every objective a solver reports is recomputed
here. Nothing in this module may use a solver.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from models.tower.pool import Pool
from models.tower.rules import STANDARD, Rules
from models.tower.skills import SKILL_ORDER, Skill, SkillRanks
from models.tower.tower import Tower


@dataclass(frozen=True)
class Violation:
    """One broken rule. `rule` is R1..R4, `size`, `pool` or `rank`; `level` is 1-based."""

    rule: str
    level: int | None
    message: str

    def as_dict(self) -> dict[str, object]:
        """The violation as JSON."""
        return {"rule": self.rule, "level": self.level, "message": self.message}


@dataclass(frozen=True)
class SkillUses:
    """How many uses of each skill one valid accounting of a tower spends."""

    balance: int = 0
    base: int = 0
    mix: int = 0
    strength: int = 0
    width: int = 0

    def __getitem__(self, skill: Skill) -> int:
        uses: int = getattr(self, skill.value)
        return uses

    def used(self) -> frozenset[Skill]:
        """The skills used at least once."""
        return frozenset(s for s in SKILL_ORDER if self[s] > 0)

    def as_dict(self) -> dict[str, int]:
        """The uses per skill as JSON."""
        return {s.value: self[s] for s in SKILL_ORDER}


@dataclass(frozen=True)
class FixedNeeds:
    """The uses a tower's shape fixes by itself (Balance, Mix, Strength), as 1-based levels."""

    balance: tuple[int, ...] = ()
    mix: tuple[int, ...] = ()
    strength: tuple[int, ...] = ()


@dataclass(frozen=True)
class CheckResult:
    """The checker's verdict on a tower: its violations and one valid accounting of skill uses."""
    tower: Tower
    violations: tuple[Violation, ...]
    accountings: tuple[SkillUses, ...] = field(default=())

    @property
    def valid(self) -> bool:
        """Whether the tower breaks no rule."""
        return not self.violations

    @property
    def uses(self) -> SkillUses | None:
        """The accounting with the fewest Width uses (then the fewest Base uses)."""
        return self.accountings[0] if self.valid and self.accountings else None

    def usable_skills(self) -> frozenset[Skill]:
        """Skills that some valid accounting uses (not necessarily all in one accounting)."""
        found: frozenset[Skill] = frozenset()
        for accounting in self.accountings:
            found |= accounting.used()
        return found

    def accounting_using(self, skills: Iterable[Skill]) -> SkillUses | None:
        """The first valid accounting that uses every one of `skills`, if any."""
        wanted = frozenset(skills)
        return next((a for a in self.accountings if wanted <= a.used()), None)

    def uses_all(self, skills: Iterable[Skill]) -> bool:
        """One single valid accounting uses every one of `skills` (a skill exhibition's test)."""
        return self.valid and self.accounting_using(skills) is not None


def _base_freed(counts: Sequence[int], limit: int) -> list[int]:
    """0-based levels over the width limit, i.e. the levels Base must free."""
    return [i for i, count in enumerate(counts) if count > limit]


def _freeable(over: Sequence[int], ranks: SkillRanks, rules: Rules) -> int:
    """How many of the levels over the width limit (`over`, 0-based, bottom first) Base may
    free: one per use, or with the bottom-only reading just the bottom level."""
    if rules.base_scope == "bottom-only":
        return 1 if over and over[0] == 0 and ranks.base else 0
    return ranks.base


def _width_fits(counts: Sequence[int], k: int, ranks: SkillRanks, rules: Rules) -> bool:
    over = _base_freed(counts, rules.width_limit + k)
    return len(over) <= _freeable(over, ranks, rules)


def width_accountings(
    counts: Sequence[int], ranks: SkillRanks, rules: Rules = STANDARD
) -> list[tuple[int, int]]:
    """Every distinct (width uses, base uses) pair a valid choice of k allows, fewest width first.

    Width uses = how far the widest level that is not freed by Base exceeds the base limit.
    """
    pairs: list[tuple[int, int]] = []
    for k in range(ranks.width + 1):
        if not _width_fits(counts, k, ranks, rules):
            continue
        limit = rules.width_limit + k
        freed = _base_freed(counts, limit)
        kept = [c for c in counts if c <= limit]
        width = max([c - rules.width_limit for c in kept if c > rules.width_limit], default=0)
        pair = (width, len(freed))
        if pair not in pairs:
            pairs.append(pair)
    return pairs


def count_steps(counts: Sequence[int], rules: Rules = STANDARD
                ) -> tuple[list[int], list[Violation]]:
    """R4 on the level counts alone: the (1-based) levels that need Balance, and the
    violations no skill can excuse."""
    balance: list[int] = []
    out: list[Violation] = []
    for index in range(1, len(counts)):
        number, count, below = index + 1, counts[index], counts[index - 1]
        if count > below:
            out.append(Violation("R4", number, f"level {number} holds {count} castellers, "
                                 f"more than the {below} of level {number - 1}"))
        elif count == below:
            balance.append(number)
        elif rules.decrease == "one-fewer" and count < below - 1:
            out.append(Violation("R4", number, f"level {number} holds {count}, "
                                 f"{below - count} fewer than level {number - 1}; "
                                 f"the {rules.name} rules allow exactly one fewer"))
    return balance, out


def _fixed_needs(tower: Tower, rules: Rules, out: list[Violation]) -> FixedNeeds:
    mix: list[int] = []
    strength: list[int] = []
    levels = tower.levels
    for index, level in enumerate(levels):
        number = index + 1
        for size in sorted(set(level.sizes)):
            if not rules.min_size <= size <= rules.max_size:
                out.append(Violation("size", number, f"level {number} has size {size}, outside "
                                     f"{rules.min_size}..{rules.max_size}"))
        if level.spread >= 2:
            out.append(Violation("R1", number, f"level {number} mixes sizes {level.high} and "
                                 f"{level.low}; Mix allows only sizes that differ by exactly 1"))
        elif level.spread == 1:
            mix.append(number)
        if index == 0:
            continue
        below = levels[index - 1]
        if level.high > below.low:
            out.append(Violation("R2", number, f"level {number} (largest {level.high}) stands on "
                                 f"level {number - 1} (smallest {below.low}); castellers above "
                                 "must be smaller"))
        elif level.high == below.low:
            strength.append(number)
    balance, count_violations = count_steps(tower.shape, rules)
    out.extend(count_violations)
    return FixedNeeds(tuple(balance), tuple(mix), tuple(strength))


_FIXED_RULE = {Skill.BALANCE: "R4", Skill.MIX: "R1", Skill.STRENGTH: "R2"}
_FIXED_WHAT = {
    Skill.BALANCE: "holds as many castellers as the level below",
    Skill.MIX: "mixes two sizes",
    Skill.STRENGTH: "has castellers as large as the smallest of the level below",
}


def _rank_violations(needs: FixedNeeds, ranks: SkillRanks, out: list[Violation]) -> None:
    for skill, levels in ((Skill.BALANCE, needs.balance), (Skill.MIX, needs.mix),
                          (Skill.STRENGTH, needs.strength)):
        rank = ranks[skill]
        if len(levels) <= rank:
            continue
        if rank == 0:
            for number in levels:
                out.append(Violation(_FIXED_RULE[skill], number, f"level {number} "
                                     f"{_FIXED_WHAT[skill]}; that needs {skill.value.title()} "
                                     "(rank 0)"))
        else:
            where = ", ".join(map(str, levels))
            out.append(Violation("rank", None, f"the tower needs {skill.value.title()} "
                                 f"{len(levels)} times (levels {where}) but its rank is {rank}"))


def _width_violations(counts: Sequence[int], ranks: SkillRanks, rules: Rules,
                      out: list[Violation]) -> None:
    limit = rules.width_limit + ranks.width
    over = _base_freed(counts, limit)
    freeable = _freeable(over, ranks, rules)
    how = f"{rules.width_limit} + Width {ranks.width}" if ranks.width else "no Width"
    for index in over[freeable:]:
        number = index + 1
        base_note = (f"; Base {ranks.base} frees only {freeable} level(s)" if ranks.base
                     else "; Base (rank 0) frees none")
        out.append(Violation("R3", number, f"level {number} holds {counts[index]} castellers; "
                             f"the width limit is {limit} ({how}){base_note}"))


def _pool_violations(tower: Tower, pool: Pool, out: list[Violation]) -> None:
    held = dict(pool.items)
    uses: dict[int, int] = {}
    for level in tower.levels:
        for size in level.sizes:
            uses[size] = uses.get(size, 0) + 1
    if all(count <= held.get(size, 0) for size, count in uses.items()):
        return  # the usual case, without building Counters
    for size in pool.missing_from(tower.sizes()):
        used = tower.size_counts()[size]
        noun = "casteller" if used == 1 else "castellers"
        out.append(Violation("pool", None, f"the tower uses {used} {noun} of size {size}; "
                             f"the pool has {pool.count(size)}"))


def check_tower(tower: Tower, ranks: SkillRanks | None = None, rules: Rules = STANDARD,
                pool: Pool | None = None) -> CheckResult:
    """Check `tower` under `ranks` and `rules` (and, if given, that `pool` holds its castellers)."""
    ranks = ranks or SkillRanks()
    violations: list[Violation] = []
    needs = _fixed_needs(tower, rules, violations)
    _rank_violations(needs, ranks, violations)
    counts = tower.shape
    pairs = width_accountings(counts, ranks, rules)
    if not pairs:
        _width_violations(counts, ranks, rules, violations)
    if pool is not None:
        _pool_violations(tower, pool, violations)
    violations.sort(key=lambda v: (v.level is None, v.level or 0))
    accountings = tuple(
        SkillUses(balance=len(needs.balance), base=base, mix=len(needs.mix),
                  strength=len(needs.strength), width=width)
        for width, base in pairs
    ) if not violations else ()
    return CheckResult(tower, tuple(violations), accountings)
