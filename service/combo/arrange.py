"""`combo arrange`: the proven best 3x3 arrangement of nine cards (CP-SAT, `planner.combo`), from
the cards alone or completing a player's tableau in progress. Card ids are read as typed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from models.combo import CARDS_EACH, Deck, Grid, Pos, ScoreSheet, Slot, cell_pos, load_deck
from models.errors import ProvenNo, SpecError
from service.results.base import output_of
from service.results.combo import ComboArrangeOutput

if TYPE_CHECKING:  # ComboGame: the game as the arrangement asks it (its handle calls this module)
    from planner.combo import ArrangeQuestion
    from service.combo.asked import AskedComboGame as ComboGame

MAX_DETERMINISTIC_TIME = 600.0


@dataclass(frozen=True)
class Arrangement:
    """An answer: its JSON form, and for a person the grid and its score sheet (None when the
    time limit came before any arrangement)."""

    output: ComboArrangeOutput
    grid: Grid | None
    sheet: ScoreSheet | None
    deck: Deck
    optimal: bool  # proven best; else the time limit came first


def fixed_cells(text: str | None, slots: list[Slot], deck: Deck) -> dict[str, Pos]:
    """`C07@top-left,V12@centre` (`--fixed`) -> card id -> cell."""
    found: dict[str, Pos] = {}
    if not text:
        return found
    if len(text) > 400:
        raise SpecError("at most 400 characters", field="fixed")
    ids = {s.card for s in slots}
    for part in text.split(","):
        card_id, sep, cell = part.strip().partition("@")
        card_id = deck.spelt(card_id.strip().lstrip("~"))
        if not sep:
            raise SpecError(f"'{part}' is not CARD@CELL (e.g. C07@top-left)", field="fixed")
        if card_id not in ids:
            raise SpecError(f"'{card_id}' is not one of the cards to arrange", field="fixed")
        if card_id in found:
            raise SpecError(f"'{card_id}' is fixed twice", field="fixed")
        found[card_id] = cell_pos(cell.strip())
    return found


def arrange_cards(cards: str, cards_file: str | None = None, *, keys: int = 0, gold: int = 0,
                  fixed: str | None = None, time_limit: float = 10.0) -> Arrangement:
    """The best arrangement of nine cards (`CARDS`, face-down ones marked `~`), some fixed."""
    from planner.combo import arrangement_question, parse_cards

    deck = load_deck(cards_file)
    slots = parse_cards(cards, deck)
    return _solve(arrangement_question(deck, slots, keys=keys, gold=gold,
                                       pinned=fixed_cells(fixed, slots, deck)), time_limit)


def complete_tableau(game: ComboGame, name: str | None, cards: str, *, keys: int | None = None,
                     gold: int | None = None, time_limit: float = 10.0) -> Arrangement:
    """The best completion of a player's tableau in progress with the cards still to come: the
    placed cards keep their places relative to each other; keys, gold and stored gold are the
    player's unless given."""
    from planner.combo import arrangement_question, offsets_for, parse_cards

    names = [p.name for p in game.state.now.players]
    if name is None:
        raise SpecError(f"whose cards to arrange from the game: one of {', '.join(names)}",
                        field="player")
    player = game.player(name)
    deck = game.deck
    have = [Slot(p.card, p.face_down) for p in player.tableau]
    more = parse_cards(cards, deck) if cards.strip() else []
    if len(have) + len(more) != CARDS_EACH:
        raise SpecError(f"{player.name} has {len(have)} cards: give {CARDS_EACH - len(have)} "
                        f"more to complete the tableau, got {len(more)}")
    relative = {p.card: (p.row, p.column) for p in player.tableau}
    question = arrangement_question(
        deck, [*have, *more], keys=player.keys if keys is None else keys,
        gold=player.gold if gold is None else gold, stored=dict(player.purses),
        pinned=relative, offsets=offsets_for(relative.values()))
    return _solve(question, time_limit)


def _solve(question: ArrangeQuestion, time_limit: float) -> Arrangement:
    from planner.combo import Limits, Status, best_arrangement

    if not 0 < time_limit <= MAX_DETERMINISTIC_TIME:
        raise SpecError(f"the time limit is at most {MAX_DETERMINISTIC_TIME:.0f}")
    limits = Limits(deterministic_time=time_limit, wall_time=max(10 * time_limit, 10.0))
    result = best_arrangement(question, limits)
    if result.status is Status.INFEASIBLE:
        raise ProvenNo("no arrangement: the fixed cards cannot all stand where they are put")
    return Arrangement(output_of(ComboArrangeOutput, result.as_dict()), result.grid,
                       result.sheet, question.deck, result.status is Status.OPTIMAL)
