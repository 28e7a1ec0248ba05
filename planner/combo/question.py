"""The arrangement question both engines answer, and what they share: which scrolls depend on
where the cards stand.

Nine cards (some face down) go into the 3x3 grid; some may be pinned to cells. Pinned cells are
relative to an *offset* the solver may choose: `--fixed` pins absolute cells (one offset, 0,0),
a tableau in progress pins its cards' relative positions and every shift that keeps them in the
grid is an offset.

Only three kinds of scroll depend on the arrangement: counts with a row, column or cross scope,
and `if = "position"`. Everything else (tableau-wide counts, missing shields, face-down, keys,
purses, leftover gold) is fixed by *which* cards are face up, so the engines optimise only the
placement-dependent part and add a constant that the rules core computes
(`constant = score - placement part`, on any arrangement).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from models.combo import (
    CARDS_EACH,
    MAX_GOLD,
    MAX_KEYS,
    Card,
    Deck,
    Grid,
    Pos,
    ScoreSheet,
    Slot,
    score_tableau,
)
from models.errors import SpecError
from planner.status import Status as Status  # the project's one Status

SIDE = 3
ALL_CELLS: tuple[Pos, ...] = tuple((r, c) for r in range(SIDE) for c in range(SIDE))
Kind = Literal["fixed", "line", "position"]
# the count forms whose count in a group is the sum of what each member counts alone
LINEAR = ("shield", "banner", "card_with_cost", "card_with_shields", "card_with_discount")


# how far an arrangement's solve got (infeasible: the pins leave no arrangement): the project's
# one Status


def kind(card: Card, face_down: bool) -> Kind:
    """Whether a card's points depend on where it stands (and on what)."""
    score = card.score
    if face_down or score is None:
        return "fixed"
    if score.condition is not None:
        return "position" if getattr(score.condition, "if_", "") == "position" else "fixed"
    scope = getattr(score.count, "scope", "tableau")
    return "line" if scope in ("row", "column", "cross") else "fixed"


@dataclass(frozen=True)
class ArrangeQuestion:
    deck: Deck
    slots: tuple[Slot, ...]  # the nine cards, face-down ones marked
    keys: int = 0
    gold: int = 0
    stored: Mapping[str, int] = field(default_factory=dict)  # gold already on purse cards
    pinned: Mapping[str, Pos] = field(default_factory=dict)  # card id -> cell before offset
    offsets: tuple[Pos, ...] = ((0, 0),)

    def card(self, card_id: str) -> Card:
        return self.deck.card(card_id)

    @property
    def face_up(self) -> list[Card]:
        return [self.deck.card(s.card) for s in self.slots if not s.face_down]

    @property
    def face_down(self) -> list[str]:
        return [s.card for s in self.slots if s.face_down]

    def kind_of(self, slot: Slot) -> Kind:
        return kind(self.deck.card(slot.card), slot.face_down)

    def cells_of(self, offset: Pos) -> dict[str, Pos] | None:
        """Each pinned card's cell with this offset, or None when one falls outside the grid."""
        found = {}
        for card_id, (r, c) in self.pinned.items():
            cell = (r + offset[0], c + offset[1])
            if not (0 <= cell[0] < SIDE and 0 <= cell[1] < SIDE):
                return None
            found[card_id] = cell
        return found

    def sheet(self, grid: Grid) -> ScoreSheet:
        return score_tableau(grid, self.deck, self.keys, self.gold, self.stored)

    def placement_points(self, sheet: ScoreSheet) -> int:
        """The points of the cards whose scroll depends on the arrangement."""
        kinds = {s.card: self.kind_of(s) for s in self.slots}
        return sum(c.points for c in sheet.cards if kinds[c.card] != "fixed")

    def constant(self) -> int:
        """The points no arrangement changes, scored by the rules core on some arrangement."""
        sheet = self.sheet(self.any_grid())
        return sheet.total - self.placement_points(sheet)

    def any_grid(self) -> Grid:
        """Some arrangement obeying the pins (the first offset that fits), for the constant and
        for hints."""
        for offset in self.offsets:
            cells = self.cells_of(offset)
            if cells is not None:
                return fill(self.slots, cells)
        raise SpecError("the pinned cards do not fit in the 3x3 grid")


def fill(slots: Sequence[Slot], cells: Mapping[str, Pos]) -> Grid:
    """A full grid: pinned cards where pinned, the others in the free cells in order."""
    placed: dict[Pos, Slot] = {}
    by_id = {s.card: s for s in slots}
    for card_id, cell in cells.items():
        placed[cell] = by_id[card_id]
    free = [cell for cell in ALL_CELLS if cell not in placed]
    for slot in slots:
        if slot.card not in cells:
            placed[free.pop(0)] = slot
    return grid_of(placed)


def grid_of(placed: Mapping[Pos, Slot]) -> Grid:
    return Grid(tuple(tuple(placed.get((r, c)) for c in range(SIDE)) for r in range(SIDE)))


def parse_cards(text: str, deck: Deck) -> list[Slot]:
    """`C07,V12,~C20,...` -> slots (face-down ones marked `~`), every id in the deck (read as
    typed: `v12` is V12)."""
    if len(text) > 400:
        raise SpecError("the card list is at most 400 characters")
    slots = []
    for token in (t.strip() for t in text.split(",")):
        if not token:
            raise SpecError(f"empty card id in '{text}'")
        down = token.startswith("~")
        card_id = deck.card(deck.spelt(token[1:] if down else token)).id
        slots.append(Slot(card_id, down))
    return slots


def arrangement_question(deck: Deck, slots: Iterable[Slot], *, keys: int, gold: int,
             stored: Mapping[str, int] | None = None, pinned: Mapping[str, Pos] | None = None,
             offsets: Sequence[Pos] = ((0, 0),)) -> ArrangeQuestion:
    """A checked question: nine different cards of the deck, inputs within the rules' limits."""
    slots = tuple(slots)
    ids = [s.card for s in slots]
    if len(slots) != CARDS_EACH:
        raise SpecError(f"an arrangement takes {CARDS_EACH} cards, got {len(slots)}")
    if len(set(ids)) != len(ids):
        twice = next(i for i in ids if ids.count(i) > 1)
        raise SpecError(f"card '{twice}' is given twice")
    for card_id in ids:
        deck.card(card_id)
    if not 0 <= keys <= MAX_KEYS:
        raise SpecError(f"keys must be 0..{MAX_KEYS}, got {keys}")
    if not 0 <= gold <= MAX_GOLD:
        raise SpecError(f"gold must be 0..{MAX_GOLD}, got {gold}")
    pinned = dict(pinned or {})
    for card_id in pinned:
        if card_id not in ids:
            raise SpecError(f"pinned card '{card_id}' is not one of the nine cards")
    cells = list(pinned.values())
    if len(set(cells)) != len(cells):
        raise SpecError("two cards are pinned to the same cell")
    q = ArrangeQuestion(deck, slots, keys, gold, dict(stored or {}), pinned, tuple(offsets))
    # the rules core checks the stored gold (face-up purses, capacity) on a trial arrangement
    q.sheet(q.any_grid())
    return q


def offsets_for(cells: Iterable[Pos]) -> tuple[Pos, ...]:
    """Every shift putting cells given relative to a first card inside the 3x3 grid."""
    cells = list(cells)
    if not cells:
        return ((0, 0),)
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return tuple((dr - min(rows), dc - min(cols))
                 for dr in range(SIDE - (max(rows) - min(rows)))
                 for dc in range(SIDE - (max(cols) - min(cols))))


@dataclass(frozen=True)
class ArrangeResult:
    status: Status
    total: int | None
    grid: Grid | None
    bound: int | None
    wall_time_s: float
    sheet: ScoreSheet | None = None
    engine: str = "cpsat"

    def as_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "status": str(self.status), "total": self.total,
            "tableau": None if self.grid is None else str(self.grid),
            "bound": self.bound, "wall_time_s": round(self.wall_time_s, 4)}
        if self.sheet is not None:
            data["purse_added"] = dict(self.sheet.added)
            data["gold_left"] = self.sheet.gold_left
        return data


def checked(q: ArrangeQuestion, grid: Grid, claimed: int) -> ScoreSheet:
    """The rules core re-scores an engine's arrangement; a mismatch is a solver bug."""
    sheet = checked_points(q, grid, None)
    if sheet.total != claimed:
        raise AssertionError(f"arrangement {grid} scores {sheet.total}, the engine said "
                             f"{claimed}")
    return sheet


def checked_points(q: ArrangeQuestion, grid: Grid, claimed: int | None) -> ScoreSheet:
    """The rules core re-scores an engine's arrangement: the nine cards, the pins kept, and
    (unless None) the engine's placement points; a mismatch is a solver bug."""
    if sorted(map(str, (s for _, s in grid.slots()))) != sorted(map(str, q.slots)) \
            or not grid.full:
        raise AssertionError(f"arrangement {grid} is not the nine cards given")
    actual = {card_id: grid.find(card_id) for card_id in q.pinned}
    if q.pinned and not any(q.cells_of(o) == actual for o in q.offsets):
        raise AssertionError(f"arrangement {grid} moves a pinned card")
    sheet = q.sheet(grid)
    if claimed is not None and q.placement_points(sheet) != claimed:
        raise AssertionError(f"arrangement {grid} has {q.placement_points(sheet)} placement "
                             f"points, the engine said {claimed}")
    return sheet
