"""The dp engine's exact path for a player with no skill ranks (every skill at rank 0).

Why it exists: every game starts with all five skills at rank 0, so it is the commonest state
at the table, and there the general program's fixed cost (its per-question tables and
closures, its memo of skill-use states) is most of its time for the few towers there are.

With no rank a tower is plain: every level holds one size (Mix), sizes fall strictly level by
level (Strength), counts fall strictly (Balance), exactly one fewer each level with the one-fewer
reading, and no level holds more than the width limit W (Width, Base). So a tower has at most W
levels (W = 3: at most 3 levels, counts 3, 2, 1 at the widest), and it is a choice of one count
per size taken, bottom (largest size) to top. This program walks the sizes from the largest
down, keeping per "what can still matter above" (the top count so far; in a festival also the
height up to its least height and the token sizes seen; for a shape tile, the levels laid) the
best tower so far: at most W + 1 states in a best-tower question, so a handful of steps a size.
Every question kind is answered: best tower, festival tower, shape tile, and skill exhibition
(no tower: an exhibition lists at least one skill, and none can be used at rank 0).

It is exact (every plain tower is a path through these states, and a state keeps the best of
the towers that reach it, whose rest above is interchangeable), compared with the exhaustive
reference by hypothesis (`tests/planner/tower/test_plain.py`), and its tower is re-checked by
the `models` checker like every engine's (`planner.tower.dp._checked_tower`).
"""

from __future__ import annotations

from itertools import pairwise

from models.tower import ExhibitionTile, Level, Pool, Rules, ShapeTile, SkillRanks, Tower
from planner.tower.objective import height_weight
from planner.tower.questions import BestTower, FestivalTower, Question, TileCheck

Laid = tuple[tuple[int, int], ...]  # (size, count) per level, bottom first


def no_ranks(ranks: SkillRanks) -> bool:
    """Every skill at rank 0: the class of teams `plain_tower` answers."""
    return not (ranks.balance or ranks.base or ranks.mix or ranks.strength or ranks.width)


def plain_tower(question: Question, pool: Pool, rules: Rules) -> Tower | None:
    """The best tower for `question` with every skill at rank 0 (for a tile: a tower that
    meets it), or None when no tower answers it."""
    lo, hi = rules.min_size, rules.max_size
    # (size, castellers a level of it can hold), largest size first: the bottom is laid first
    sizes = [(s, c if c < rules.width_limit else rules.width_limit)
             for s, c in reversed(pool.items) if lo <= s <= hi]
    if not sizes:
        return None
    one_fewer = rules.decrease == "one-fewer"
    if isinstance(question, BestTower):
        widest = max(have for _, have in sizes)  # no level holds more (at most the limit)
        laid = _best(sizes, height_weight(pool.total), widest, one_fewer)
    elif isinstance(question, FestivalTower):
        laid = _festival(sizes, question.festival.token_sizes, rules.festival_min_levels,
                         one_fewer)
    elif isinstance(question.tile, ShapeTile):
        laid = _shape(sizes, question.tile.counts, rules.width_limit, one_fewer)
    else:
        assert isinstance(question, TileCheck) and isinstance(question.tile, ExhibitionTile)
        laid = None  # an exhibition needs a skill used, and no skill has a rank
    if not laid:
        return None
    return Tower(tuple(Level((s,) * c) for s, c in laid))


def _best(sizes: list[tuple[int, int]], weight: int, width: int, one_fewer: bool
          ) -> Laid | None:
    """The tallest plain tower, then the one with the most castellers: per top count c (0: no
    level yet) the best score (weight a level plus its castellers) and its levels. The score
    is a sum over levels, so the best tower to a top count is the best start for any rest,
    and a level of c castellers stands best on the best of the empty tower and the towers
    whose top holds more than c (exactly c + 1 with one fewer): a running maximum as c falls."""
    score = [0] + [-1] * (width + 1)  # score[c]: the best tower whose top holds c (-1: none)
    laid: list[Laid] = [()] * (width + 2)  # (width + 1: never a top, so the running start)
    for s, have in sizes:
        before, below = score[:], laid[:]  # a size is laid once: extend towers of larger sizes
        start = 0
        for c in range(width, 0, -1):
            up = c + 1
            if one_fewer:
                start = up if before[up] > 0 else 0
            elif before[up] > before[start]:
                start = up
            if c <= have:
                gained = before[start] + weight + c
                if gained > score[c]:
                    score[c], laid[c] = gained, (*below[start], (s, c))
    best = max(range(1, width + 1), key=score.__getitem__)
    return laid[best] if score[best] > 0 else None


def _festival(sizes: list[tuple[int, int]], tokens: frozenset[int], least: int,
              one_fewer: bool) -> Laid | None:
    """The best festival score (a point a level and a point per casteller of a token size)
    among plain towers of at least `least` levels that hold every token size: per (top count,
    levels up to `least`, token sizes seen as bits) the best score and its levels."""
    bits = {size: 1 << n for n, size in enumerate(sorted(tokens))}
    full = (1 << len(bits)) - 1
    states: dict[tuple[int, int, int], tuple[int, Laid]] = {(0, 0, 0): (0, ())}
    for s, have in sizes:
        bit = bits.get(s, 0)
        grown = dict(states)
        for (top, height, seen), (value, laid) in states.items():
            if top == 0:
                counts = range(1, have + 1)
            elif one_fewer:
                counts = range(top - 1, top) if 1 <= top - 1 <= have else range(0)
            else:
                counts = range(1, min(top - 1, have) + 1)
            for c in counts:
                key = (c, height + 1 if height < least else least, seen | bit)
                gained = value + 1 + (c if bit else 0)
                old = grown.get(key)
                if old is None or gained > old[0]:
                    grown[key] = (gained, (*laid, (s, c)))
        states = grown
    done = [found for (top, height, seen), found in states.items()
            if top and height >= least and seen == full]
    return max(done, key=lambda found: found[0])[1] if done else None


def _shape(sizes: list[tuple[int, int]], counts: tuple[int, ...], width: int,
           one_fewer: bool) -> Laid | None:
    """A plain tower of exactly these counts, bottom to top: the counts must fall (by one with
    one fewer) and fit the width limit; then each level takes the largest size left below the
    level under it that holds its count (the largest leaves the most sizes for the levels
    above, so this finds a tower whenever one exists)."""
    for below, count in pairwise(counts):
        if count >= below or (one_fewer and count != below - 1):
            return None
    if counts[0] > width:
        return None
    laid: list[tuple[int, int]] = []
    n = 0
    for s, have in sizes:
        if n == len(counts):
            break
        if have >= counts[n]:
            laid.append((s, counts[n]))
            n += 1
    return tuple(laid) if n == len(counts) else None
