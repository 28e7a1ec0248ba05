"""The exhaustive reference for the best arrangement: every way to put the nine cards in the grid,
each scored with the rules core's own counting (`models.combo.count`), for the tests to hold the
CP-SAT model to.

It walks the row partitions (which three cards share each row), then the orders within the rows
(which fixes the columns). Two things keep it quick without changing what it computes:

* caching: a card's placement points depend only on its cell and on *which* cards share its row
  and column, so each is computed once per (card, cell or row set, column set);
* symmetry: when no scroll names a cell and nothing is pinned, permuting rows or columns changes
  no score, so only one arrangement in each class of 36 is scored (row minima increasing, and the
  first row in increasing order).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, permutations, product

from models.combo import Card, Pos, Slot, View, cell_name, count
from planner.clock import now
from planner.combo.question import (
    ALL_CELLS,
    SIDE,
    ArrangeQuestion,
    ArrangeResult,
    Status,
    checked,
    grid_of,
)

Key = tuple[object, ...]


class _Points:
    """Placement points of one card, cached by what they depend on."""

    def __init__(self, q: ArrangeQuestion) -> None:
        self.slots = q.slots
        self.cards: list[Card | None] = [None if s.face_down else q.card(s.card)
                                         for s in q.slots]
        self.kinds = [q.kind_of(s) for s in q.slots]
        self.cache: dict[Key, int] = {}

    def scope(self, u: int) -> str:
        card = self.cards[u]
        assert card is not None and card.score is not None
        if card.score.count is None:
            return "position"
        return str(getattr(card.score.count, "scope", "tableau"))

    def of(self, u: int, cell: Pos, row: tuple[int, ...], column: tuple[int, ...]) -> int:
        """Points of card u at `cell`, `row`/`column` the cards (indices) sharing them."""
        if self.kinds[u] == "fixed":
            return 0
        scope = self.scope(u)
        up = self.cards
        key: Key
        if scope == "position":
            key = (u, cell)
        elif scope == "row":
            key = (u, frozenset(v for v in row if up[v] is not None))
        elif scope == "column":
            key = (u, frozenset(v for v in column if up[v] is not None))
        else:
            key = (u, frozenset(v for v in row if up[v] is not None),
                   frozenset(v for v in column if up[v] is not None))
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = self._compute(u, cell, row, column)
        return found

    def _compute(self, u: int, cell: Pos, row: tuple[int, ...], column: tuple[int, ...]) -> int:
        card = self.cards[u]
        assert card is not None and card.score is not None
        score = card.score
        if score.count is None:
            cells = getattr(score.condition, "cells", [])
            return score.points if cell_name(*cell) in cells else 0
        # the row's other cards in the other columns, the column's in the other rows: only
        # membership of the row and column matters to a count
        face_up: dict[Pos, Card] = {cell: card}
        others = [c for c in range(SIDE) if c != cell[1]]
        for v, c in zip((v for v in row if v != u), others, strict=False):
            if self.cards[v] is not None:
                face_up[(cell[0], c)] = self.cards[v]  # type: ignore[assignment]
        rows = [r for r in range(SIDE) if r != cell[0]]
        for v, r in zip((v for v in column if v != u), rows, strict=False):
            if self.cards[v] is not None:
                face_up[(r, cell[1])] = self.cards[v]  # type: ignore[assignment]
        return score.points * count(score.count, View(face_up), cell, card.id)


def _symmetric(q: ArrangeQuestion, points: _Points) -> bool:
    return not q.pinned and not any(k == "position" for k in points.kinds)


def _search(q: ArrangeQuestion, pins: dict[int, Pos], points: _Points
            ) -> tuple[int, dict[Pos, int]] | None:
    """The best placement points and arrangement (cell -> card index) for fixed pins."""
    symmetric = _symmetric(q, points)
    best: tuple[int, dict[Pos, int]] | None = None
    for rows in _row_splits(len(q.slots), symmetric):
        if any(pins[v][0] != i for i, r in enumerate(rows) for v in r if v in pins):
            continue
        found = _best_orders(rows, pins, points, symmetric)
        if found is not None and (best is None or found[0] > best[0]):
            best = found
    return best


Rows = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _row_splits(n: int, symmetric: bool) -> Iterator[Rows]:
    """Every split of the cards into three rows (with the symmetry, each up to the order of
    the rows: card 0 in the first, the first card left in the second)."""
    everyone = tuple(range(n))
    for r0 in combinations(everyone, SIDE):
        if symmetric and 0 not in r0:
            continue
        rest = tuple(v for v in everyone if v not in r0)
        for r1 in combinations(rest, SIDE):
            if symmetric and rest[0] not in r1:
                continue
            yield r0, r1, tuple(v for v in rest if v not in r1)


def _best_orders(rows: Rows, pins: dict[int, Pos], points: _Points, symmetric: bool
                 ) -> tuple[int, dict[Pos, int]] | None:
    """The best order of each row's cards (with the symmetry, the first row's as given):
    its placement points and arrangement; each column's points computed once."""
    r0, r1, r2 = rows
    column_value: dict[Key, int] = {}
    best: tuple[int, dict[Pos, int]] | None = None
    orders0 = [r0] if symmetric else list(permutations(r0))
    for grid in product(orders0, permutations(r1), permutations(r2)):
        if pins and any(pins.get(grid[i][j], (i, j)) != (i, j)
                        for i in range(SIDE) for j in range(SIDE)):
            continue
        total = 0
        for j in range(SIDE):
            column = (grid[0][j], grid[1][j], grid[2][j])
            key = (j, *column)
            value = column_value.get(key)
            if value is None:
                value = column_value[key] = sum(points.of(column[i], (i, j), rows[i], column)
                                                for i in range(SIDE))
            total += value
        if best is None or total > best[0]:
            best = (total, {(i, j): grid[i][j] for i in range(SIDE) for j in range(SIDE)})
    return best


def arrange_exhaustive(q: ArrangeQuestion,
                       clock: Callable[[], float] = now) -> ArrangeResult:
    """The proven best arrangement by trying them all (the tests' reference)."""
    started = clock()
    points = _Points(q)
    index = {s.card: i for i, s in enumerate(q.slots)}
    best: tuple[int, dict[Pos, int]] | None = None
    for offset in q.offsets:
        cells = q.cells_of(offset)
        if cells is None:
            continue
        found = _search(q, {index[c]: cell for c, cell in cells.items()}, points)
        if found is not None and (best is None or found[0] > best[0]):
            best = found
    if best is None:
        return ArrangeResult(Status.INFEASIBLE, None, None, None, clock() - started,
                             engine="exhaustive")
    placed: dict[Pos, Slot] = {cell: q.slots[u] for cell, u in best[1].items()}
    assert set(placed) == set(ALL_CELLS)
    grid = grid_of(placed)
    total = q.constant() + best[0]
    sheet = checked(q, grid, total)
    return ArrangeResult(Status.OPTIMAL, total, grid, total, clock() - started, sheet,
                         engine="exhaustive")
