"""The search of the tower dp (`planner.tower.dp`): A and B memoised, branch and bound.

    A(state): the best rest of a tower whose next level has low size at most s;
    B(state): the best rest inside the run of low s.

Each is asked with a threshold `alpha` (what its caller already has, less the caller's score so
far) and is exact only above it: an option whose score now plus `ceiling` (the most the rest of
the tower could add) cannot beat the state's best so far or `alpha` is not explored, and a
state whose stored bound is not enough for a later caller is evaluated again. The memo keeps,
per normalised state, (lo, hi): lo what a tower from the state reaches (its first level in
`choice`), hi a value no tower from it beats; lo == hi when the value is exact.
"""

from __future__ import annotations

import math

from models.tower import Level, Pool, Rules, SkillRanks, Tower
from planner.clock import now
from planner.stopping import stop_requested
from planner.tower.dp_space import (
    NEG,
    Ask,
    Laid,
    LevelChoice,
    OutOfMemory,
    OutOfTime,
    Space,
    State,
)

_CLOCK = 255  # look at the clock when the number of states is a multiple of this + 1

# the level laid (if any), and the next state: (True for B, False for A, the state as called)
Pick = tuple[LevelChoice | None, tuple[bool, State] | None]
_NOTHING: Pick = (None, None)


class _Best:
    """The best option of one state so far (`best`, reached by `pick`) and `hi`, the most an
    option not known exactly could give."""

    __slots__ = ("best", "hi", "pick")

    def __init__(self, best: int, pick: Pick) -> None:
        self.best, self.hi, self.pick = best, best, pick

    def floor(self, alpha: int) -> int:
        """What an option must beat to matter: the best so far, or the caller's threshold."""
        return self.best if self.best > alpha else alpha

    def bound(self, most: int) -> None:
        """An option left unexplored because at most `most` can come of it."""
        if most > self.hi:
            self.hi = most

    def offer(self, value: int, floor: int, level: LevelChoice | None, step: tuple[bool, State]
              ) -> None:
        if value > floor:
            self.best, self.pick = value, (level, step)
        elif value > self.hi:
            self.hi = value


class Search(Space):
    """One program: the memo of A and B and the search that fills it."""

    def __init__(self, ask: Ask, pool: Pool, ranks: SkillRanks, rules: Rules, k: int,
                 deadline: float, most_states: int, stoppable: bool, max_states: int) -> None:
        super().__init__(ask, pool, ranks, rules, k)
        # `most_states`: the A states this program may evaluate (its budget); `max_states`:
        # the most A and B states it keeps (`TowerBudget.max_states`, the memory bound)
        self.deadline, self.most_states, self.max_states = deadline, most_states, max_states
        self.clock = _stoppable_clock if stoppable else now
        self.memo_a: dict[State, tuple[int, int]] = {}
        self.memo_b: dict[State, tuple[int, int]] = {}
        self.keys_a: dict[State, State] = {}  # norm_a of the A states as called
        self.keys_b: dict[State, State] = {}  # norm_b of the B states as called
        self.choice_a: dict[State, Pick] = {}  # normalised A state -> its best option
        self.choice_b: dict[State, Pick] = {}
        self.evaluations = 0  # A states evaluated (again when a bound was not enough)
        self.b_evaluations = 0

    def tower(self) -> Tower | None:
        """The best tower, or None when no tower answers the question."""
        root = (self.smax, 0, 1, self.ranks.balance, self.ranks.strength, self.ranks.mix,
                self.f0, 0, 0, 0)
        if self.run_a(root, NEG) <= NEG // 2:
            return None
        levels: list[Level] = []
        step: tuple[bool, State] | None = (False, root)
        while step is not None:  # every state on the way was asked for, so its key is known
            is_b, raw = step
            level, step = (self.choice_b[self.keys_b[raw]] if is_b
                           else self.choice_a[self.keys_a[raw]])
            if level is not None:
                s, a, h = level
                levels.append(Level((s + 1,) * h + (s,) * a))  # largest first, as Level keeps
        return Tower(tuple(levels)) if levels else None

    def _keep(self, memo: dict[State, tuple[int, int]], choice: dict[State, Pick], key: State,
              found: _Best) -> int:
        hi = found.best if found.best > found.hi else found.hi
        memo[key] = (found.best, hi)
        choice[key] = found.pick
        return hi

    # --- A: the next level has low size at most s ---------------------------------------

    def run_a(self, raw: State, alpha: int) -> int:
        """A of the state as called (normalised here): exact when above `alpha`, else a bound
        at most `alpha`."""
        key = self.keys_a.get(raw)
        if key is None:
            key = self.keys_a[raw] = self.norm_a(raw)
        found = self.memo_a.get(key)
        if found is not None and (found[0] == found[1] or found[1] <= alpha):
            return found[1]
        return self._evaluate_a(key, alpha, found)

    def _evaluate_a(self, key: State, alpha: int, found: tuple[int, int] | None) -> int:
        """A on a level of `below` castellers (0: none); `free`: no casteller of size s + 1 is
        used yet and the level below has low >= s + 2, so a mixed level of low s needs no
        Strength. The next level has low size s (maybe mixed with s + 1), or less (A(s - 1))."""
        self.evaluations += 1
        if self.evaluations > self.most_states:
            # the state budget (deterministic work), or the memory bound when it is the same
            raise OutOfMemory if self.most_states >= self.max_states else OutOfTime
        if not self.evaluations & _CLOCK and self.clock() > self.deadline:
            raise OutOfTime
        s, below, free, b, t, m, f, idx, mask, wf = key
        if found is not None:
            best = _Best(found[0], self.choice_a[key])
        elif below == 0 and self.best_kind:
            best = _Best(NEG, _NOTHING)
        else:
            best = _Best(self.final(b, t, m, f, idx, mask, wf), _NOTHING)
        need = self.need_a[s] if free else self.need_b[s]
        if (s >= self.smin and (mask & need) == need and idx < self.height_cap
                and not (self.feasibility and best.best >= 0)):
            skip = (s - 1, below, 1, b, t, m, f, idx, mask, wf)
            floor = best.floor(alpha)
            best.offer(self.run_a(skip, floor), floor, None, (False, skip))
            if self.P[s]:
                self._levels_a(key, alpha, best)
        return self._keep(self.memo_a, self.choice_a, key, best)

    def _levels_a(self, key: State, alpha: int, best: _Best) -> None:
        """Every level of low s that A can lay, widest first."""
        s, below, free, b, t, _, f, idx, _, wf = key
        spare = self.P[s + 1] if free else 0
        nidx = idx + 1 if idx < self.index_cap else idx
        # Without Strength the size s castellers this level leaves serve nothing above (no
        # level can stand on its low size), so among the levels of one kind (kept or freed by
        # Base, mixed or not, no Balance use) the widest is best: it scores at least as much
        # and leaves the level above at least as much room (any decrease: with one fewer, a
        # narrower level can be what the level above needs; and not for an exhibition, where
        # a narrower level can be what lets a Balance use happen).
        widest_only = not t and self.any_decrease and not self.exhibition
        done: set[tuple[bool, bool]] = set()
        for c in self.counts_on(below, self.P[s] + spare):
            if self.feasibility and best.best >= 0:
                break
            laid = self.level(c, below, b, f, wf, idx)
            if laid is not None and self._count_a(key, c, laid, nidx, widest_only and not laid[0],
                                                  done, alpha, best):
                break  # score now and the bound only fall with the count: so do the rest

    def _count_a(self, key: State, c: int, laid: Laid, nidx: int, widest_only: bool,
                 done: set[tuple[bool, bool]], alpha: int, best: _Best) -> bool:
        """The levels of c castellers of low s, unmixed or mixed with size s + 1; True when the
        bound ruled out every one of them (and so every narrower one)."""
        s, _, free, b, t, m, _, _, mask, _ = key
        balance, nf, nwf = laid
        have, per, bit = self.P[s], self.per, self.bit
        splits = self.splits_of(s, c, self.P[s + 1] if free else 0, 0)
        tried: set[tuple[bool, bool]] = set()
        cut = 0  # splits of this count the bound rules out
        for h in splits:
            if widest_only:
                kind_of = (c > self.K, h > 0)
                if kind_of in done:
                    continue
                tried.add(kind_of)
            a = c - h
            now = self.base_gain + per[s] * a + per[s + 1] * h
            floor = best.best if best.best > alpha else alpha  # inline: the hot loop
            if self.bounded:
                most = now + self.ceiling(s, c, b - balance, t, nf, have - a, nidx)
                if most <= floor:
                    cut += 1
                    best.bound(most)
                    continue
            step = (s, c, have - a, b - balance, t, m - (h > 0), nf, nidx,
                    mask | bit[s] | (bit[s + 1] if h else 0), nwf)
            value = now + self.run_b(step, floor - now)
            if value > floor:  # `_Best.offer`, inline: the hot loop
                best.best, best.pick = value, ((s, a, h), (True, step))
            elif value > best.hi:
                best.hi = value
        if tried:
            done |= tried
        return 0 < cut == len(splits) and not balance and self.any_decrease

    # --- B: inside the run of low s -------------------------------------------------------

    def run_b(self, raw: State, alpha: int) -> int:
        """B of the state as called (normalised here), with `alpha` as in `run_a`."""
        key = self.keys_b.get(raw)
        if key is None:
            key = self.keys_b[raw] = self.norm_b(raw)
        found = self.memo_b.get(key)
        if found is not None and (found[0] == found[1] or found[1] <= alpha):
            return found[1]
        return self._evaluate_b(key, alpha, found)

    def _evaluate_b(self, key: State, alpha: int, found: tuple[int, int] | None) -> int:
        """B on a level of `below` castellers (low s); `rem` castellers of size s are left.
        The next level is one more of size s only, or a mixed level of low s - 1 topped by
        size s: both stand on low s, a Strength use each; or it has no casteller of size s
        (A of s - 1)."""
        self.b_evaluations += 1  # a look at the clock, and the memory bound on all states kept
        if not self.b_evaluations & _CLOCK:
            if self.evaluations + self.b_evaluations > self.max_states:
                raise OutOfMemory
            if self.clock() > self.deadline:
                raise OutOfTime
        s, below, _, b, t, m, f, idx, mask, wf = key
        need = self.need_b[s]
        if (mask & need) != need:
            self.memo_b[key] = (NEG, NEG)
            self.choice_b[key] = _NOTHING
            return NEG
        best = _Best(NEG, _NOTHING) if found is None else _Best(found[0], self.choice_b[key])
        up = (s - 1, below, 0, b, t, m, f, idx, mask, wf)
        floor = best.floor(alpha)
        best.offer(self.run_a(up, floor), floor, None, (False, up))
        if t and idx < self.height_cap and not (self.feasibility and best.best >= 0):
            self._levels_b(key, alpha, best)
        return self._keep(self.memo_b, self.choice_b, key, best)

    def _levels_b(self, key: State, alpha: int, best: _Best) -> None:
        """Every level B can lay on its run (a Strength use each), widest first."""
        s, below, rem, b, _, m, f, idx, _, wf = key
        nidx = idx + 1 if idx < self.index_cap else idx
        lower = s - 1
        mixes = self._mixes(lower, m, rem)
        # once the bound rules out a level of one kind at some count, it rules out every
        # narrower one of that kind (score now and the bound only fall with the count); a
        # kind the state cannot lay at all is as good as ruled out
        stack_dead, mix_dead = not rem, not mixes
        for c in self.counts_on(below, self.P[lower] + rem if mixes else rem):
            if self.feasibility and best.best >= 0:
                break
            laid = self.level(c, below, b, f, wf, idx)
            if laid is None:
                continue
            if not stack_dead and c <= rem:
                stack_dead = self._stack_b(key, c, laid, nidx, alpha, best)
            if not mix_dead:
                splits = self.splits_of(lower, c, rem, 1)
                mix_dead = bool(splits) and self._mixed_b(key, c, laid, splits, nidx, alpha,
                                                          best)
            if mix_dead and stack_dead:
                break

    def _mixes(self, lower: int, m: int, rem: int) -> bool:
        """Can a mixed level of low `lower` topped by the size above stand on this run?"""
        return bool(m and rem and lower >= self.smin and self.P[lower])

    def _stack_b(self, key: State, c: int, laid: Laid, nidx: int, alpha: int, best: _Best
                 ) -> bool:
        """One more level of c castellers of size s; True when the bound rules it out (and,
        with any decrease and no Balance use, every narrower one)."""
        s, _, rem, b, t, m, _, _, mask, _ = key
        balance, nf, nwf = laid
        now = self.base_gain + self.per[s] * c
        floor = best.best if best.best > alpha else alpha  # inline: the hot loop
        if self.bounded:
            most = now + self.ceiling(s, c, b - balance, t - 1, nf, rem - c, nidx)
            if most <= floor:
                best.bound(most)
                return not balance and self.any_decrease
        step = (s, c, rem - c, b - balance, t - 1, m, nf, nidx, mask | self.bit[s], nwf)
        value = now + self.run_b(step, floor - now)
        if value > floor:  # `_Best.offer`, inline: the hot loop
            best.best, best.pick = value, ((s, c, 0), (True, step))
        elif value > best.hi:
            best.hi = value
        return False

    def _mixed_b(self, key: State, c: int, laid: Laid, splits: range | tuple[int, ...],
                 nidx: int, alpha: int, best: _Best) -> bool:
        """Mixed levels of c castellers, low s - 1 topped by size s; True when the bound rules
        out every split (and, as in `_stack_b`, every narrower one)."""
        s, _, _, b, t, m, _, _, mask, _ = key
        balance, nf, nwf = laid
        lower, per = s - 1, self.per
        have = self.P[lower]
        cut = 0
        for h in splits:
            a = c - h
            now = self.base_gain + per[lower] * a + per[s] * h
            floor = best.best if best.best > alpha else alpha  # inline: the hot loop
            if self.bounded:
                most = now + self.ceiling(lower, c, b - balance, t - 1, nf, have - a, nidx)
                if most <= floor:
                    cut += 1
                    best.bound(most)
                    continue
            step = (lower, c, have - a, b - balance, t - 1, m - 1, nf, nidx,
                    mask | self.bit[lower] | self.bit[s], nwf)
            value = now + self.run_b(step, floor - now)
            if value > floor:  # `_Best.offer`, inline: the hot loop
                best.best, best.pick = value, ((lower, a, h), (True, step))
            elif value > best.hi:
                best.hi = value
        return 0 < cut == len(splits) and not balance and self.any_decrease


def _stoppable_clock() -> float:
    """The clock, at infinity once the request is cancelled or past its deadline."""
    return math.inf if stop_requested() else now()
