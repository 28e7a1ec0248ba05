"""The fast exact engine: a dynamic program over casteller sizes, largest first.

A valid tower is a run of levels per low size, sizes falling bottom to top (the CP-SAT layout's
slots): the run of low size s starts with one level of s castellers, maybe mixed with s + 1
castellers (a Mix use, and a Strength use when it stands on a level of low s + 1), and goes on
with levels of s castellers only, each one a Strength use. Level counts never grow (an equal
count is a Balance use; the one-fewer reading allows only equal or one fewer); a level over the
width limit W + k is freed by Base, and since counts never grow the freed levels are a bottom
prefix, so Base is one more budget. What a level may be depends only on

    A(s, count below, are all size s + 1 castellers still free, Balance/Strength/Mix/Base uses
      left, [level index], [festival tokens seen], [Width used])

the best rest of a tower whose next level has low size at most s, and

    B(s, count below, size s castellers left, the same uses and flags)

the best rest inside the run of low s: one more level of size s, a mixed level of low s - 1
topped by size s castellers (both Strength uses, standing on low s), or on to A(s - 1). Both
are memoised. States are normalised to what can still matter (castellers left capped at what
the levels above could use, a level below wider than anything that can stand on it counted as
one wider than that, uses capped by the levels left), so big pools share states; a mixed level
is split between its two sizes only in the ways that can be best. Branch and bound: each state
is asked with a threshold (what its caller already has, less the caller's score so far) and is
exact only above it; an option whose score plus a bound on what the rest can add (`ceiling`:
levels and castellers the widths above allow, the castellers still left, in a festival the
levels that can hold a token size) cannot beat the threshold or the state's best so far is
not explored, and a state whose stored bound is not enough for a later caller is evaluated
again. The program still covers every valid tower (each one is explored or bounded), so its
answer is a proof; the tower is still re-checked by the `models` checker, like every engine's.

Width (k, how far the limit is raised) is fixed per program: the whole Width rank for every
question but a skill exhibition that asks for Width or Base, which tries every k (a smaller k
may be what lets Base and Width both be used, as in the checker's accountings). A festival is
first solved without its two side conditions (4 levels, every token size present): when that
tower meets them it is optimal, and only otherwise is the program re-run tracking them.

With every skill at rank 0 (how every game starts) `planner.tower.plain` answers instead: a
short exact program for plain towers (see there why), whose tower is checked here the same way.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import lru_cache

from models.tower import (
    CheckResult,
    ExhibitionTile,
    Level,
    Pool,
    Rules,
    ShapeTile,
    Skill,
    SkillRanks,
    Tower,
    check_tower,
    tile_shortfalls,
)
from planner.stopping import stop_requested
from planner.tower.objective import height_weight, objective_of
from planner.tower.plain import no_ranks, plain_tower
from planner.tower.questions import FestivalTower, Question, TileCheck
from planner.tower.result import SolveResult, Status

NEG = -(1 << 60)  # "no valid tower from here"
_BIG = 1 << 30
# the most states (A and B evaluations) one program keeps: its memo, keys and choices hold a
# few hundred bytes a state, so any question stays well under 1 GB; past it the program ends
# as at its time limit (a deterministic end, whatever the machine's speed)
MAX_STATES = 1_500_000
_CLOCK = 255  # look at the clock when the number of states is a multiple of this + 1

LevelChoice = tuple[int, int, int]  # (low size, castellers of it, castellers of size low + 1)
State = tuple[int, ...]  # (0 for A or 1 for B, *arguments)


Pick = tuple[LevelChoice | None, State | None]  # the level laid (if any) and the next state


class OutOfTime(Exception):
    """The time limit came before the program finished (only for absurdly large pools)."""


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


def _program(ask: Ask, pool: Pool, ranks: SkillRanks, rules: Rules, k: int,
             deadline: float, state_limit: int | None = None, stoppable: bool = False
             ) -> Tower | None:
    """The best tower for `ask` with Width raise k (for a tile: any tower that meets it).
    Raises OutOfTime after `deadline`, or beyond `state_limit` A states (a limit that does
    not depend on the machine's speed, for bounds that must be deterministic)."""
    most_states = min(state_limit, MAX_STATES) if state_limit is not None else MAX_STATES
    lo_size, hi_size = rules.min_size, rules.max_size
    inside = [s for s, _ in pool.items if lo_size <= s <= hi_size]
    if not inside:
        return None
    smax, smin = inside[-1], inside[0]
    top = smax + 2
    held = dict(pool.items)
    P = [held.get(s, 0) if lo_size <= s <= hi_size else 0 for s in range(top + 1)]
    K, W = rules.width_limit + k, rules.width_limit
    any_decrease = rules.decrease == "any"
    f0 = min(ranks.base, 1) if rules.base_scope == "bottom-only" else ranks.base
    kind = ask.kind
    best_kind, exhibition = kind == "best", kind == "exhibition"
    feasibility = kind in ("shape", "exhibition")
    shape = ask.shape
    height_cap = len(shape) if shape else (ask.points if exhibition else _BIG)
    index_cap = height_cap if feasibility else ask.min_levels
    track_width = exhibition and Skill.WIDTH in ask.required

    # objective per level: base + per casteller of its low size + per casteller of size + 1
    base_gain = height_weight(pool.total) if best_kind else (1 if kind == "festival" else 0)
    per, bit, full, need_a, need_b, split_matters = _ask_tables(ask, top)
    mixing = ranks.mix > 0
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

    ranks_b, ranks_t, ranks_m = ranks.balance, ranks.strength, ranks.mix
    required = ask.required

    def final(b: int, t: int, m: int, f: int, idx: int, mask: int, wf: int) -> int:
        """Value of stopping here: 0 if the tower so far answers the question, else NEG."""
        if best_kind:
            return 0
        if kind == "festival":
            return 0 if idx >= index_cap and mask == full else NEG
        if idx != height_cap:
            return NEG
        if kind == "shape":
            return 0
        used = {Skill.BALANCE: b < ranks_b, Skill.STRENGTH: t < ranks_t, Skill.MIX: m < ranks_m,
                Skill.BASE: f < f0, Skill.WIDTH: bool(wf)}
        return 0 if all(used[s] for s in required) else NEG

    def counts_on(below: int, cap: int) -> range | tuple[int, ...]:
        """Counts a level may hold on a level of `below` castellers (0: the bottom), widest
        first, at most `cap`."""
        if below == 0:
            return range(cap, 0, -1)
        if any_decrease:
            return range(min(below, cap), 0, -1)
        return tuple(c for c in (below, below - 1) if 1 <= c <= cap)

    caps = _CAPS.setdefault(K, {})  # depends only on K: shared by every program

    def stack_cap(below: int, t: int, b: int, m: int, f: int) -> int:
        """At most how many size s castellers the rest of a run of low s on a level of `below`
        can use: levels stacked by Strength (as wide as Balance and the width limit allow),
        then a mixed level above the run (it stands on low s, so it needs Strength too)."""
        key = (below, t, b, m, f)
        found = caps.get(key)
        if found is not None:
            return found
        limit = _BIG if f else K
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
        caps[key] = most
        return most

    def cap_uses(s: int, below: int, b: int, t: int, m: int, f: int) -> tuple[int, int, int]:
        """Balance, Strength and Mix uses beyond the levels the rest of the tower can still
        have are worth nothing (an exhibition needs them exact, so not for it): a level takes
        a new size unless stacked, and a smaller count unless balanced."""
        by_sizes = sizes_upto[s] + t
        if below and not f:
            by_counts = min(below, K) + b
            levels = by_sizes if by_sizes < by_counts else by_counts
        else:
            levels = by_sizes
        return (b if b < levels else levels, t if t < levels else levels,
                m if m < levels else levels)

    def norm_a(s: int, below: int, free: int, b: int, t: int, m: int, f: int, idx: int,
               mask: int, wf: int) -> State:
        """What of an A state can matter: the free size s + 1 castellers serve only a mixed
        level, and (any decrease) a level below wider than anything that can stand on it is as
        good as one casteller wider than that. A size the pool lacks offers no level, only the
        step down (its free size s + 1 castellers then serve nothing), so A of it is A of the
        next size the pool has."""
        while s > smin and not P[s]:
            s, free = s - 1, 0
        if not m or not P[s + 1]:
            free = 0
        if below and any_decrease:
            widest = widest_from[s] if f else min(widest_from[s], K)
            if below > widest + 1:
                below = widest + 1
        if not exhibition:
            b, t, m = cap_uses(s, below, b, t, m, f)
        return (s, below, free, b, t, m, f, idx, mask, wf)

    def norm_b(s: int, below: int, rem: int, b: int, t: int, m: int, f: int, idx: int,
               mask: int, wf: int) -> State:
        if any_decrease:
            widest = rem if rem > widest_from[s - 1] else widest_from[s - 1]
            if not f and widest > K:
                widest = K
            if below > widest + 1:
                below = widest + 1
        if not exhibition:
            b, t, m = cap_uses(s, below, b, t, m, f)
        cap = stack_cap(below, t, b, m, f)
        return (s, below, rem if rem < cap else cap, b, t, m, f, idx, mask, wf)

    # state -> (lo, hi): lo is what a tower from the state reaches (its first level in `choice`),
    # hi a value no tower from it beats; lo == hi when the value is exact (see `run_a`)
    memo_a: dict[State, tuple[int, int]] = {}
    memo_b: dict[State, tuple[int, int]] = {}
    keys_a: dict[State, State] = {}  # norm_a of the A states as called
    keys_b: dict[State, State] = {}  # norm_b of the B states as called
    choice_a: dict[State, Pick] = {}  # normalised A state -> its best option
    choice_b: dict[State, Pick] = {}
    clock = _stoppable_clock if stoppable else time.perf_counter
    b_evaluations = 0
    evaluations = 0  # A states evaluated (again when a bound was not enough)

    def after(c: int, f: int, wf: int) -> tuple[int, int] | None:
        """Base uses left and the Width flag once a level of c castellers is laid; None when
        the level is over the limit and no Base use is left."""
        if c > K:
            return (f - 1, wf) if f else None
        # kept: no level above can be freed; only an exhibition cares whether Base was used
        nf = (f0 if f == f0 else 0) if exhibition else 0
        return nf, (1 if wf or (track_width and c > W) else 0)

    def splits_of(low: int, c: int, spare: int, floor: int) -> range | tuple[int, ...]:
        """How many of a level of c castellers with low size `low` to take of size low + 1
        (`spare` of them left; at least `floor`): every split only when it changes the score,
        else the extremes (more of size low + 1 leaves more of size low for the levels above)."""
        low_h, high_h = max(floor, c - P[low]), min(spare, c - 1)
        if low_h > high_h:
            return ()
        if split_matters[low]:
            return range(low_h, high_h + 1)
        return (0, high_h) if low_h == 0 and high_h else (high_h,)

    # Branch and bound (see `run_a`): an option whose score now plus the most the rest of the
    # tower could add cannot beat the state's best so far or its caller's threshold is not
    # explored. A tile asks only for some tower: nothing to bound.
    bounded = not feasibility
    room = _ROOMS.setdefault((K, any_decrease), {})  # depends only on K and the reading

    def widths(w: int, b: int, f: int, n: int) -> tuple[int, int]:
        """At most how many levels, and at most how many castellers in all, at most n levels
        can have above a level of w castellers with b Balance and f Base uses left (counts
        never grow, an equal count costs a Balance use, a level over the limit K a Base use).
        Only the widest level of each kind can be best: as wide as the one below (Balance),
        one fewer (Base if over K), or just K (when the one below is over it, if any decrease
        is allowed)."""
        if n <= 0:
            return 0, 0
        key = (w, b, f, n)
        found = room.get(key)
        if found is not None:
            return found
        options = []
        if b and (w <= K or f):
            options.append((w, b - 1, f - 1 if w > K else f))
        if w > K + 1:
            if f:
                options.append((w - 1, b, f - 1))
            if any_decrease:
                options.append((K, b, f))
        elif w > 1:
            options.append((w - 1, b, f))
        levels = castellers = 0
        for x, bb, ff in options:
            more, held = widths(x, bb, ff, n - 1)
            if more + 1 > levels:
                levels = more + 1
            if held + x > castellers:
                castellers = held + x
        room[key] = levels, castellers
        return levels, castellers

    # With any decrease the bound only falls with the count c (a narrower level leaves the
    # levels above no more room); with one fewer it does not (a level far over the limit has
    # few levels above it), so a narrower level is never ruled out by a wider one's bound.
    def ceiling(s: int, c: int, b: int, t: int, f: int, left: int, idx: int) -> int:
        """At most how much the levels above a level of c castellers of low s can add, when
        `left` castellers of size s are left (only a Strength use can stand them on it): at
        most one level per smaller size plus one per Strength use, as wide as `widths` allows,
        holding only castellers of size <= s. NEG when even that many levels cannot bring the
        `idx` levels so far (this one included) to the festival's least height."""
        levels, castellers = widths(c, b, f, sizes_upto[s - 1] + t)
        if idx + levels < index_cap and not feasibility:
            return NEG
        scoring = scoring_upto[s - 1] + (left if t and per[s] else 0)
        if scoring < castellers:
            castellers = scoring
        if scoring_sizes[s - 1] < sizes_upto[s - 1]:
            # the levels that hold a scoring size are at most one per such size and one per
            # Strength use (a second level holding the same size stands on its run), and
            # the widest levels hold at most what the first that many hold
            held = widths(c, b, f, scoring_sizes[s - 1] + t)[1]
            if held < castellers:
                castellers = held
        return levels * base_gain + castellers

    def run_a(s: int, below: int, free: int, b: int, t: int, m: int, f: int, idx: int,
              mask: int, wf: int, alpha: int) -> int:
        """The best rest of a tower whose next level has low size at most s, on a level of
        `below` castellers (0: none); `free`: no casteller of size s + 1 is used yet and the
        level below has low >= s + 2, so a mixed level of low s needs no Strength.

        The caller needs the value only when it beats `alpha`: the result is exact when it is
        above `alpha`, else a bound at most `alpha` (an option whose score plus what the rest
        could add cannot beat the state's best so far or `alpha` is not explored, and a state
        whose stored bound is not enough for a later caller is evaluated again)."""
        nonlocal evaluations
        raw = (s, below, free, b, t, m, f, idx, mask, wf)
        key = keys_a.get(raw)
        if key is None:
            key = keys_a[raw] = norm_a(*raw)
        found = memo_a.get(key)
        if found is not None and (found[0] == found[1] or found[1] <= alpha):
            return found[1]
        s, below, free, b, t, m = key[0], key[1], key[2], key[3], key[4], key[5]
        evaluations += 1
        if evaluations > most_states or (not evaluations & _CLOCK and clock() > deadline):
            raise OutOfTime
        pick: Pick = (None, None)
        if found is not None:
            best, pick = found[0], choice_a[key]
        else:
            best = NEG if (below == 0 and best_kind) else final(b, t, m, f, idx, mask, wf)
        hi = best  # the most an option not known exactly could give
        need = need_a[s] if free else need_b[s]
        if (s >= smin and (mask & need) == need and idx < height_cap
                and not (feasibility and best >= 0)):
            skip = (s - 1, below, 1, b, t, m, f, idx, mask, wf)
            floor = best if best > alpha else alpha
            value = run_a(*skip, floor)
            if value > floor:
                best, pick = value, (None, (0, *skip))
            elif value > hi:
                hi = value
            have = P[s]
            spare = P[s + 1] if free else 0
            gain_a, gain_h = per[s], per[s + 1]
            nidx = idx + 1 if idx < index_cap else idx
            # Without Strength the size s castellers this level leaves serve nothing above
            # (no level can stand on its low size), so among the levels of one kind (kept or
            # freed by Base, mixed or not, no Balance use) the widest is best: it scores at
            # least as much and leaves the level above at least as much room (any decrease:
            # with one fewer, a narrower level can be what the level above needs; and not for
            # an exhibition, where a narrower level can be what lets a Balance use happen).
            widest_only = not t and any_decrease and not exhibition
            done: set[tuple[bool, bool]] = set()
            for c in counts_on(below, have + spare) if have else ():
                if feasibility and best >= 0:
                    break
                if shape and c != shape[idx]:
                    continue
                balance = 1 if below and c == below else 0
                if balance and not b:
                    continue
                laid = after(c, f, wf)
                if laid is None:
                    continue
                tried: set[tuple[bool, bool]] = set()
                splits = splits_of(s, c, spare, 0)
                cut = 0  # splits of this count the bound rules out
                for h in splits:
                    if widest_only and not balance:
                        kind_of = (c > K, h > 0)
                        if kind_of in done:
                            continue
                        tried.add(kind_of)
                    a = c - h
                    now = base_gain + gain_a * a + gain_h * h
                    floor = best if best > alpha else alpha
                    if bounded:
                        most = now + ceiling(s, c, b - balance, t, laid[0], have - a, nidx)
                        if most <= floor:
                            cut += 1
                            if most > hi:
                                hi = most
                            continue
                    nxt = (s, c, have - a, b - balance, t, m - (h > 0), laid[0], nidx,
                           mask | bit[s] | (bit[s + 1] if h else 0), laid[1])
                    value = now + run_b(*nxt, floor - now)
                    if value > floor:
                        best, pick = value, ((s, a, h), (1, *nxt))
                    elif value > hi:
                        hi = value
                done |= tried
                if cut and cut == len(splits) and not balance and any_decrease:
                    break  # score now and the bound only fall with the count: so do the rest
        if best > hi:
            hi = best
        memo_a[key] = (best, hi)
        choice_a[key] = pick
        return hi

    def run_b(s: int, below: int, rem: int, b: int, t: int, m: int, f: int, idx: int,
              mask: int, wf: int, alpha: int) -> int:
        """B of the state as called (normalised here), with `alpha` as in `run_a`."""
        raw = (s, below, rem, b, t, m, f, idx, mask, wf)
        key = keys_b.get(raw)
        if key is None:
            key = keys_b[raw] = norm_b(*raw)
        found = memo_b.get(key)
        if found is not None and (found[0] == found[1] or found[1] <= alpha):
            return found[1]
        return _run_b(key, alpha, found)

    def _run_b(key: State, alpha: int, found: tuple[int, int] | None) -> int:
        """The best rest of a tower inside the run of low s, on a level of `below` castellers
        (low s); `rem` castellers of size s are left. The next level is one more of size s
        only, or a mixed level of low s - 1 topped by size s: both stand on low s, a Strength
        use each; or it has no casteller of size s (A of s - 1)."""
        nonlocal b_evaluations
        b_evaluations += 1  # a look at the clock, and the memory bound on all states kept
        if not b_evaluations & _CLOCK and (clock() > deadline
                                           or evaluations + b_evaluations > MAX_STATES):
            raise OutOfTime
        s, below, rem, b, t, m, f, idx, mask, wf = key
        pick: Pick = (None, None)
        need = need_b[s]
        if (mask & need) != need:
            memo_b[key] = (NEG, NEG)
            choice_b[key] = pick
            return NEG
        best = NEG
        if found is not None:
            best, pick = found[0], choice_b[key]
        hi = best
        up = (s - 1, below, 0, b, t, m, f, idx, mask, wf)
        floor = best if best > alpha else alpha
        value = run_a(*up, floor)
        if value > floor:
            best, pick = value, (None, (0, *up))
        elif value > hi:
            hi = value
        if t and idx < height_cap and not (feasibility and best >= 0):
            nidx = idx + 1 if idx < index_cap else idx
            lower = s - 1
            mixes = m and rem and lower >= smin and P[lower]
            # once the bound rules out a level of one kind at some count, it rules out every
            # narrower one of that kind (score now and the bound only fall with the count)
            stack_dead = mix_dead = False
            for c in counts_on(below, max(rem, P[lower] + rem if mixes else 0)):
                if feasibility and best >= 0:
                    break
                if shape and c != shape[idx]:
                    continue
                balance = 1 if c == below else 0
                if balance and not b:
                    continue
                laid = after(c, f, wf)
                if laid is None:
                    continue
                if not stack_dead and c <= rem:
                    now = base_gain + per[s] * c
                    floor = best if best > alpha else alpha
                    most = (now + ceiling(s, c, b - balance, t - 1, laid[0], rem - c, nidx)
                            if bounded else 0)
                    if bounded and most <= floor:
                        stack_dead = not balance and any_decrease  # and every narrower one
                        if most > hi:
                            hi = most
                    else:
                        step = (s, c, rem - c, b - balance, t - 1, m, laid[0], nidx,
                                mask | bit[s], laid[1])
                        value = now + run_b(*step, floor - now)
                        if value > floor:
                            best, pick = value, ((s, c, 0), (1, *step))
                        elif value > hi:
                            hi = value
                if not mixes or mix_dead:
                    if stack_dead or not rem:
                        break
                    continue
                splits = splits_of(lower, c, rem, 1)
                cut = 0
                for h in splits:
                    a = c - h
                    now = base_gain + per[lower] * a + per[s] * h
                    floor = best if best > alpha else alpha
                    if bounded:
                        most = now + ceiling(lower, c, b - balance, t - 1, laid[0],
                                             P[lower] - a, nidx)
                        if most <= floor:
                            cut += 1
                            if most > hi:
                                hi = most
                            continue
                    step = (lower, c, P[lower] - a, b - balance, t - 1, m - 1, laid[0], nidx,
                            mask | bit[lower] | bit[s], laid[1])
                    value = now + run_b(*step, floor - now)
                    if value > floor:
                        best, pick = value, ((lower, a, h), (1, *step))
                    elif value > hi:
                        hi = value
                if cut and cut == len(splits) and not balance and any_decrease:
                    mix_dead = True  # and so is every narrower mixed level
                    if stack_dead or not rem:
                        break
        if best > hi:
            hi = best
        memo_b[key] = (best, hi)
        choice_b[key] = pick
        return hi

    root = (smax, 0, 1, ranks.balance, ranks.strength, ranks.mix, f0, 0, 0, 0)
    if run_a(*root, NEG) <= NEG // 2:
        return None
    levels: list[Level] = []
    state: State | None = (0, *root)
    while state is not None:  # every state on the way was asked for, so its key is known
        raw = state[1:]
        level, state = choice_b[keys_b[raw]] if state[0] else choice_a[keys_a[raw]]
        if level is not None:
            s, a, h = level
            levels.append(Level((s + 1,) * h + (s,) * a))  # largest first, as a Level keeps
    return Tower(tuple(levels)) if levels else None


# What depends only on the rules (never on a team) is kept between programs: `stack_cap` by the
# width limit K, `widths` by K and the decrease reading, the per-size tables by the question
# and the largest size. Their keys are bounded by the rules' own limits (sizes, bag counts,
# ranks), so these stay small.
_CAPS: dict[int, dict[tuple[int, int, int, int, int], int]] = {}
_ROOMS: dict[tuple[int, bool], dict[tuple[int, int, int, int], tuple[int, int]]] = {}


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
    need_a = [sum(1 << n for n, z in enumerate(order) if z >= s + 2) for s in range(top + 2)]
    need_b = [sum(1 << n for n, z in enumerate(order) if z >= s + 1) for s in range(top + 2)]
    split_matters = [ask.kind == "festival" and s in ask.tokens and s + 1 not in ask.tokens
                     for s in range(top + 2)]
    return per, bit, full, need_a, need_b, split_matters


def _stoppable_clock() -> float:
    """The clock, at infinity once the request is cancelled or past its deadline."""
    return math.inf if stop_requested() else time.perf_counter()


def most_levels(pool: Pool, ranks: SkillRanks, rules: Rules) -> int:
    """At most how many levels a valid tower of `pool` has. A level's smallest size is below
    that of the level under it unless the level is a Strength use: at most one level per size
    plus one per use. Counts never grow: every level holds a count of its own among 1..K (K,
    the width limit raised by Width) but the equal ones (Balance uses) and those over K (Base
    uses). A festival's least height above this is a proof that no tower qualifies."""
    sizes = sum(1 for s, _ in pool.items if rules.min_size <= s <= rules.max_size)
    base = min(ranks.base, 1) if rules.base_scope == "bottom-only" else ranks.base
    by_counts = rules.width_limit + ranks.width + ranks.balance + base
    return min(sizes + ranks.strength, by_counts, pool.total)


@lru_cache(maxsize=64)
def _asks(question: Question, rules: Rules) -> tuple[Ask, ...]:
    """The programs to run, in order, until one gives a tower that answers the question."""
    if isinstance(question, FestivalTower):
        tokens = question.festival.token_sizes
        relaxed = Ask("festival", tokens)
        exact = Ask("festival", tokens, track_tokens=True, min_levels=rules.festival_min_levels)
        return (relaxed, exact)
    if isinstance(question, TileCheck):
        tile = question.tile
        if isinstance(tile, ShapeTile):
            return (Ask("shape", shape=tile.counts),)
        return (Ask("exhibition", points=tile.points, required=tile.skills),)
    return (Ask("best"),)


def _widths(ask: Ask, ranks: SkillRanks) -> list[int]:
    """The Width raises k to try: only an exhibition of Width or Base needs a smaller one."""
    if ask.required & {Skill.WIDTH, Skill.BASE}:
        return list(range(ranks.width + 1))
    return [ranks.width]


def _answers(question: Question, check: CheckResult, rules: Rules) -> bool:
    if not check.valid:
        return False
    if isinstance(question, FestivalTower):
        return question.festival.eligible(check.tower, rules)
    if isinstance(question, TileCheck):
        return not tile_shortfalls(question.tile, check)
    return True


def dp_tower(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules,
             deadline: float, state_limit: int | None = None, stoppable: bool = False
             ) -> Tower | None:
    """The tower the program proves best (for a tile, one that meets it), or None when no
    tower answers the question. Raises OutOfTime after `deadline` or `state_limit` states."""
    checked = _checked_tower(question, pool, ranks, rules, deadline, state_limit, stoppable)
    return None if checked is None else checked.tower


def _checked_tower(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules,
                   deadline: float, state_limit: int | None = None, stoppable: bool = False
                   ) -> CheckResult | None:
    """`dp_tower`, with the `models` checker's verdict on the tower (every tower the program
    gives is checked, once)."""
    if isinstance(question, FestivalTower) and (
            not question.festival.token_sizes <= set(pool.sizes)
            or most_levels(pool, ranks, rules) < rules.festival_min_levels):
        return None
    if (isinstance(question, TileCheck) and isinstance(question.tile, ExhibitionTile)
            and any(ranks[s] == 0 for s in question.tile.skills)):
        return None
    if no_ranks(ranks):  # the commonest case at the table: a short exact program of its own
        tower = plain_tower(question, pool, rules)
        if tower is None:
            return None
        check = check_tower(tower, ranks, rules, pool)
        if not _answers(question, check, rules):
            raise AssertionError(f"the dp engine's tower {tower} does not answer {question}")
        return check
    asks = _asks(question, rules)
    for n, ask in enumerate(asks):
        last = n == len(asks) - 1
        for k in _widths(ask, ranks):
            tower = _program(ask, pool, ranks, rules, k, deadline, state_limit, stoppable)
            if tower is None:
                continue
            check = check_tower(tower, ranks, rules, pool)
            if _answers(question, check, rules):
                return check
            if last:  # the exact program's tower must answer: anything else is a bug here
                raise AssertionError(f"the dp engine's tower {tower} does not answer {question}")
            break  # the relaxation's optimum misses a side condition: run the exact program
    return None


def solve_dp(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules, *,
             time_limit: float = 10.0, stoppable: bool = False) -> SolveResult:
    """Answer `question` exactly by the dynamic program; `optimal`/`infeasible` are proofs.
    `stoppable`: a cancel of the request, or its deadline, stops it as its time limit would
    (not for the referee's finders: a festival's tower is never cut short by a clock)."""
    started = time.perf_counter()
    try:
        check = _checked_tower(question, pool, ranks, rules, started + time_limit,
                               stoppable=stoppable)
    except OutOfTime:
        elapsed = time.perf_counter() - started
        return SolveResult(Status.UNKNOWN, None, None, None, None, elapsed, "dp")
    elapsed = time.perf_counter() - started
    if check is None:
        return SolveResult(Status.INFEASIBLE, None, None, None, None, elapsed, "dp")
    tower = check.tower  # checked by the models checker in `_checked_tower`, like every tower
    uses = check.uses
    if isinstance(question, TileCheck) and isinstance(question.tile, ExhibitionTile):
        uses = check.accounting_using(question.tile.skills)
    objective = objective_of(question, tower, pool.total)
    return SolveResult(
        status=Status.OPTIMAL,
        tower=tower,
        objective=objective,
        bound=None if objective is None else float(objective),
        uses=uses,
        wall_time_s=elapsed,
        engine="dp",
    )
