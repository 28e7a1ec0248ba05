"""The CP-SAT variable layout shared by every tower question, and the tower rules on it.

Per level: an `active` literal (active levels are contiguous from the bottom), a count per
casteller size (identical castellers are interchangeable, so no per-casteller variables), a
one-hot low size and a `mixed` literal (high = low + mixed), and the skill-use literals.
Every use literal is exact (true iff the tower needs that use at the chosen k), so skill
exhibitions can demand them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from models.checker import SkillUses
from models.pool import Pool
from models.rules import Rules
from models.skills import Skill, SkillRanks
from models.tower import Tower
from planner.bounds import level_cap

Lit = cp_model.IntVar


@dataclass
class TowerLayout:
    model: cp_model.CpModel
    pool: Pool
    ranks: SkillRanks
    rules: Rules
    levels: int
    active: list[Lit]
    count: list[dict[int, Lit]]  # count[l][size]
    present: list[dict[int, Lit]]
    low: list[dict[int, Lit]]  # one-hot low size
    mixed: list[Lit]
    lo: list[cp_model.LinearExpr]
    hi: list[cp_model.LinearExpr]
    width_k: Lit
    n: list[cp_model.LinearExpr]
    balance: list[Lit]  # index l: level l stands on l-1 with as many castellers (l >= 1)
    strength: list[Lit]  # index l: level l's high equals level l-1's low (l >= 1)
    base: list[Lit]  # level l exceeds the width limit
    width_used: list[Lit]  # level l is wider than the base limit without Base

    def height(self) -> cp_model.LinearExpr:
        return sum(self.active)  # type: ignore[return-value]

    def castellers(self) -> cp_model.LinearExpr:
        return sum(self.n)  # type: ignore[return-value]

    def of_size(self, size: int) -> cp_model.LinearExpr:
        return sum(self.count[l][size] for l in range(self.levels))  # type: ignore[return-value]

    def require_use(self, skill: Skill) -> None:
        literals = {
            Skill.BALANCE: self.balance[1:],
            Skill.MIX: self.mixed,
            Skill.STRENGTH: self.strength[1:],
            Skill.BASE: self.base,
            Skill.WIDTH: self.width_used,
        }[skill]
        self.model.add_bool_or(literals)

    def tower(self, solver: cp_model.CpSolver) -> Tower:
        levels = []
        for l in range(self.levels):
            if not solver.boolean_value(self.active[l]):
                break
            sizes = [s for s, var in self.count[l].items() for _ in range(solver.value(var))]
            levels.append(sizes)
        return Tower.of(levels)

    def uses(self, solver: cp_model.CpSolver, tower: Tower) -> SkillUses:
        """The accounting the solver chose (its k and Base levels)."""
        height = tower.height
        freed = [l for l in range(height) if solver.boolean_value(self.base[l])]
        kept = [c for l, c in enumerate(tower.shape) if l not in freed]
        width = max([c - self.rules.width_limit for c in kept], default=0)

        def total(literals: list[Lit]) -> int:
            return sum(solver.boolean_value(x) for x in literals)

        return SkillUses(balance=total(self.balance[1:height]), base=len(freed),
                         mix=total(self.mixed[:height]), strength=total(self.strength[1:height]),
                         width=max(0, width))


def build_layout(model: cp_model.CpModel, pool: Pool, ranks: SkillRanks, rules: Rules,
                 levels: int) -> TowerLayout:
    sizes = pool.sizes
    W = rules.width_limit
    false = model.new_constant(0)
    active: list[Lit] = []
    mixed: list[Lit] = []
    count: list[dict[int, Lit]] = []
    present: list[dict[int, Lit]] = []
    low: list[dict[int, Lit]] = []
    lo: list[cp_model.LinearExpr] = []
    hi: list[cp_model.LinearExpr] = []
    n: list[cp_model.LinearExpr] = []
    for l in range(levels):
        cap = level_cap(l, pool, ranks, rules)
        act = model.new_bool_var(f"active{l}")
        if l:
            model.add_implication(act, active[l - 1])
        cnt = {s: model.new_int_var(0, min(pool.count(s), cap), f"c{l}_{s}") for s in sizes}
        pres = {s: model.new_bool_var(f"p{l}_{s}") for s in sizes}
        lows = {s: model.new_bool_var(f"low{l}_{s}") for s in sizes}
        mix = model.new_bool_var(f"mix{l}")
        model.add_implication(mix, act)
        for s in sizes:
            model.add(cnt[s] >= 1).only_enforce_if(pres[s])
            model.add(cnt[s] == 0).only_enforce_if(pres[s].Not())
            model.add_implication(lows[s], pres[s])
            # a size is present only as the level's low or, in a mixed level, low + 1
            model.add_bool_or([lows[s], lows.get(s - 1, false)]).only_enforce_if(pres[s])
            if s + 1 in pres:
                model.add(pres[s + 1] == mix).only_enforce_if(lows[s])
            else:
                model.add_implication(lows[s], mix.Not())
        model.add(sum(lows.values()) == act)
        model.add(sum(cnt.values()) <= cap)
        active.append(act)
        count.append(cnt)
        present.append(pres)
        low.append(lows)
        mixed.append(mix)
        lo.append(cp_model.LinearExpr.weighted_sum(list(lows.values()), list(lows)))
        hi.append(lo[-1] + mix)
        n.append(cp_model.LinearExpr.sum(list(cnt.values())))
    for s in sizes:
        model.add(sum(count[l][s] for l in range(levels)) <= pool.count(s))

    k = model.new_int_var(0, ranks.width, "width_k")
    balance, strength, base, width_used = [false], [false], [], []
    for l in range(levels):
        exceeds = model.new_bool_var(f"base{l}")
        model.add_implication(exceeds, active[l])
        if rules.base_scope == "bottom-only" and l > 0:
            model.add(exceeds == 0)
        model.add(n[l] <= W + k).only_enforce_if(exceeds.Not())
        model.add(n[l] >= W + 1 + k).only_enforce_if(exceeds)
        wide = model.new_bool_var(f"wide{l}")
        model.add_implication(wide, exceeds.Not())
        model.add(n[l] >= W + 1).only_enforce_if(wide)
        base.append(exceeds)
        width_used.append(wide)
        if l == 0:
            continue
        up = active[l]
        strong = model.new_bool_var(f"strength{l}")
        model.add_implication(strong, up)
        model.add(hi[l] == lo[l - 1]).only_enforce_if(strong)
        model.add(hi[l] + 1 <= lo[l - 1]).only_enforce_if([up, strong.Not()])
        even = model.new_bool_var(f"balance{l}")
        model.add_implication(even, up)
        model.add(n[l] == n[l - 1]).only_enforce_if(even)
        if rules.decrease == "one-fewer":
            model.add(n[l] == n[l - 1] - 1).only_enforce_if([up, even.Not()])
        else:
            model.add(n[l] <= n[l - 1] - 1).only_enforce_if([up, even.Not()])
        strength.append(strong)
        balance.append(even)
    model.add(sum(balance) <= ranks.balance)
    model.add(sum(strength) <= ranks.strength)
    model.add(sum(mixed) <= ranks.mix)
    model.add(sum(base) <= ranks.base)
    return TowerLayout(model, pool, ranks, rules, levels, active, count, present, low, mixed,
                       lo, hi, k, n, balance, strength, base, width_used)
