"""The best arrangement as a CP-SAT model: a card-to-cell assignment with every placement-dependent
scroll as constraints over it.

Variables: `x[u, cell]` for each face-up card (face-down cards are interchangeable and carry
nothing, so they get no variables: a cell with no face-up card holds one), `row[u, r]` and
`col[u, c]` derived from them, and one Boolean per allowed offset of the pinned cards.

A scroll counting in a row, column or cross is a value per *group* (3 rows, 3 columns or the 9
crosses): linear counts (shields of a type, banners, costs, shields on a card, discounts) are a
weighted sum of the members; distinct shield types, complete sets and identical-shield groups are
built from per-type counts with reified thresholds, divisions and minima. A card scores its
group's value through a variable equal to it when the card is in that group and 0 otherwise.
`if = "position"` is linear in `x`. Every other point is a constant computed by the rules core.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import cast

from ortools.sat.python import cp_model

from models.combo import LOCATIONS, SHIELDS, Card, Grid, Pos, Slot, View, cell_name, count
from planner.clock import now
from planner.combo.arrange_bound import PointTable, local_search, upper_bound
from planner.combo.question import (
    ALL_CELLS,
    LINEAR,
    SIDE,
    ArrangeQuestion,
    ArrangeResult,
    Status,
    checked,
    checked_points,
    grid_of,
)
from planner.stopping import solve_stoppable

LinearExpr = cp_model.LinearExprT


@dataclass(frozen=True)
class Limits:
    """Always a limit; deterministic (fixed seed and workers, deterministic time)."""

    deterministic_time: float = 10.0  # CP-SAT's deterministic time units (~seconds)
    wall_time: float = 60.0  # a backstop only; the deterministic limit comes first
    workers: int = 1
    seed: int = 0


class Engine(StrEnum):
    """Which engine answers (both prove what they call optimal)."""

    AUTO = "auto"  # the upper bound and a local search first; CP-SAT when they do not meet
    CPSAT = "cpsat"  # the CP-SAT model alone (no bound, no local search)


def _single(form: object, card: Card) -> int:
    """What a linear count form counts on one card alone (the rules core decides)."""
    return count(form, View({(0, 0): card}), (0, 0), card.id)  # type: ignore[arg-type]


class _Model:
    def __init__(self, q: ArrangeQuestion) -> None:
        self.q = q
        self.m = cp_model.CpModel()
        self.up: list[Card] = q.face_up
        n = len(self.up)
        m = self.m
        self.x = {(u, p): m.new_bool_var(f"x{u}_{p[0]}{p[1]}") for u in range(n)
                  for p in ALL_CELLS}
        for u in range(n):
            m.add_exactly_one(self.x[u, p] for p in ALL_CELLS)
        for p in ALL_CELLS:
            m.add_at_most_one(self.x[u, p] for u in range(n))
        self.row = {(u, r): m.new_bool_var(f"r{u}_{r}") for u in range(n) for r in range(SIDE)}
        self.col = {(u, c): m.new_bool_var(f"c{u}_{c}") for u in range(n) for c in range(SIDE)}
        for u in range(n):
            for i in range(SIDE):
                m.add(self.row[u, i] == sum(self.x[u, (i, c)] for c in range(SIDE)))
                m.add(self.col[u, i] == sum(self.x[u, (r, i)] for r in range(SIDE)))
        self.values: dict[tuple[object, ...], cp_model.IntVar | int] = {}
        self._pins()

    def _pins(self) -> None:
        q, m = self.q, self.m
        index = {card.id: u for u, card in enumerate(self.up)}
        choices = []
        self.offset_vars: list[tuple[Pos, cp_model.IntVar]] = []
        for offset in q.offsets:
            cells = q.cells_of(offset)
            if cells is None:
                continue
            chosen = m.new_bool_var(f"offset{offset}")
            choices.append(chosen)
            self.offset_vars.append((offset, chosen))
            for card_id, cell in cells.items():
                if card_id in index:
                    m.add_implication(chosen, self.x[index[card_id], cell])
                else:  # a face-down card holds this cell: no face-up card there
                    for u in range(len(self.up)):
                        m.add_implication(chosen, ~self.x[u, cell])
        m.add_exactly_one(choices)

    # --- groups: which cards a row, column or cross holds ---------------------------------------
    def member(self, scope: str, group: object, u: int) -> LinearExpr:
        if scope == "row":
            return self.row[u, group]  # type: ignore[index]
        if scope == "column":
            return self.col[u, group]  # type: ignore[index]
        r, c = cast(Pos, group)
        return self.row[u, r] + self.col[u, c] - self.x[u, (r, c)]

    @staticmethod
    def groups(scope: str) -> Sequence[object]:
        return ALL_CELLS if scope == "cross" else range(SIDE)

    def where(self, scope: str, group: object, u: int) -> cp_model.IntVar:
        """The literal: card u anchors this group (is in that row, column or cross centre)."""
        if scope == "row":
            return self.row[u, group]  # type: ignore[index]
        if scope == "column":
            return self.col[u, group]  # type: ignore[index]
        return self.x[u, group]  # type: ignore[index]

    def tally(self, scope: str, group: object, weight: Sequence[int]) -> LinearExpr:
        return sum(w * self.member(scope, group, u) for u, w in enumerate(weight) if w)

    def int_of(self, expr: LinearExpr, ub: int, name: str) -> cp_model.IntVar:
        var = self.m.new_int_var(0, ub, name)
        self.m.add(var == expr)
        return var

    def shield_counts(self, scope: str, group: object) -> dict[str, cp_model.IntVar]:
        key = ("shields", scope, group)
        if key not in self.values:
            for shield in SHIELDS:
                weight = [card.shields.count(shield) for card in self.up]
                self.values[(*key, shield)] = self.int_of(
                    self.tally(scope, group, weight), sum(weight), f"s_{shield}_{group}")
            self.values[key] = 0
        return {s: self.values[(*key, s)] for s in SHIELDS}  # type: ignore[misc]

    def value(self, form: object, scope: str, group: object) -> cp_model.IntVar | int:
        """The count `form` gives in one group, as a variable (cached per form and group)."""
        key = (repr(form), scope, group)
        if key in self.values:
            return self.values[key]
        m = self.m
        per = getattr(form, "per", "")
        ub = count(form, View(dict(enumerate_cells(self.up))), None)  # type: ignore[arg-type]
        var = m.new_int_var(0, max(ub, 0), f"v{len(self.values)}")
        if per in LINEAR:
            m.add(var == self.tally(scope, group, [_single(form, c) for c in self.up]))
        elif per == "shield_type":
            counts = self.shield_counts(scope, group)
            present = []
            for shield, n in counts.items():
                has = m.new_bool_var(f"has_{shield}")
                m.add(n >= 1).only_enforce_if(has)
                m.add(n == 0).only_enforce_if(~has)
                present.append(has)
            m.add(var == sum(present))
        elif per == "identical_shields":
            counts = self.shield_counts(scope, group)
            size = form.size  # type: ignore[attr-defined]
            parts = []
            for n in counts.values():
                part = m.new_int_var(0, 18, "groups")
                m.add_division_equality(part, n, size)
                parts.append(part)
            m.add(var == sum(parts))
        elif per in ("shield_set", "banner_set"):
            if per == "shield_set":
                counts = self.shield_counts(scope, group)
                wanted = list(form.shields)  # type: ignore[attr-defined]
            else:
                counts = {loc: self.int_of(
                    self.tally(scope, group, [int(c.location == loc) for c in self.up]),
                    len(self.up), f"b_{loc}") for loc in LOCATIONS}
                wanted = list(form.locations)  # type: ignore[attr-defined]
            sets = []
            for item in sorted(set(wanted)):
                need = wanted.count(item)
                part = m.new_int_var(0, 18, "sets")
                m.add_division_equality(part, counts[item], need)
                sets.append(part)
            m.add_min_equality(var, sets)
        else:
            raise AssertionError(f"count form {per!r} has no row/column/cross scope")
        self.values[key] = var
        return var

    def objective(self, caps: Mapping[str, int] | None = None) -> LinearExpr:
        """The placement points; `caps` (card id -> the most its scroll can score anywhere,
        from `arrange_bound`) tighten each card's count variables."""
        terms: list[LinearExpr] = []
        m = self.m
        caps = caps or {}
        for u, card in enumerate(self.up):
            score = card.score
            if score is None:
                continue
            if score.condition is not None:
                cells = getattr(score.condition, "cells", None)
                if cells is not None:
                    terms.append(score.points * sum(self.x[u, p] for p in ALL_CELLS
                                                    if _name(p) in cells))
                continue
            scope = getattr(score.count, "scope", "tableau")
            if scope not in ("row", "column", "cross"):
                continue
            cap = caps.get(card.id)
            for group in self.groups(scope):
                value = self.value(score.count, scope, group)
                ub = value if isinstance(value, int) else max(value.proto.domain)
                if cap is not None and score.points > 0:
                    ub = min(ub, cap // score.points)
                got = m.new_int_var(0, ub, f"got{u}_{group}")
                here = self.where(scope, group, u)
                m.add(got == value).only_enforce_if(here)
                m.add(got == 0).only_enforce_if(~here)
                terms.append(score.points * got)
        return sum(terms)

    def break_symmetry(self) -> bool:
        """With nothing pinned and no scroll naming a cell, permuting rows or columns changes no
        score: put the first face-up card top-left, and the second (by a swap of the two other
        rows, then of the two other columns) out of the last row and column."""
        if self.q.pinned or any(self.q.kind_of(s) == "position" for s in self.q.slots):
            return False
        if self.up:
            self.m.add(self.x[0, (0, 0)] == 1)
        if len(self.up) > 1:
            self.m.add(self.row[1, SIDE - 1] == 0)
            self.m.add(self.col[1, SIDE - 1] == 0)
        return True

    def hint(self, grid: Grid) -> None:
        """Start the search from `grid` (a whole arrangement)."""
        index = {card.id: u for u, card in enumerate(self.up)}
        for pos, slot in grid.slots():
            if slot.card in index:
                for p in ALL_CELLS:
                    self.m.add_hint(self.x[index[slot.card], p], p == pos)

    def grid(self, solver: cp_model.CpSolver) -> dict[Pos, Slot]:
        placed: dict[Pos, Slot] = {}
        by_id = {s.card: s for s in self.q.slots}
        for (u, p), var in self.x.items():
            if solver.boolean_value(var):
                placed[p] = by_id[self.up[u].id]
        # the face-down cards: pinned ones where the chosen offset puts them, then in order
        chosen = next(o for o, var in self.offset_vars if solver.boolean_value(var))
        cells = self.q.cells_of(chosen) or {}
        down = [c for c in self.q.face_down if c not in cells]
        for card_id in self.q.face_down:
            if card_id in cells:
                placed[cells[card_id]] = by_id[card_id]
        for p in ALL_CELLS:
            if p not in placed:
                placed[p] = by_id[down.pop(0)]
        return placed


def _name(p: Pos) -> str:
    return cell_name(*p)


def enumerate_cells(cards: Sequence[Card]) -> list[tuple[Pos, Card]]:
    """Cards at distinct cells (for upper bounds over all of them)."""
    return [((i // SIDE, i % SIDE), card) for i, card in enumerate(cards)]


def best_arrangement(q: ArrangeQuestion, limits: Limits | None = None,
                     clock: Callable[[], float] = now,
                     engine: Engine = Engine.AUTO) -> ArrangeResult:
    """The best arrangement, proven when the status says optimal; re-scored by the rules core.

    `Engine.AUTO` first bounds the placement points (`arrange_bound.upper_bound`) and runs a
    local search: when it meets the bound its arrangement is proven best and no model is built
    (engine "bound"); otherwise CP-SAT decides, from that arrangement as a hint, with the
    objective between its points and the bound. `Engine.CPSAT` is the model alone."""
    limits = limits or Limits()
    started = clock()
    floor: tuple[int, int, Grid] | None = None  # (the local search's points, the bound, grid)
    if engine is Engine.AUTO:
        table = PointTable(q)
        bound = upper_bound(q, table)
        found = local_search(q, table, bound)
        if found is None:  # no offset keeps the pinned cards in the grid
            return ArrangeResult(Status.INFEASIBLE, None, None, None, clock() - started,
                                 engine="bound")
        grid = grid_of({divmod(i, SIDE): q.slots[u] for i, u in enumerate(found[1])})
        if found[0] >= bound:
            sheet = checked_points(q, grid, found[0])  # one scoring: constant + found[0]
            total = sheet.total
            return ArrangeResult(Status.OPTIMAL, total, grid, total, clock() - started, sheet,
                                 engine="bound")
        floor = (found[0], bound, grid)
        caps = {q.slots[u].card: gain + table.line(u, 0) for u, (gain, _) in table.wish.items()}
        return _solve_model(q, limits, clock, started, floor, caps)
    return _solve_model(q, limits, clock, started, None, None)


def _solve_model(q: ArrangeQuestion, limits: Limits, clock: Callable[[], float],
                 started: float, floor: tuple[int, int, Grid] | None,
                 caps: Mapping[str, int] | None) -> ArrangeResult:
    built = _Model(q)
    objective = built.objective(caps)
    built.m.maximize(objective)
    symmetric = built.break_symmetry()
    if floor is not None:
        # both valid for every optimum: the local search reached floor[0], nothing beats floor[1]
        built.m.add(objective >= floor[0])
        built.m.add(objective <= floor[1])
        built.hint(_canonical(floor[2], built.up) if symmetric else floor[2])
    elif not symmetric:
        built.hint(q.any_grid())  # (it may break the symmetry constraints: none then)
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.max_deterministic_time = limits.deterministic_time
    params.max_time_in_seconds = limits.wall_time
    params.num_workers = limits.workers
    params.random_seed = limits.seed
    # no LP relaxation: on these small models it costs more than it prunes (median about
    # halved, worst case a fifth, on the benchmark's sets)
    params.linearization_level = 0
    # no probing in presolve either: a fifth off the median on the benchmark's sets, for both
    # the model alone and the model after the local search
    params.cp_model_probing_level = 0
    code = solve_stoppable(solver, built.m)  # Ctrl-C ends it with the best found so far
    elapsed = clock() - started
    if code == cp_model.MODEL_INVALID:
        raise AssertionError(f"CP-SAT rejected the model: {built.m.validate()}")
    if code == cp_model.INFEASIBLE:
        return ArrangeResult(Status.INFEASIBLE, None, None, None, elapsed)
    constant = q.constant()
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if floor is not None:  # the limit came first: the local search's arrangement stands
            sheet = checked_points(q, floor[2], floor[0])
            return ArrangeResult(Status.FEASIBLE, sheet.total, floor[2], constant + floor[1],
                                 clock() - started, sheet)
        return ArrangeResult(Status.UNKNOWN, None, None, None, elapsed)
    grid = grid_of(built.grid(solver))
    total = constant + round(solver.objective_value)
    sheet = checked(q, grid, total)
    bound = constant + int(solver.best_objective_bound + 1e-6)
    if floor is not None:
        bound = min(bound, constant + floor[1])
    status = Status.OPTIMAL if code == cp_model.OPTIMAL else Status.FEASIBLE
    return ArrangeResult(status, total, grid, total if status is Status.OPTIMAL else bound,
                         clock() - started, sheet)


def _canonical(grid: Grid, up: Sequence[Card]) -> Grid:
    """The same arrangement with rows and columns permuted (which changes no score when
    `break_symmetry` applies) so that it obeys the symmetry-breaking constraints."""
    rows = [list(row) for row in grid.rows]

    def at(card: Card) -> Pos:
        return next((r, c) for r in range(SIDE) for c in range(SIDE)
                    if rows[r][c] is not None and rows[r][c].card == card.id)  # type: ignore[union-attr]

    def swap_rows(a: int, b: int) -> None:
        rows[a], rows[b] = rows[b], rows[a]

    def swap_columns(a: int, b: int) -> None:
        for row in rows:
            row[a], row[b] = row[b], row[a]

    if up:
        r, c = at(up[0])
        swap_rows(0, r)
        swap_columns(0, c)
    if len(up) > 1:
        r, c = at(up[1])
        if r == SIDE - 1:
            swap_rows(1, r)
        if c == SIDE - 1:
            swap_columns(1, c)
    return grid_of({(r, c): slot for r, row in enumerate(rows) for c, slot in enumerate(row)
                    if slot is not None})
