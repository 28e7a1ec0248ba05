"""The CP-SAT variable layout shared by every tower question, and the tower rules on it.

A tower's level lows never rise, so a tower is fixed by which *slots* it uses in one fixed
order: for each pool size s, largest first, slot (s, 0) is "a level whose low size is s", and
slots (s, 1), (s, 2), ... are further levels of low s stacked on it, each one a Strength use.
Each slot has an `active` literal and two casteller counts, of size s and of size s + 1 (a
mixed level); no per-casteller variables, so identical castellers cannot make symmetric
solutions, and no level has to choose its size. The tower is the active slots, bottom to top.

Every skill-use literal is exact (true iff the tower needs that use at the chosen k), so skill
exhibitions can demand them. The rules are posted both as enforced constraints and, where it
helps the LP relaxation, as plain linear inequalities that telescope along the tower.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ortools.sat.python import cp_model

from models.tower import Festival, Pool, Rules, ShapeTile, Skill, SkillRanks, SkillUses, Tile, Tower
from planner.tower.bounds import level_cap, tallest

Var = cp_model.IntVar
Expr = cp_model.LinearExprT


@dataclass(frozen=True)
class LayoutCaps:
    """A pool and ranks that are themselves decided by a bigger model (the turn planner): the
    layout is built for upper bounds and these expressions cap what the tower may use."""

    counts: Mapping[int, Expr]  # castellers of each size the tower may use
    ranks: Mapping[Skill, Expr]  # each skill's rank
    base_any: Var | None = None  # true iff the Base rank is >= 1 (for the bottom-only reading)


@dataclass
class LevelSlot:
    """A candidate level of the CP-SAT layout: its low size, its place in the stack, its counts."""
    low: int
    stacked: int  # 0 for the first level of this low size, j for the j-th one stacked on it
    active: Var
    lows: Var  # castellers of size `low`
    highs: Var  # castellers of size `low + 1` (only in a mixed level)
    mixed: Var
    balance: Var  # as many castellers as the level below
    strength: Var  # high size equal to the low size of the level below
    base: Var  # over the width limit, freed by Base
    wide: Var  # over the base limit of 3 without Base: a Width use

    @property
    def n(self) -> cp_model.LinearExpr:
        """The slot's castellers, as a model expression."""
        return self.lows + self.highs


@dataclass
class TowerLayout:
    """The CP-SAT tower layout: its model, pool, ranks and slots, with the skill-use literals."""
    model: cp_model.CpModel
    pool: Pool
    ranks: SkillRanks
    rules: Rules
    slots: list[LevelSlot]
    width_k: Var
    objective: cp_model.LinearExprT | None = None  # set by the question's builder

    def height(self) -> cp_model.LinearExpr:
        """The tower's levels, as a model expression."""
        return cp_model.LinearExpr.sum([s.active for s in self.slots])

    def castellers(self) -> cp_model.LinearExpr:
        """The tower's castellers, as a model expression."""
        return cp_model.LinearExpr.sum([s.n for s in self.slots])

    def of_size(self, size: int) -> cp_model.LinearExpr:
        """The tower's castellers of a size, as a model expression."""
        terms = [s.lows for s in self.slots if s.low == size]
        terms += [s.highs for s in self.slots if s.low + 1 == size]
        return cp_model.LinearExpr.sum(terms)

    def require_use(self, skill: Skill, when: Var | None = None) -> None:
        """The tower uses `skill` (only if `when`, when given)."""
        field = {Skill.BALANCE: "balance", Skill.MIX: "mixed", Skill.STRENGTH: "strength",
                 Skill.BASE: "base", Skill.WIDTH: "wide"}[skill]
        used = self.model.add_bool_or([getattr(s, field) for s in self.slots])
        if when is not None:
            used.only_enforce_if(when)

    def require_shape(self, counts: tuple[int, ...], when: Var | None = None) -> None:
        """Exactly these counts per level, bottom to top (only if `when`, when given)."""
        model = self.model
        enforce = [] if when is None else [when]
        model.add(self.height() == len(counts)).only_enforce_if(enforce)
        table = list(counts) + [0] * len(self.slots)
        below: cp_model.LinearExpr = cp_model.LinearExpr.constant(0)
        for index, slot in enumerate(self.slots):
            position = model.new_int_var(0, len(self.slots), f"pos{index}")
            model.add(position == below)
            wanted = model.new_int_var(0, max(table), f"wanted{index}")
            model.add_element(position, table, wanted)
            model.add(slot.n == wanted).only_enforce_if([slot.active, *enforce])
            below = below + slot.active

    def require_tile(self, tile: Tile, when: Var | None = None) -> None:
        """The tower meets `tile` (only if `when`, when given): exactly its shape, or exactly
        its points in levels using every listed skill (the layout needs `choose_k` then)."""
        if isinstance(tile, ShapeTile):
            self.require_shape(tile.counts, when)
            return
        enforce = [] if when is None else [when]
        self.model.add(self.height() == tile.points).only_enforce_if(enforce)
        for skill in tile.ordered_skills():
            self.require_use(skill, when)

    def festival_score(self, festival: Festival, when: Var | None = None
                       ) -> cp_model.LinearExpr:
        """The tower may compete at `festival` (only if `when`, when given): its score."""
        enforce = [] if when is None else [when]
        model = self.model
        model.add(self.height() >= self.rules.festival_min_levels).only_enforce_if(enforce)
        matched = []
        for size in sorted(festival.token_sizes):
            if size not in self.pool.sizes:  # no such casteller: it can never compete
                model.add_bool_or([] if when is None else [when.Not()])
                continue
            model.add(self.of_size(size) >= 1).only_enforce_if(enforce)
            matched.append(self.of_size(size))
        return self.height() + cp_model.LinearExpr.sum(matched)

    def forbid(self, tower: Tower) -> None:
        """No solution may be `tower` (as per-level size multisets): the tower fixes every
        slot's activity and counts, so it is enough that one of those differs."""
        wanted: dict[int, tuple[int, int]] = {}
        stacked: dict[int, int] = {}
        for level in tower.levels:
            low = level.low
            j = stacked.get(low, 0)
            stacked[low] = j + 1
            index = next((i for i, s in enumerate(self.slots)
                          if s.low == low and s.stacked == j), None)
            if index is None:
                return  # no slot can hold this level: the model cannot produce this tower
            wanted[index] = (level.sizes.count(low), level.count - level.sizes.count(low))
        differs = []
        for index, slot in enumerate(self.slots):
            lows, highs = wanted.get(index, (0, 0))
            for var, value in ((slot.lows, lows), (slot.highs, highs)):
                other = self.model.new_bool_var(f"differs{index}")
                self.model.add(var != value).only_enforce_if(other)
                differs.append(other)
        self.model.add_bool_or(differs)

    def tower(self, solver: cp_model.CpSolver) -> Tower:
        """The tower of a solved layout."""
        levels = []
        for slot in self.slots:
            if solver.boolean_value(slot.active):
                levels.append([slot.low] * solver.value(slot.lows)
                              + [slot.low + 1] * solver.value(slot.highs))
        return Tower.of(levels)

    def uses(self, solver: cp_model.CpSolver) -> SkillUses:
        """The accounting the solver chose (its k and Base levels)."""
        active = [s for s in self.slots if solver.boolean_value(s.active)]

        def total(field: str) -> int:
            return sum(solver.boolean_value(getattr(s, field)) for s in active)

        kept = [solver.value(s.n) for s in active if not solver.boolean_value(s.base)]
        width = max([c - self.rules.width_limit for c in kept] + [0])
        return SkillUses(balance=total("balance"), base=total("base"), mix=total("mixed"),
                         strength=total("strength"), width=width)


def _add_position_shadow(model: cp_model.CpModel, slots: list[LevelSlot], W: int, cap: int,
                         k: Var, height: int, one_size: int) -> None:
    """Per-position counts c_0 >= c_1 >= ... that every valid tower also satisfies.

    They add no rule (the slots already hold every rule exactly), but they tie the counts to
    positions in the tower, which the slot order leaves open in the LP relaxation: without
    them, a fractional solution spreads a few levels over many slots and bounds the number of
    castellers far too loosely.
    """
    on = [model.new_bool_var(f"y{p}") for p in range(height)]
    count = [model.new_int_var(0, cap, f"c{p}") for p in range(height)]
    even = [model.new_bool_var(f"B{p}") for p in range(height)]
    freed = [model.new_bool_var(f"F{p}") for p in range(height)]
    mixed = [model.new_bool_var(f"M{p}") for p in range(height)]
    for p in range(height):
        # a level holds one size, or two with Mix
        model.add(count[p] <= one_size + (cap - one_size) * mixed[p])
        model.add_implication(mixed[p], on[p])
        model.add(count[p] >= on[p])
        model.add(count[p] <= cap * on[p])
        model.add(count[p] <= W + k + (cap - W) * freed[p])
        model.add_implication(freed[p], on[p])
        model.add_implication(even[p], on[p])
        if p:
            model.add_implication(on[p], on[p - 1])
            model.add(count[p] <= count[p - 1] - on[p] + even[p])
    if height:
        model.add(even[0] == 0)
    model.add(sum(on) == sum(s.active for s in slots))
    model.add(sum(count) == sum(s.n for s in slots))
    model.add(sum(even) == sum(s.balance for s in slots))
    model.add(sum(freed) == sum(s.base for s in slots))
    model.add(sum(mixed) == sum(s.mixed for s in slots))


def build_layout(model: cp_model.CpModel, pool: Pool, ranks: SkillRanks, rules: Rules, *,
                 choose_k: bool = False, limits: LayoutCaps | None = None) -> TowerLayout:
    """The slots and the rules R1..R4 with every skill exception.

    Unless `choose_k`, the width limit is raised by the whole Width rank: the most permissive
    accounting, so no tower is lost. A skill exhibition needs `choose_k`, since using Width and
    Base together may need a smaller k. With `limits`, `pool` and `ranks` are upper bounds and
    the limits' expressions are the real pool and ranks (k is then always chosen).
    """
    choose_k = choose_k or limits is not None
    k = model.new_int_var(0 if choose_k else ranks.width, ranks.width, "width_k")
    slots = _Slots(model, pool, ranks, rules, k)
    for size in sorted(pool.sizes, reverse=True):
        for j in range(min(ranks.strength, pool.count(size) - 1) + 1):
            slots.add(size, j)
    _within_pool_and_ranks(model, pool, ranks, rules, slots.slots, k, limits)
    return TowerLayout(model, pool, ranks, rules, slots.slots, k)


class _Slots:
    """The layout's slots, built bottom-up (largest low size first): each one's variables and
    the rules tying it to the nearest active level below."""

    def __init__(self, model: cp_model.CpModel, pool: Pool, ranks: SkillRanks, rules: Rules,
                 k: Var) -> None:
        self.model, self.pool, self.rules, self.k = model, pool, rules, k
        self.cap, self.total = level_cap(pool, ranks, rules), pool.total
        self.zero = model.new_constant(0)
        self.slots: list[LevelSlot] = []
        self.first_of: dict[int, LevelSlot] = {}
        self.previous_count: cp_model.LinearExpr | int = self.total + 1  # none below the bottom
        self.anything_below: Var = self.zero

    def add(self, size: int, j: int) -> None:
        """LevelSlot `j` of low size `size` (j > 0: a level standing on the one before by
        Strength)."""
        model, name = self.model, f"{size}_{j}"
        act, lows, mixed, highs = self._castellers(size, j, name)
        strength = self._strength(size, j, name, act, mixed)
        n = lows + highs
        model.add(n <= self.cap)
        count, balance = self._decrease(name, act, n)
        base, wide = self._width_and_base(name, act, n)
        slot = LevelSlot(size, j, act, lows, highs, mixed, balance, strength, base, wide)
        self.slots.append(slot)
        if j == 0:
            self.first_of[size] = slot
        below = model.new_bool_var(f"below{name}")
        model.add_bool_or([self.anything_below, act]).only_enforce_if(below)
        model.add_implication(self.anything_below, below)
        model.add_implication(act, below)
        self.previous_count, self.anything_below = count, below

    def _castellers(self, size: int, j: int, name: str) -> tuple[Var, Var, Var, Var]:
        """The slot's active literal and castellers of its low size, and (the first slot of
        a size) a mixed level's castellers of size + 1."""
        model, pool, cap, zero = self.model, self.pool, self.cap, self.zero
        act = model.new_bool_var(f"active{name}")
        lows = model.new_int_var(0, min(pool.count(size), cap), f"lows{name}")
        model.add(lows >= act)
        model.add(lows <= min(pool.count(size), cap) * act)
        mixed, highs = zero, zero
        if j == 0 and pool.count(size + 1):
            mixed = model.new_bool_var(f"mixed{name}")
            highs = model.new_int_var(0, min(pool.count(size + 1), cap), f"highs{name}")
            model.add(highs >= mixed)
            model.add(highs <= min(pool.count(size + 1), cap) * mixed)
            model.add_implication(mixed, act)
        return act, lows, mixed, highs

    def _strength(self, size: int, j: int, name: str, act: Var, mixed: Var) -> Var:
        """Whether the slot stands on the level below by Strength: a later slot of its size
        always; the first, when mixed and its high equals the low of a level of low size + 1
        below it."""
        model, zero = self.model, self.zero
        if j:
            model.add_implication(act, self.slots[-1].active)
            return act
        upper = self.first_of.get(size + 1)
        strength = zero
        if upper is not None and mixed is not zero:
            strength = model.new_bool_var(f"strength{name}")
            model.add_bool_and([mixed, upper.active]).only_enforce_if(strength)
            model.add_bool_or([mixed.Not(), upper.active.Not(), strength])
        return strength

    def _decrease(self, name: str, act: Var, n: Expr) -> tuple[Var, Var]:
        """R4 and Balance, on the count of the nearest active level below (`previous`)."""
        model, previous = self.model, self.previous_count
        count = model.new_int_var(0, self.total + 1, f"count{name}")
        model.add(count == n).only_enforce_if(act)
        model.add(count == previous).only_enforce_if(act.Not())
        balance = model.new_bool_var(f"balance{name}")
        model.add_implication(balance, act)
        model.add(count == previous).only_enforce_if(balance)
        if self.rules.decrease == "one-fewer":
            model.add(count == previous - 1).only_enforce_if(
                [act, balance.Not(), self.anything_below])
        model.add(count <= previous - 1).only_enforce_if([act, balance.Not()])
        model.add(previous - count >= act - balance)
        return count, balance

    def _width_and_base(self, name: str, act: Var, n: Expr) -> tuple[Var, Var]:
        """R3 with Width (k) and Base."""
        model, width, k = self.model, self.rules.width_limit, self.k
        base = model.new_bool_var(f"base{name}")
        model.add_implication(base, act)
        model.add(n <= width + k).only_enforce_if(base.Not())
        model.add(n >= width + 1 + k).only_enforce_if(base)
        wide = model.new_bool_var(f"wide{name}")
        model.add_implication(wide, base.Not())
        model.add(n >= width + 1).only_enforce_if(wide)
        return base, wide


def _within_pool_and_ranks(model: cp_model.CpModel, pool: Pool, ranks: SkillRanks,
                           rules: Rules, slots: list[LevelSlot], k: Var,
                           limits: LayoutCaps | None) -> None:
    """The castellers of each size within the pool, each skill's uses within its rank, the
    span of sizes, the position shadow and the levels Base frees."""
    cap = level_cap(pool, ranks, rules)
    counts: Mapping[int, Expr] = limits.counts if limits else pool.counts()
    rank: Mapping[Skill, Expr] = limits.ranks if limits else {s: ranks[s] for s in Skill}
    for size in pool.sizes:
        used = [s.lows for s in slots if s.low == size]
        used += [s.highs for s in slots if s.low + 1 == size]
        model.add(sum(used) <= counts[size])
    model.add(sum(s.balance for s in slots) <= rank[Skill.BALANCE])
    model.add(sum(s.strength for s in slots) <= rank[Skill.STRENGTH])
    model.add(sum(s.mixed for s in slots) <= rank[Skill.MIX])
    if limits is not None:
        model.add(k <= rank[Skill.WIDTH])
    # each level takes one more size value than the level below (two if mixed) unless it
    # stands on it by Strength: the pool's span of sizes bounds that sum
    span = max(pool.sizes, default=0) - min(pool.sizes, default=0) + 1
    model.add(sum(s.active + s.mixed - s.strength for s in slots) <= span)
    one_size = min(cap, max((pool.count(s) for s in pool.sizes), default=0))
    _add_position_shadow(model, slots, rules.width_limit, cap, k,
                         tallest(pool, ranks, rules), one_size)
    # counts never grow upwards, so freed levels are a bottom prefix: at most `freeable` of them
    model.add(sum(s.base for s in slots) <= _freeable(ranks, rules, rank, limits))


def _freeable(ranks: SkillRanks, rules: Rules, rank: Mapping[Skill, Expr],
              limits: LayoutCaps | None) -> Expr:
    """How many levels Base may free: its rank, or with the bottom-only reading one at most
    (with `limits`, whether any Base rank is held)."""
    freeable: Expr = min(ranks.base, 1) if rules.base_scope == "bottom-only" else ranks.base
    if limits is not None:
        bottom_only = rules.base_scope == "bottom-only"
        if bottom_only and limits.base_any is None:
            raise ValueError("the bottom-only Base reading needs limits.base_any")
        freeable = limits.base_any if bottom_only else rank[Skill.BASE]  # type: ignore[assignment]
    return freeable
