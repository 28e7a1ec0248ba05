"""`combo score`: the exact end score of a tableau (every scroll, keys, leftover gold put on
purses), one at a time or one batch line at a time. Card ids are read as typed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from models.combo import (
    CELLS,
    MAX_GOLD,
    MAX_KEYS,
    Deck,
    Grid,
    ScoreSheet,
    Slot,
    cell_pos,
    score_tableau,
)
from models.errors import SpecError
from service.combo.view import sheet_output
from service.results.combo import ComboScoreOutput


class ScoreLine(BaseModel):
    """One line of `castell combo score --batch`."""

    model_config = ConfigDict(extra="forbid", strict=True)  # as strict as the files: "5" is no 5

    tableau: str
    keys: Annotated[int, Field(ge=0, le=MAX_KEYS)] = 0
    gold: Annotated[int, Field(ge=0, le=MAX_GOLD)] = 0
    stored: str | None = None


@dataclass(frozen=True)
class TableauScore:
    """A scored tableau: its grid as the notation writes it, the sheet, and its JSON form."""

    grid: Grid
    sheet: ScoreSheet
    output: ComboScoreOutput


def read_tableau(text: str, deck: Deck) -> Grid:
    """The grid notation with its card ids as the deck spells them (`v12` is V12)."""
    grid = Grid.parse(text)
    rows = tuple(tuple(None if s is None else Slot(deck.spelt(s.card), s.face_down) for s in row)
                 for row in grid.rows)
    ids = [slot.card for row in rows for slot in row if slot is not None]
    twice = next((c for c in ids if ids.count(c) > 1), None)
    if twice is not None:
        raise SpecError(f"card '{twice}' appears twice in the tableau", token=twice)
    return Grid(rows)


def stored_gold(text: str | None, grid: Grid, deck: Deck) -> dict[str, int]:
    """`CELL=N,...` (`--stored`: a cell name such as top-left, or a card id) -> card id ->
    gold."""
    found: dict[str, int] = {}
    if not text:
        return found
    if len(text) > 400:
        raise SpecError("at most 400 characters", field="stored")
    for part in text.split(","):
        where, sep, amount = part.strip().partition("=")
        if not sep:
            raise SpecError(f"'{part}' is not CELL=N (e.g. top-left=3)", field="stored")
        if not amount.strip().isdigit() or len(amount.strip()) > 5:
            raise SpecError(f"the gold '{amount.strip()}' in '{part}' is not a whole number "
                            "from 0 to 99999", field="stored")
        where = where.strip()
        if where in CELLS:
            slot = grid.at(cell_pos(where))
            if slot is None:
                raise SpecError(f"the {where} cell is empty", field="stored")
            card = slot.card
        else:
            card = deck.spelt(where)
        if card in found:
            raise SpecError(f"'{where}' is given twice", field="stored")
        found[card] = int(amount)
    return found


def score(deck: Deck, tableau: str, keys: int = 0, gold: int = 0,
          stored: str | None = None) -> TableauScore:
    grid = read_tableau(tableau, deck)
    sheet = score_tableau(grid, deck, keys, gold, stored_gold(stored, grid, deck))
    return TableauScore(grid, sheet, sheet_output(sheet))


def score_line(deck: Deck, line: ScoreLine) -> ComboScoreOutput:
    """One batch line's answer."""
    return score(deck, line.tableau, line.keys, line.gold, line.stored).output
