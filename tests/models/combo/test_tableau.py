"""Placement against a brute-force definition, and the grid notation's round trip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.combo import (
    CELLS,
    Grid,
    Slot,
    cell_name,
    cell_pos,
    legal_cells,
    placement_problem,
    sequence_problem,
)
from models.errors import NotationError

Cell = tuple[int, int]


def _connected(cells: list[Cell]) -> bool:
    """Brute force: grow a component from the first cell by repeated scans."""
    component = {cells[0]}
    changed = True
    while changed:
        changed = False
        for r, c in cells:
            if (r, c) not in component and any(
                    abs(r - r2) + abs(c - c2) == 1 for r2, c2 in component):
                component.add((r, c))
                changed = True
    return len(component) == len(set(cells))


def _brute_legal(cells: list[Cell]) -> bool:
    """The definition: distinct cells, every prefix connected, every prefix within 3x3."""
    if len(set(cells)) != len(cells):
        return False
    for n in range(1, len(cells) + 1):
        prefix = cells[:n]
        rows = {r for r, _ in prefix}
        columns = {c for _, c in prefix}
        if max(rows) - min(rows) > 2 or max(columns) - min(columns) > 2:
            return False
        if not _connected(prefix):
            return False
    return True


coords = st.tuples(st.integers(-3, 3), st.integers(-3, 3))


@settings(max_examples=300)
@given(st.lists(coords, min_size=1, max_size=10))
def test_sequence_check_matches_the_definition(cells: list[Cell]) -> None:
    assert (sequence_problem(cells) is None) == _brute_legal(cells)


@st.composite
def legal_sequence(draw: st.DrawFn) -> list[Cell]:
    cells: list[Cell] = [draw(coords)]
    for _ in range(8):
        cells.append(draw(st.sampled_from(legal_cells(cells))))
    return cells


@settings(max_examples=100)
@given(legal_sequence())
def test_every_full_legal_sequence_is_a_full_three_by_three(cells: list[Cell]) -> None:
    assert _brute_legal(cells)
    rows = {r for r, _ in cells}
    columns = {c for _, c in cells}
    assert len(rows) == 3 and len(columns) == 3 and len(set(cells)) == 9
    grid = Grid.from_cells({cell: Slot(f"X{i}") for i, cell in enumerate(cells)})
    assert grid.full
    assert legal_cells(cells) == []


@settings(max_examples=100)
@given(st.lists(coords, min_size=1, max_size=6, unique=True), coords)
def test_legal_cells_are_exactly_the_allowed_placements(taken: list[Cell], cell: Cell) -> None:
    allowed = cell in legal_cells(taken)
    assert allowed == (placement_problem(taken, cell) is None)


def test_refusals_say_why() -> None:
    assert "4th row or column" in (placement_problem([(0, 0), (0, 1), (0, 2)], (0, 3)) or "")
    assert "not next to" in (placement_problem([(0, 0)], (1, 1)) or "")
    assert "already holds" in (placement_problem([(0, 0)], (0, 0)) or "")


slot = st.one_of(st.none(), st.builds(Slot, st.from_regex(r"[A-Z][0-9]{2}", fullmatch=True),
                                      st.booleans()))


@settings(max_examples=200)
@given(st.lists(slot, min_size=9, max_size=9))
def test_notation_round_trips(slots: list[Slot | None]) -> None:
    ids = [s.card for s in slots if s is not None]
    if len(set(ids)) != len(ids):
        with pytest.raises(NotationError, match="twice"):
            Grid.parse(str(Grid(tuple(tuple(slots[r * 3:r * 3 + 3]) for r in range(3)))))
        return
    grid = Grid(tuple(tuple(slots[r * 3:r * 3 + 3]) for r in range(3)))
    assert Grid.parse(str(grid)) == grid
    assert str(Grid.parse(str(grid))) == str(grid)


def test_notation_example_of_the_rules_page() -> None:
    grid = Grid.parse("C07,V12,-/V03,~C20,-/-,-,-")
    assert grid.at((1, 1)) == Slot("C20", True)
    assert grid.at((0, 2)) is None
    assert str(grid) == "C07,V12,-/V03,~C20,-/-,-,-"


@pytest.mark.parametrize("text", ["C07,V12/V03,C20,-/-,-,-", "C07,V12,-/V03",
                                  "C07,,-/-,-,-/-,-,-", "C07,C07,-/-,-,-/-,-,-",
                                  "C0 7,-,-/-,-,-/-,-,-", "~,-,-/-,-,-/-,-,-"])
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        Grid.parse(text)


def test_cell_names() -> None:
    assert [cell_name(*cell_pos(name)) for name in CELLS] == list(CELLS)
    assert cell_pos("centre") == (1, 1) and cell_pos("bottom-left") == (2, 0)
    assert Grid.parse("A,-,-/B,-,-/-,-,C").shape_problem() is not None
    assert Grid.parse("A,-,-/B,-,-/C,D,E").shape_problem() is None


def test_a_legal_cell_is_never_refused_for_its_coordinates() -> None:
    # coordinates are relative to the first card, wherever it was written: the 3x3 box is
    # the only bound
    for first in [(7, 8), (-9, 9), (70, -81), (12345, 678)]:
        taken = [first]
        while len(taken) < 9:
            cells = legal_cells(taken)
            assert cells
            assert all(placement_problem(taken, cell) is None for cell in cells), (taken, cells)
            taken.append(cells[-1])
        assert sequence_problem(taken) is None
        assert Grid.from_cells({pos: Slot(f"C{i:02d}") for i, pos in enumerate(taken)}).full
