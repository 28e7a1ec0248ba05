"""A player's tableau: relative coordinates while it grows, the final 3x3 grid, and its notation.

During play a card sits at (row, column) relative to the first card (rows grow downward,
columns rightward, negatives allowed). A placement is legal when the cell is free, orthogonally
next to a card already there (except for the first card), and the bounding box stays within 3x3.
The grid notation writes the rows top to bottom split by `/`, cells by `,`: a card id, `~ID` for
a face-down card, `-` for an empty cell: `C07,V12,-/V03,~C20,-/-,-,-`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from models.combo.cards import CELLS, Cell
from models.errors import NotationError

SIDE = 3
Pos = tuple[int, int]  # (row, column)
NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass(frozen=True)
class Slot:
    """A tableau cell's card and whether it is face down."""
    card: str
    face_down: bool = False

    def __str__(self) -> str:
        return f"~{self.card}" if self.face_down else self.card


def cell_name(row: int, column: int) -> Cell:
    """The name of a cell (`top-left` ... `bottom-right`)."""
    return CELLS[row * SIDE + column]


def cell_pos(name: str) -> Pos:
    """The place of a named cell."""
    if name not in CELLS:
        raise NotationError(f"unknown cell '{name}' (one of {', '.join(CELLS)})", token=name)
    index = CELLS.index(name)
    return divmod(index, SIDE)


def span_ok(cells: Iterable[Pos]) -> bool:
    """The bounding box of `cells` is within 3x3."""
    cells = list(cells)
    if not cells:
        return True
    rows = [r for r, _ in cells]
    columns = [c for _, c in cells]
    return max(rows) - min(rows) < SIDE and max(columns) - min(columns) < SIDE


def legal_cells(occupied: Iterable[Pos]) -> list[Pos]:
    """Where the next card may go (sorted); for an empty tableau, the origin."""
    taken = set(occupied)
    if not taken:
        return [(0, 0)]
    found = set()
    for r, c in taken:
        for dr, dc in NEIGHBOURS:
            cell = (r + dr, c + dc)
            if cell not in taken and span_ok([*taken, cell]):
                found.add(cell)
    return sorted(found)


def placement_problem(occupied: Iterable[Pos], cell: Pos) -> str | None:
    """Why `cell` is not a legal place for the next card, or None when it is. The bound is
    relative, never absolute: coordinates only say where a card is next to the others (the
    first card may be written anywhere; the 3x3 box keeps every later one within two of it)."""
    taken = set(occupied)
    if not taken:
        return None
    if cell in taken:
        return f"cell {cell[0]},{cell[1]} already holds a card"
    if not any((cell[0] + dr, cell[1] + dc) in taken for dr, dc in NEIGHBOURS):
        return f"cell {cell[0]},{cell[1]} is not next to a card of the tableau"
    if not span_ok([*taken, cell]):
        return (f"cell {cell[0]},{cell[1]} would make a 4th row or column "
                "(the tableau stays within 3x3)")
    return None


def sequence_problem(cells: Iterable[Pos]) -> str | None:
    """The first illegal placement of a sequence, or None when every step is legal."""
    taken: list[Pos] = []
    for step, cell in enumerate(cells, 1):
        problem = placement_problem(taken, cell)
        if problem:
            return f"placement {step}: {problem}"
        taken.append(cell)
    return None


def connected(cells: Iterable[Pos]) -> bool:
    """Whether the places touch orthogonally as one group."""
    todo = set(cells)
    if not todo:
        return True
    stack = [todo.pop()]
    while stack:
        r, c = stack.pop()
        for dr, dc in NEIGHBOURS:
            near = (r + dr, c + dc)
            if near in todo:
                todo.remove(near)
                stack.append(near)
    return not todo


@dataclass(frozen=True)
class Grid:
    """A 3x3 tableau grid, rows top to bottom; None is an empty cell."""

    rows: tuple[tuple[Slot | None, ...], ...]

    @staticmethod
    def empty() -> Grid:
        """An empty 3x3 grid."""
        return Grid(tuple((None,) * SIDE for _ in range(SIDE)))

    @staticmethod
    def parse(text: str) -> Grid:
        """A grid from the tableau notation (`C07,V12,-/V03,~C20,-/-,-,-`)."""
        text = text.strip()
        if len(text) > 400:
            raise NotationError("a tableau is at most 400 characters")
        rows = text.split("/")
        if len(rows) != SIDE:
            raise NotationError(f"a tableau has 3 rows split by '/', got {len(rows)}: '{text}'",
                                token=text)
        grid: list[tuple[Slot | None, ...]] = []
        seen: set[str] = set()
        for number, row in enumerate(rows, 1):
            tokens = [t.strip() for t in row.split(",")]
            if len(tokens) != SIDE:
                raise NotationError(f"row {number} of the tableau has {len(tokens)} cells, "
                                    f"not 3: '{row}'", token=row)
            cells: list[Slot | None] = []
            for token in tokens:
                if token == "-":
                    cells.append(None)
                    continue
                down = token.startswith("~")
                card = token[1:] if down else token
                if not card or len(card) > 16 or not all(ch.isalnum() or ch in "_."
                                                         for ch in card):
                    raise NotationError(f"'{token}' is not a card id, '~ID' or '-'", token=token)
                if card in seen:
                    raise NotationError(f"card '{card}' appears twice in the tableau",
                                        token=token)
                seen.add(card)
                cells.append(Slot(card, down))
            grid.append(tuple(cells))
        return Grid(tuple(grid))

    @staticmethod
    def from_cells(cells: Mapping[Pos, Slot]) -> Grid:
        """Relative coordinates -> the grid, the top-left card's row and column at 0."""
        if not cells:
            return Grid.empty()
        if not span_ok(cells):
            raise NotationError("the cards span more than 3 rows or columns")
        top = min(r for r, _ in cells)
        left = min(c for _, c in cells)
        rows = [[None] * SIDE for _ in range(SIDE)]
        grid: list[list[Slot | None]] = rows  # type: ignore[assignment]
        for (r, c), slot in cells.items():
            grid[r - top][c - left] = slot
        return Grid(tuple(tuple(row) for row in grid))

    def __str__(self) -> str:
        return "/".join(",".join("-" if s is None else str(s) for s in row) for row in self.rows)

    def slots(self) -> Iterator[tuple[Pos, Slot]]:
        """Each filled place and its slot."""
        for r, row in enumerate(self.rows):
            for c, slot in enumerate(row):
                if slot is not None:
                    yield (r, c), slot

    def at(self, pos: Pos) -> Slot | None:
        """The slot at a place."""
        return self.rows[pos[0]][pos[1]]

    def find(self, card: str) -> Pos | None:
        """The place of a card, if it is in the grid."""
        for pos, slot in self.slots():
            if slot.card == card:
                return pos
        return None

    @property
    def full(self) -> bool:
        """Whether every cell is filled."""
        return all(s is not None for row in self.rows for s in row)

    def shape_problem(self) -> str | None:
        """A tableau some legal placement order reaches: its cards are connected."""
        if not connected(pos for pos, _ in self.slots()):
            return "the tableau's cards are not connected (each card touches another)"
        return None
