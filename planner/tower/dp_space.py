"""The states of the tower dp (`planner.tower.dp`) and what bounds them.

One `Space` per program: the pool and the question as per-size tables, the value of stopping,
the levels a level may stand on, the normal form of a state (what of it can still matter) and
the ceiling on what the rest of a tower can add. It holds no memo of its own: the search
(`planner.tower.dp_search`) does. A state is a plain tuple, the fastest key Python hashes:

    A state: (s, below, free, b, t, m, f, idx, mask, wf)
    B state: (s, below, rem,  b, t, m, f, idx, mask, wf)

s a size, below the castellers of the level below (0: none), free / rem as in the search,
b t m f the Balance, Strength, Mix and Base uses left, idx the levels so far (counted up to the
festival's least height or the tile's), mask the festival token sizes seen, wf whether Width
was used (only an exhibition of Width tracks it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from models.tower import Pool, Rules, Skill, SkillRanks
from planner.tower.objective import height_weight

NEG = -(1 << 60)  # "no valid tower from here"
BIG = 1 << 30

LevelChoice = tuple[int, int, int]  # (low size, castellers of it, castellers of size low + 1)
State = tuple[int, ...]
Laid = tuple[int, int, int]  # a level's Balance use (0/1), Base uses left, Width flag after it


class OutOfTime(Exception):
    """The time limit came before the program finished (only for absurdly large pools)."""


class OutOfMemory(OutOfTime):
    """The memory bound (`TowerBudget.max_states`, the states the program keeps) came before
    the program finished: a stop like the time limit's, told apart so that a user is not told
    that more time would help."""


@dataclass(frozen=True)
class Ask:
    """What one program optimises and tracks."""

    kind: str  # "best", "festival", "shape" or "exhibition"
    tokens: frozenset[int] = frozenset()  # festival sizes that score
    track_tokens: bool = False  # every token size must be present
    min_levels: int = 0  # festival: at least this many levels (0: not tracked)
    shape: tuple[int, ...] = ()
    points: int = 0
    required: frozenset[Skill] = field(default_factory=frozenset)


def sizes_inside(pool: Pool, rules: Rules) -> list[int]:
    """The pool's sizes the rules allow, smallest first."""
    return [s for s, _ in pool.items if rules.min_size <= s <= rules.max_size]


# What depends only on the rules (never on a team) is kept between programs: `stack_cap` by the
# width limit K, `widths` by K and the decrease reading, the per-size tables by the question
# and the largest size. Their keys are bounded by the rules' own limits (sizes, bag counts,
# ranks), so these stay small.
_CAPS: dict[int, dict[tuple[int, int, int, int, int], int]] = {}
_ROOMS: dict[tuple[int, bool], dict[tuple[int, int, int, int], tuple[int, int]]] = {}


class Space:
    """The tables and the state algebra of one program: `ask` with Width raise k."""

    def __init__(self, ask: Ask, pool: Pool, ranks: SkillRanks, rules: Rules, k: int) -> None:
        inside = sizes_inside(pool, rules)  # never empty: the program checks first
        self.smax, self.smin = inside[-1], inside[0]
        top = self.smax + 2
        held = dict(pool.items)
        self.P = [held.get(s, 0) if rules.min_size <= s <= rules.max_size else 0
                  for s in range(top + 1)]
        self.K, self.W = rules.width_limit + k, rules.width_limit
        self.any_decrease = rules.decrease == "any"
        self.f0 = min(ranks.base, 1) if rules.base_scope == "bottom-only" else ranks.base
        self.ranks = ranks
        self._question(ask, pool)
        self.per, self.bit, self.full, self.need_a, self.need_b, self.split_matters = (
            _ask_tables(ask, top))
        self._size_tables(top, ranks.mix > 0)
        self.caps = _CAPS.setdefault(self.K, {})  # depends only on K: shared by every program
        self.room = _ROOMS.setdefault((self.K, self.any_decrease), {})

    def _question(self, ask: Ask, pool: Pool) -> None:
        kind = self.kind = ask.kind
        self.best_kind, self.exhibition = kind == "best", kind == "exhibition"
        self.feasibility = kind in ("shape", "exhibition")
        # Branch and bound: a tile asks only for some tower, nothing to bound
        self.bounded = not self.feasibility
        self.shape = ask.shape
        self.required = ask.required
        if ask.shape:
            self.height_cap = len(ask.shape)
        else:
            self.height_cap = ask.points if self.exhibition else BIG
        self.index_cap = self.height_cap if self.feasibility else ask.min_levels
        self.track_width = self.exhibition and Skill.WIDTH in ask.required
        # objective per level: base + per casteller of its low size + per casteller of size + 1
        if self.best_kind:
            self.base_gain = height_weight(pool.total)
        else:
            self.base_gain = 1 if kind == "festival" else 0

    def _size_tables(self, top: int, mixing: bool) -> None:
        P, per = self.P, self.per
        widest_from = [0] * (top + 2)  # the most castellers a level of low size <= s can hold
        sizes_upto = [0] * (top + 2)  # sizes <= s in the pool
        scoring_upto = [0] * (top + 2)  # castellers of size <= s that score
        scoring_sizes = [0] * (top + 2)  # sizes <= s in the pool that score
        for s in range(1, top + 1):
            here = P[s] + (P[s + 1] if mixing and s < top else 0)
            widest_from[s] = max(widest_from[s - 1], here)
            sizes_upto[s] = sizes_upto[s - 1] + (1 if P[s] else 0)
            scoring_upto[s] = scoring_upto[s - 1] + (P[s] if per[s] else 0)
            scoring_sizes[s] = scoring_sizes[s - 1] + (1 if P[s] and per[s] else 0)
        sizes_upto[top + 1] = sizes_upto[top]
        self.widest_from, self.sizes_upto = widest_from, sizes_upto
        self.scoring_upto, self.scoring_sizes = scoring_upto, scoring_sizes

    def final(self, b: int, t: int, m: int, f: int, idx: int, mask: int, wf: int) -> int:
        """Value of stopping here: 0 if the tower so far answers the question, else NEG."""
        if self.best_kind:
            return 0
        if self.kind == "festival":
            return 0 if idx >= self.index_cap and mask == self.full else NEG
        if idx != self.height_cap:
            return NEG
        if self.kind == "shape":
            return 0
        ranks = self.ranks
        used = {Skill.BALANCE: b < ranks.balance, Skill.STRENGTH: t < ranks.strength,
                Skill.MIX: m < ranks.mix, Skill.BASE: f < self.f0, Skill.WIDTH: bool(wf)}
        return 0 if all(used[s] for s in self.required) else NEG

    def counts_on(self, below: int, cap: int) -> range | tuple[int, ...]:
        """Counts a level may hold on a level of `below` castellers (0: the bottom), widest
        first, at most `cap`."""
        if below == 0:
            return range(cap, 0, -1)
        if self.any_decrease:
            return range(below if below < cap else cap, 0, -1)
        return tuple(c for c in (below, below - 1) if 1 <= c <= cap)

    def level(self, c: int, below: int, b: int, f: int, wf: int, idx: int) -> Laid | None:
        """A level of c castellers on one of `below`: its Balance use and the Base uses and
        Width flag left after it; None when the tile's shape, Balance or Base forbid it."""
        if self.shape and c != self.shape[idx]:
            return None
        balance = 1 if below and c == below else 0
        if balance and not b:
            return None
        if c > self.K:
            return (balance, f - 1, wf) if f else None
        # kept: no level above can be freed; only an exhibition cares whether Base was used
        nf = (self.f0 if f == self.f0 else 0) if self.exhibition else 0
        return balance, nf, (1 if wf or (self.track_width and c > self.W) else 0)

    def splits_of(self, low: int, c: int, spare: int, floor: int) -> range | tuple[int, ...]:
        """How many of a level of c castellers with low size `low` to take of size low + 1
        (`spare` of them left; at least `floor`): every split only when it changes the score,
        else the extremes (more of size low + 1 leaves more of size low for the levels above)."""
        # conditional expressions, not max/min: this is called for every level tried
        low_h = c - self.P[low]
        if low_h < floor:
            low_h = floor
        high_h = spare if spare < c - 1 else c - 1
        if low_h > high_h:
            return ()
        if self.split_matters[low]:
            return range(low_h, high_h + 1)
        return (0, high_h) if low_h == 0 and high_h else (high_h,)

    def stack_cap(self, below: int, t: int, b: int, m: int, f: int) -> int:
        """At most how many size s castellers the rest of a run of low s on a level of `below`
        can use: levels stacked by Strength (as wide as Balance and the width limit allow),
        then a mixed level above the run (it stands on low s, so it needs Strength too)."""
        key = (below, t, b, m, f)
        found = self.caps.get(key)
        if found is not None:
            return found
        limit = BIG if f else self.K
        c, total, left = below, 0, b
        most = below - 1 if m and t else 0
        for j in range(1, t + 1):
            if left and c <= limit:
                left -= 1
            else:
                c = min(c - 1, limit)
            if c < 1:
                break
            total += c
            most = max(most, total + (c - 1 if m and j < t else 0))
        self.caps[key] = most
        return most

    def cap_uses(self, s: int, below: int, b: int, t: int, m: int, f: int
                 ) -> tuple[int, int, int]:
        """Balance, Strength and Mix uses beyond the levels the rest of the tower can still
        have are worth nothing (an exhibition needs them exact, so not for it): a level takes
        a new size unless stacked, and a smaller count unless balanced."""
        levels = self.sizes_upto[s] + t
        if below and not f:
            by_counts = min(below, self.K) + b
            if by_counts < levels:
                levels = by_counts
        return (b if b < levels else levels, t if t < levels else levels,
                m if m < levels else levels)

    def norm_a(self, raw: State) -> State:
        """What of an A state can matter: the free size s + 1 castellers serve only a mixed
        level, and (any decrease) a level below wider than anything that can stand on it is as
        good as one casteller wider than that. A size the pool lacks offers no level, only the
        step down (its free size s + 1 castellers then serve nothing), so A of it is A of the
        next size the pool has."""
        s, below, free, b, t, m, f, idx, mask, wf = raw
        P = self.P
        while s > self.smin and not P[s]:
            s, free = s - 1, 0
        if not m or not P[s + 1]:
            free = 0
        if below and self.any_decrease:
            widest = self.widest_from[s] if f else min(self.widest_from[s], self.K)
            if below > widest + 1:
                below = widest + 1
        if not self.exhibition:
            b, t, m = self.cap_uses(s, below, b, t, m, f)
        return (s, below, free, b, t, m, f, idx, mask, wf)

    def norm_b(self, raw: State) -> State:
        """What of a B state can matter: as `norm_a`, and the size s castellers left capped at
        what the levels above can still use (`stack_cap`)."""
        s, below, rem, b, t, m, f, idx, mask, wf = raw
        if self.any_decrease:
            widest = self.widest_from[s - 1]
            if rem > widest:
                widest = rem
            if not f and widest > self.K:
                widest = self.K
            if below > widest + 1:
                below = widest + 1
        if not self.exhibition:
            b, t, m = self.cap_uses(s, below, b, t, m, f)
        cap = self.stack_cap(below, t, b, m, f)
        return (s, below, rem if rem < cap else cap, b, t, m, f, idx, mask, wf)

    def widths(self, w: int, b: int, f: int, n: int) -> tuple[int, int]:
        """At most how many levels, and at most how many castellers in all, at most n levels
        can have above a level of w castellers with b Balance and f Base uses left (counts
        never grow, an equal count costs a Balance use, a level over the limit K a Base use).
        Only the widest level of each kind can be best: as wide as the one below (Balance),
        one fewer (Base if over K), or just K (when the one below is over it, if any decrease
        is allowed)."""
        if n <= 0:
            return 0, 0
        key = (w, b, f, n)
        found = self.room.get(key)
        if found is not None:
            return found
        levels = castellers = 0
        for x, bb, ff in self._narrower(w, b, f):
            more, held = self.widths(x, bb, ff, n - 1)
            levels = max(levels, more + 1)
            castellers = max(castellers, held + x)
        self.room[key] = levels, castellers
        return levels, castellers

    def _narrower(self, w: int, b: int, f: int) -> list[tuple[int, int, int]]:
        """The widest level of each kind that can stand on a level of w castellers, with the
        Balance and Base uses left after it (see `widths`)."""
        K = self.K
        options = []
        if b and (w <= K or f):
            options.append((w, b - 1, f - 1 if w > K else f))
        if w > K + 1:
            if f:
                options.append((w - 1, b, f - 1))
            if self.any_decrease:
                options.append((K, b, f))
        elif w > 1:
            options.append((w - 1, b, f))
        return options

    # With any decrease the bound only falls with the count c (a narrower level leaves the
    # levels above no more room); with one fewer it does not (a level far over the limit has
    # few levels above it), so a narrower level is never ruled out by a wider one's bound.
    def ceiling(self, s: int, c: int, b: int, t: int, f: int, left: int, idx: int) -> int:
        """At most how much the levels above a level of c castellers of low s can add, when
        `left` castellers of size s are left (only a Strength use can stand them on it): at
        most one level per smaller size plus one per Strength use, as wide as `widths` allows,
        holding only castellers of size <= s. NEG when even that many levels cannot bring the
        `idx` levels so far (this one included) to the festival's least height. Asked only
        when the program bounds (never for a tile). The hottest function of the program: it
        reads the `widths` memo itself before calling it."""
        room, sizes = self.room, self.sizes_upto[s - 1]
        found = room.get((c, b, f, sizes + t))
        levels, castellers = found if found is not None else self.widths(c, b, f, sizes + t)
        if idx + levels < self.index_cap:
            return NEG
        scoring = self.scoring_upto[s - 1] + (left if t and self.per[s] else 0)
        if scoring < castellers:
            castellers = scoring
        scoring_sizes = self.scoring_sizes[s - 1]
        if scoring_sizes < sizes:
            # the levels that hold a scoring size are at most one per such size and one per
            # Strength use (a second level holding the same size stands on its run), and
            # the widest levels hold at most what the first that many hold
            found = room.get((c, b, f, scoring_sizes + t))
            held = (found if found is not None else self.widths(c, b, f, scoring_sizes + t))[1]
            if held < castellers:
                castellers = held
        return levels * self.base_gain + castellers


@lru_cache(maxsize=256)
def _ask_tables(ask: Ask, top: int) -> tuple[list[int], list[int], int, list[int], list[int],
                                             list[bool]]:
    """Per size up to top + 1: the objective per casteller (`per`), the festival token bit,
    all bits, the token bits that must be seen before A(s) (sizes >= s + 2) and B(s) (sizes
    >= s + 1), and whether a mixed level of low s scores differently by how it splits (only
    in a festival that scores size s and not size s + 1; otherwise "unmixed" and "as mixed as
    possible" dominate). Read only: shared by every program of the same question."""
    best_kind = ask.kind == "best"
    per = [1 if best_kind or s in ask.tokens else 0 for s in range(top + 2)]
    bit = [0] * (top + 2)
    full = 0
    order = sorted(ask.tokens) if ask.track_tokens else []
    for n, size in enumerate(order):
        if size < len(bit):
            bit[size] |= 1 << n
        full |= 1 << n
    need_a, need_b = _needs(order, top, 2), _needs(order, top, 1)
    split_matters = [ask.kind == "festival" and s in ask.tokens and s + 1 not in ask.tokens
                     for s in range(top + 2)]
    return per, bit, full, need_a, need_b, split_matters


def _needs(order: list[int], top: int, above: int) -> list[int]:
    """Per size s up to top + 1: the bits of the token sizes at least s + `above`."""
    return [sum(1 << n for n, z in enumerate(order) if z >= s + above) for s in range(top + 2)]
