"""What a Castle Combo game shows: the state as `combo show --json` and `combo play --json`
print it, and a score sheet as `combo score --json` prints it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from models.combo import (
    LOCATIONS,
    Action,
    Deck,
    GameState,
    Key,
    Pos,
    Reveal,
    ScoreSheet,
    Slot,
    Take,
    ability_text,
    cell_name,
    chosen_words,
    describe,
    discount,
    final_scores,
    format_action,
    legal_actions,
    parse_action,
    pending_reveals,
    place_words,
    price,
    score_tableau,
)
from service.results.base import output_of
from service.results.combo import (
    ComboAction,
    ComboCardView,
    ComboCell,
    ComboFinalScore,
    ComboHistoryEntry,
    ComboPlayer,
    ComboScoreOutput,
    ComboStateOutput,
    ComboTableau,
)


def sheet_output(sheet: ScoreSheet) -> ComboScoreOutput:
    return output_of(ComboScoreOutput, sheet.as_dict())


def state_output(state: GameState) -> ComboStateOutput:
    """The game as it stands: rows, Messenger, players, history; the scores once it is over."""
    table = state.now
    deck = state.deck()
    players = [ComboPlayer(name=p.name, gold=p.gold, keys=p.keys, tableau=str(p.grid()),
                           cards=len(p.tableau), purses=dict(p.purses),
                           discounts={loc: discount(p, deck, loc) for loc in LOCATIONS})
               for p in table.players]
    fields: dict[str, object] = {
        "game_over": table.game_over,
        "to_play": None if table.game_over else table.player.name,
        "key_used": table.key_used,
        "messenger": table.messenger,
        "rows": {loc: list(table.rows[loc]) for loc in LOCATIONS},
        "dead_rows": list(table.dead),
        "pending_reveals": dict(pending_reveals(table)),
        "players": players,
        "history": [ComboHistoryEntry(player=e.player, action=e.action) for e in state.history],
        "tableaux": _tableaux(state),
        "decks": {loc: len(table.decks[loc]) for loc in LOCATIONS},
        "discards": {loc: len(table.discard[loc]) for loc in LOCATIONS},
        "actions": [_action(a, deck, table.player.cells()) for a in legal_actions(state)],
    }
    fields["cards"] = _cards(state, fields["tableaux"])  # type: ignore[arg-type]
    if table.game_over:  # set only then: the JSON has no `scores` before the end
        scores, winners = final_scores(state)
        fields["scores"] = [ComboFinalScore.model_validate({"player": s.player,
                                                           **s.sheet.as_dict()})
                            for s in scores]
        fields["winners"] = winners
    return output_of(ComboStateOutput, fields)


def _tableaux(state: GameState) -> list[ComboTableau]:
    deck = state.deck()
    shown = []
    for player in state.now.players:
        grid = player.grid()
        sheet = score_tableau(grid, deck, player.keys, player.gold, player.purses)
        points = {scored.cell: scored.points for scored in sheet.cards}
        cells = [[None if slot is None else
                  ComboCell(cell=cell_name(r, c), card=slot.card, face_down=slot.face_down,
                            points=points.get(cell_name(r, c), 0))
                  for c, slot in enumerate(row)] for r, row in enumerate(grid.rows)]
        places = player.cells()
        origin = [min(r for r, _ in places), min(c for _, c in places)] if places else [0, 0]
        shown.append(ComboTableau(player=player.name, cells=cells, score=sheet.total,
                                  origin=origin))
    return shown


def _cards(state: GameState, tableaux: list[ComboTableau]) -> dict[str, ComboCardView]:
    """Every face-up card of the rows and the tableaux, in words, priced for the mover."""
    deck, table = state.deck(), state.now
    ids = [c for loc in LOCATIONS for c in table.rows[loc] if c is not None]
    ids += [cell.card for t in tableaux for row in t.cells for cell in row
            if cell is not None and not cell.face_down]
    views = {}
    for card_id in ids:
        card = deck.card(card_id)
        views[card_id] = ComboCardView(
            id=card.id, name=card.name, location=card.location, cost=card.cost,
            price=None if table.game_over else price(table.player, deck, card),
            shields=list(card.shields), messenger=card.has_messenger,
            discount=list(card.discount), scroll=describe(card.score) if card.score else "",
            ability=ability_text(card), capacity=card.capacity)
    return views


def _action(action: Action, deck: Deck, cells: Mapping[Pos, Slot]) -> ComboAction:
    """A legal step and its words ("buy Copper Potter into your top-left"), `cells` the mover's
    tableau."""
    step = format_action(action)
    if isinstance(action, Key):
        what = "move the Messenger" if action.kind == "move" else "renew the row"
        return ComboAction(step=step, label=f"use a key: {what}", kind="key")
    if isinstance(action, Reveal):
        return ComboAction(step=step, label="reveal " + ", ".join(action.cards), kind="reveal")
    assert isinstance(action, Take)
    card = deck.card(action.card)
    words = [f"take {card.name} face down" if action.face_down else f"buy {card.name}"]
    if action.at is not None:
        words.append(place_words(cells, (action.at[0], action.at[1]), deck))
    extra = [f"counting {action.neighbour}'s tableau"] if action.neighbour is not None else []
    extra += [f"choosing to {chosen}" for chosen in chosen_words(card, action.choices)]
    extra += [f"discarding {deck.card(d).name}" if d in deck.by_id else f"discarding {d}"
              for d in action.discards]
    return ComboAction(step=step, label=", ".join([" ".join(words), *extra]), kind="take",
                       card=card.id, at=None if action.at is None else list(action.at),
                       face_down=action.face_down, extra=extra)


@dataclass(frozen=True)
class HistoryLine:
    """One step of the history in words: its turn (the takes before it, plus one: a key use
    counts in the take it comes before), who played it ("" for the table's reveals), its
    words for everyone, and for a face-down take the card's name, for its owner only."""
    turn: int
    player: str
    words: str
    secret: str = ""

    def hidden_from(self, seat: str | None) -> bool:
        """Whether this step names what `seat` may not see (another's face-down card; None:
        a page without a player's seat, who sees no one's)."""
        return bool(self.secret) and seat != self.player

    def seen_by(self, seat: str | None) -> str:
        """The words `seat` sees: the face-down card's name for its owner only."""
        return self.secret if self.secret and not self.hidden_from(seat) else self.words


def history_lines(state: GameState) -> list[HistoryLine]:
    """The game's history in words, oldest first; a face-down card is never named in
    `words` (its id and name are its owner's: `secret`)."""
    deck = state.deck()
    lines, takes = [], 0
    for entry in state.history:
        action = parse_action(entry.action)
        if isinstance(action, Reveal):
            lines.append(HistoryLine(max(takes, 1), entry.player,
                                     "turned up " + ", ".join(_name(deck, c)
                                                              for c in action.cards)))
            continue
        if isinstance(action, Key):
            what = "moved the Messenger" if action.kind == "move" else "renewed the row"
            lines.append(HistoryLine(takes + 1, entry.player, f"used a key: {what}"))
            continue
        takes += 1
        card = deck.card(action.card) if action.card in deck.by_id else None
        extra = [f"discarding {_name(deck, d)}" for d in action.discards]
        if action.face_down:
            named = card.name if card is not None else action.card
            lines.append(HistoryLine(takes, entry.player, "took a card face down",
                                     f"took {named} face down"))
            continue
        chosen = [f"choosing to {c}" for c in chosen_words(card, action.choices)] \
            if card is not None else []
        words = ", ".join([f"bought {_name(deck, action.card)}", *chosen, *extra])
        lines.append(HistoryLine(takes, entry.player, words))
    return lines


def _name(deck: Deck, card: str) -> str:
    return deck.card(card).name if card in deck.by_id else card
