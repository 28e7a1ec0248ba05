"""The quick path to a proven best arrangement: an exact upper bound and a local search that
often meets it, so that most questions need no model at all.

* `PointTable`: a card's placement points (the rules core's own `count`), cached by what they
  depend on: a position card by its cell, a row/column card by the face-up cards in its row or
  column, a cross card by the face-up cards in its row and column together.
* `upper_bound`: no arrangement gives more placement points. A row (column) card shares its row
  with exactly two of the eight other cards, a cross card its row and column with exactly four
  (two and two, and any four can be split so), so its best over those C(8,2) = 28 or C(8,4) = 70
  contexts bounds it (for a count that is a sum over the members, its own count plus its best two
  or four mates' counts, the same maximum in 8 look-ups); position cards take distinct cells, so
  their best assignment to cells (each pinned card only to the cells its pins allow) bounds them
  together.
* `local_search`: deterministic swap hill climbing from a few starts (the first gives the most
  valuable line cards their best mates; later ones kick the best so far with a few seeded
  random swaps), stopping the moment it meets the bound.

When the search meets the bound its arrangement is proven best (`best_arrangement` then builds no
model); otherwise CP-SAT decides, with the arrangement as a hint and the bound as a cut.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from models.combo import Card, Pos, View, cell_name, count
from planner.combo.question import ALL_CELLS, LINEAR, SIDE, ArrangeQuestion

# where a card's scope-mates stand around it at (0, 0) when a count is computed: only
# membership of the card's row and column matters to a row, column or cross count
_MATES: dict[str, tuple[Pos, ...]] = {
    "row": ((0, 1), (0, 2)),
    "column": ((1, 0), (2, 0)),
    "cross": ((0, 1), (0, 2), (1, 0), (2, 0)),
}
_ROW = [[SIDE * (i // SIDE) + c for c in range(SIDE)] for i in range(SIDE * SIDE)]
_COLUMN = [[SIDE * r + i % SIDE for r in range(SIDE)] for i in range(SIDE * SIDE)]


class PointTable:
    """Placement points of the nine cards (slot indices), cached."""

    def __init__(self, q: ArrangeQuestion) -> None:
        self.cards: list[Card | None] = [None if s.face_down else q.card(s.card)
                                         for s in q.slots]
        self.scope: dict[int, str] = {}
        for u, slot in enumerate(q.slots):
            card = self.cards[u]
            if q.kind_of(slot) == "fixed" or card is None or card.score is None:
                continue
            form = card.score.count
            self.scope[u] = "position" if form is None else str(getattr(form, "scope", "tableau"))
        self.per = [str(getattr(getattr(card and card.score, "count", None), "per", ""))
                    for card in self.cards]
        self.bit = [0 if card is None else 1 << v for v, card in enumerate(self.cards)]
        self.cache: dict[tuple[int, int], int] = {}
        self.share: dict[int, tuple[int, list[int]]] = {}
        # a position card's points in each cell
        self.spots = {u: [self._spot(u, cell) for cell in range(len(ALL_CELLS))]
                      for u, scope in self.scope.items() if scope == "position"}
        # what each line card gains with its best mates, and those mates (set by upper_bound)
        self.wish: dict[int, tuple[int, tuple[int, ...]]] = {}

    def position(self, u: int, cell: int) -> int:
        return self.spots[u][cell]

    def _spot(self, u: int, cell: int) -> int:
        card = self.cards[u]
        assert card is not None and card.score is not None
        cells = getattr(card.score.condition, "cells", ())
        return card.score.points if cell_name(*divmod(cell, SIDE)) in cells else 0

    def linear(self, u: int) -> bool:
        """Whether u's count in a group is the sum of what each member counts alone."""
        return self.per[u] in LINEAR

    def line(self, u: int, mates: int) -> int:
        """Points of row/column/cross card u with the face-up cards of bit set `mates` (u's own
        bit may be in it) sharing its scope."""
        key = (u, mates & ~(1 << u))
        found = self.cache.get(key)
        if found is None:
            if self.per[u] in LINEAR and key[1] & (key[1] - 1):
                # two or more mates of a sum-over-members count: u alone plus each one's share
                alone, shares = self.shares(u)
                found = alone + sum(share for v, share in enumerate(shares) if key[1] >> v & 1)
            else:
                found = self._count(u, key[1])
            self.cache[key] = found
        return found

    def shares(self, u: int) -> tuple[int, list[int]]:
        """A linear card's points alone, and what each other card adds to them."""
        found = self.share.get(u)
        if found is None:
            alone = self.line(u, 0)
            found = self.share[u] = (alone, [self.line(u, bit) - alone if v != u else 0
                                             for v, bit in enumerate(self.bit)])
        return found

    def _count(self, u: int, mates: int) -> int:
        card = self.cards[u]
        assert card is not None and card.score is not None and card.score.count is not None
        face_up: dict[Pos, Card] = {(0, 0): card}
        mated = [m for v, m in enumerate(self.cards) if mates >> v & 1 and m is not None]
        face_up.update(zip(_MATES[self.scope[u]], mated, strict=False))
        return card.score.points * count(card.score.count, View(face_up), (0, 0), card.id)

    def total(self, grid: Sequence[int]) -> int:
        """Placement points of an arrangement: grid[cell index] = slot index."""
        bit = self.bit
        points = 0
        for i, u in enumerate(grid):
            scope = self.scope.get(u)
            if scope is None:
                continue
            if scope == "position":
                points += self.position(u, i)
                continue
            mates = 0
            if scope != "column":
                for j in _ROW[i]:
                    mates |= bit[grid[j]]
            if scope != "row":
                for j in _COLUMN[i]:
                    mates |= bit[grid[j]]
            points += self.line(u, mates)
        return points


def upper_bound(q: ArrangeQuestion, table: PointTable) -> int:
    """Placement points no arrangement obeying the pins exceeds."""
    n = len(q.slots)
    bound = 0
    positions = []
    for u, scope in table.scope.items():
        if scope == "position":
            positions.append(u)
            continue
        size = len(_MATES[scope])
        if table.linear(u):
            # a sum over the members: the card's own points and its best `size` mates
            alone, shares = table.shares(u)
            gains = sorted(((share, v) for v, share in enumerate(shares) if v != u),
                           reverse=True)[:size]
            best = alone + sum(gain for gain, _ in gains)
            mates = tuple(v for share, v in gains if share > 0)  # (the others: anywhere)
        else:
            best, mates = max((table.line(u, sum(table.bit[v] for v in group)), group)
                              for group in combinations([v for v in range(n) if v != u], size))
        bound += best
        table.wish[u] = (best - table.line(u, 0), mates)
    if positions:
        bound += _position_bound(q, table, positions)
    return bound


def _position_bound(q: ArrangeQuestion, table: PointTable, cards: list[int]) -> int:
    """The best points of the position cards on distinct cells (an assignment, by a dynamic
    program over the set of cells used), each pinned card only on the cells its pins allow."""
    allowed: list[list[int]] = []
    for u in cards:
        card_id = q.slots[u].card
        if card_id in q.pinned:
            reachable = {pins[card_id] for o in q.offsets
                         if (pins := q.cells_of(o)) is not None}
            allowed.append([r * SIDE + c for r, c in sorted(reachable)])
        else:
            allowed.append(list(range(len(ALL_CELLS))))
    best: dict[int, int] = {0: 0}
    for u, cells in zip(cards, allowed, strict=True):
        step: dict[int, int] = {}
        for used, points in best.items():
            for cell in cells:
                if not used >> cell & 1:
                    key = used | 1 << cell
                    value = points + table.position(u, cell)
                    if step.get(key, value - 1) < value:
                        step[key] = value
        best = step
    return max(best.values())


def local_search(q: ArrangeQuestion, table: PointTable, target: int, *, starts: int = 6,
                 kicks: int = 3, seed: int = 0) -> tuple[int, list[int]] | None:
    """The best arrangement a swap hill climbing finds (placement points, grid[cell] = slot
    index), for each offset that fits the pins from `starts` arrangements obeying them (the
    line cards' wished one, the plain order, then the best so far after `kicks` seeded random
    swaps: an iterated local search); it stops as soon as it reaches `target` (the upper
    bound). None when no offset fits the pins."""
    rng = random.Random(seed)
    index = {s.card: u for u, s in enumerate(q.slots)}
    best: tuple[int, list[int]] | None = None
    for offset in q.offsets:
        cells = q.cells_of(offset)
        if cells is None:
            continue
        first, movable = _first_grid(q, cells, index)
        pairs = list(combinations(movable, 2))
        here: tuple[int, list[int]] | None = None  # the best of this offset
        for start in range(starts):
            grid = _start_grid(table, first, movable, pairs, start, here, rng, kicks)
            value = _climb(table, grid, pairs, target)
            if here is None or value > here[0]:
                here = (value, grid)
            if best is None or value > best[0]:
                best = (value, grid)
            if best[0] >= target:
                return best
    return best


def _first_grid(q: ArrangeQuestion, cells: dict[str, tuple[int, int]], index: dict[str, int]
                ) -> tuple[list[int], list[int]]:
    """The plain arrangement at an offset (the pinned cards in their cells, the others in
    order in the free cells), and the free cells."""
    pinned_cells = {r * SIDE + c for r, c in cells.values()}
    movable = [i for i in range(len(ALL_CELLS)) if i not in pinned_cells]
    first = [-1] * len(ALL_CELLS)
    for card_id, (r, c) in cells.items():
        first[r * SIDE + c] = index[card_id]
    free = [u for u, s in enumerate(q.slots) if s.card not in cells]
    for i, u in zip(movable, free, strict=True):
        first[i] = u
    return first, movable


def _start_grid(table: PointTable, first: list[int], movable: list[int],
                pairs: list[tuple[int, int]], start: int, here: tuple[int, list[int]] | None,
                rng: random.Random, kicks: int) -> list[int]:
    """Start `start` of the search: the line cards' wished arrangement, the plain one, then
    the best so far after a few random swaps (an iterated local search)."""
    grid = _wished(table, first, set(movable)) if start == 0 else list(first)
    if start > 1 and here is not None and pairs:
        grid = list(here[1])
        for a, b in rng.sample(pairs, min(kicks, len(pairs))):
            grid[a], grid[b] = grid[b], grid[a]
    return grid


def _wished(table: PointTable, first: list[int], movable: set[int]) -> list[int]:
    """A start giving line cards their best mates, most valuable first, where the cells still
    free allow it, and position cards their best free cell; the rest as in `first`."""
    placed: dict[int, int] = {i: first[i] for i in range(len(first)) if i not in movable}
    where = {u: i for i, u in placed.items()}
    for _, u in sorted(((gain, u) for u, (gain, _) in table.wish.items()), reverse=True):
        for i in ([where[u]] if u in where else sorted(movable - set(placed))):
            if _with_mates(table, u, i, placed, where):
                break
    for u, scope in table.scope.items():
        if scope == "position" and u not in where:
            cells = sorted((table.position(u, i), -i) for i in movable if i not in placed)
            if cells and cells[-1][0] > 0:
                placed[-cells[-1][1]] = u
                where[u] = -cells[-1][1]
    rest = iter(u for u in first if u not in where)
    return [placed[i] if i in placed else next(rest) for i in range(len(first))]


def _with_mates(table: PointTable, u: int, i: int, placed: dict[int, int],
                where: dict[int, int]) -> bool:
    """Line card `u` in cell `i` with its wished mates in its line's free cells, when none of
    them stands elsewhere and they fit (placed and where updated); False when not."""
    mates = table.wish[u][1]
    lines = list(_line_cells(table.scope[u], i))
    free = [j for j in lines if j not in placed]
    away = [v for v in mates if v in where and where[v] not in lines]
    new = [v for v in mates if v not in where]
    if away or len(new) > len(free):
        return False
    placed[i] = u
    where[u] = i
    for v, j in zip(new, free, strict=False):
        placed[j] = v
        where[v] = j
    return True


def _line_cells(scope: str, i: int) -> list[int]:
    """The other cells of cell i's row, column or both."""
    cells = (_ROW[i] if scope != "column" else []) + (_COLUMN[i] if scope != "row" else [])
    return [j for j in cells if j != i]


def _climb(table: PointTable, grid: list[int], pairs: list[tuple[int, int]], target: int) -> int:
    """First-improvement swaps until none improves or the target is met (grid changed in
    place); returns its placement points."""
    value = table.total(grid)
    improved = True
    while improved and value < target:
        improved = False
        for a, b in pairs:
            grid[a], grid[b] = grid[b], grid[a]
            after = table.total(grid)
            if after > value:
                value = after
                improved = True
                if value >= target:
                    break
            else:
                grid[a], grid[b] = grid[b], grid[a]
    return value
