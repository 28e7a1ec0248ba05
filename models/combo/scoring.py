"""End scoring of one tableau (rules page section 3), exact for any card file.

Leftover gold goes on purses first (the exact allocator), then every face-up card scores its
scroll on the owner's tableau (face-down cards score 0 and carry nothing), then each key scores 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from models.combo.cards import (
    AllPurseCount,
    Card,
    FaceDownIf,
    PositionIf,
    ShieldMissingIf,
)
from models.combo.counting import View, count
from models.combo.deck import Deck
from models.combo.purses import Allocation, Purse, allocate
from models.combo.tableau import Grid, Pos, cell_name
from models.combo.words import describe
from models.errors import SpecError

MAX_GOLD = 10_000
MAX_KEYS = 10_000


@dataclass(frozen=True)
class CardScore:
    """One card's line of a score sheet: cell, card, what it counted and its points."""
    cell: str
    card: str
    face_down: bool
    counted: int  # items counted, or 1/0 for a condition
    points: int
    scroll: str

    def as_dict(self) -> dict[str, Any]:
        """The line as JSON."""
        return {"cell": self.cell, "id": self.card, "face_down": self.face_down,
                "counted": self.counted, "points": self.points, "scroll": self.scroll}


@dataclass(frozen=True)
class ScoreSheet:
    """An exact end score: each card's points, keys, purse gold and gold left."""
    cards: tuple[CardScore, ...]
    keys: int
    purses: dict[str, int]  # card id -> gold on it at the end (stored + added)
    added: dict[str, int]  # card id -> leftover gold put on it now
    gold_left: int

    @property
    def card_points(self) -> int:
        """The points of the cards' scrolls (purse gold included)."""
        return sum(c.points for c in self.cards)

    @property
    def total(self) -> int:
        """The total score."""
        return self.card_points + self.keys

    def as_dict(self) -> dict[str, Any]:
        """The sheet as JSON."""
        return {"total": self.total, "cards": [c.as_dict() for c in self.cards],
                "keys": self.keys, "purses": dict(self.purses), "purse_added": dict(self.added),
                "gold_left": self.gold_left}


def view_of(grid: Grid, deck: Deck, keys: int, purse_gold: Mapping[str, int]) -> View:
    """The counting view of a grid."""
    face_up: dict[Pos, Card] = {}
    face_down: set[Pos] = set()
    for pos, slot in grid.slots():
        if slot.face_down:
            face_down.add(pos)
        else:
            face_up[pos] = deck.card(slot.card)
    return View(face_up, frozenset(face_down), keys, dict(purse_gold))


def card_score(card: Card, pos: Pos, view: View) -> tuple[int, int]:
    """(counted, points) of one face-up card's scroll."""
    score = card.score
    if score is None:
        return 0, 0
    if score.count is not None:
        counted = count(score.count, view, pos, card.id)
        return counted, counted * score.points
    cond = score.condition
    if isinstance(cond, PositionIf):
        held = cell_name(*pos) in cond.cells
    elif isinstance(cond, ShieldMissingIf):
        held = not any(cond.shield in c.shields for c in view.face_up.values())
    else:
        assert isinstance(cond, FaceDownIf)
        held = bool(view.face_down)
    return int(held), score.points if held else 0


def check_inputs(grid: Grid, deck: Deck, keys: int, gold: int,
                 stored: Mapping[str, int]) -> None:
    """Every input within the rules' limits before anything is allocated."""
    if not 0 <= keys <= MAX_KEYS:
        raise SpecError(f"keys must be 0..{MAX_KEYS}, got {keys}")
    if not 0 <= gold <= MAX_GOLD:
        raise SpecError(f"gold must be 0..{MAX_GOLD}, got {gold}")
    problem = grid.shape_problem()
    if problem:
        raise SpecError(problem)
    for _, slot in grid.slots():
        deck.card(slot.card)
    for card_id, amount in stored.items():
        where = grid.find(card_id)
        found = grid.at(where) if where is not None else None
        if found is None:
            raise SpecError(f"gold stored on '{card_id}', which is not in the tableau")
        card = deck.card(card_id)
        if found.face_down or not card.capacity:
            raise SpecError(f"gold stored on '{card_id}', which is not a face-up purse card")
        if not 0 <= amount <= card.capacity:
            raise SpecError(f"'{card_id}' holds 0..{card.capacity} gold, got {amount}")


def settle(face_up: Mapping[Pos, Card], face_down: frozenset[Pos], keys: int, gold: int,
           stored: Mapping[str, int]) -> tuple[View, Allocation]:
    """The end-of-game view of a tableau: leftover gold put on its purses optimally (the exact
    allocator), with what each purse then holds; the scrolls are counted on this view."""
    purses = [Purse(card.id, card.purse_rate, card.capacity - stored.get(card.id, 0))
              for _, card in sorted(face_up.items()) if card.capacity]
    bonus = sum(card.score.points for card in face_up.values()
                if card.score is not None and isinstance(card.score.count, AllPurseCount))
    allocation = allocate(purses, bonus, gold)
    on_purses = {p.card: stored.get(p.card, 0) + allocation.added.get(p.card, 0)
                 for p in purses}
    return View(face_up, face_down, keys, on_purses), allocation


def total_of(face_up: Mapping[Pos, Card], face_down: frozenset[Pos], keys: int, gold: int,
             stored: Mapping[str, int]) -> tuple[int, int]:
    """(total, gold left) of `score_tableau`, from the cells alone: no input checks and no
    printed sheet (for callers that built a legal tableau themselves, such as the bots)."""
    view, allocation = settle(face_up, face_down, keys, gold, stored)
    points = sum(card_score(card, pos, view)[1] for pos, card in view.face_up.items())
    return points + keys, allocation.gold_left


def score_tableau(grid: Grid, deck: Deck, keys: int = 0, gold: int = 0,
                  stored: Mapping[str, int] | None = None) -> ScoreSheet:
    """The exact end score of one tableau: purses filled optimally, then scrolls and keys."""
    stored = dict(stored or {})
    check_inputs(grid, deck, keys, gold, stored)
    base = view_of(grid, deck, keys, {})
    view, allocation = settle(base.face_up, base.face_down, keys, gold, stored)
    on_purses = dict(view.purse_gold)
    scores = []
    for pos, slot in grid.slots():
        if slot.face_down:
            scores.append(CardScore(cell_name(*pos), slot.card, True, 0, 0, "face down"))
            continue
        card = view.face_up[pos]
        counted, points = card_score(card, pos, view)
        scores.append(CardScore(cell_name(*pos), card.id, False, counted, points,
                                describe(card.score)))
    return ScoreSheet(tuple(scores), keys, on_purses, allocation.added, allocation.gold_left)
