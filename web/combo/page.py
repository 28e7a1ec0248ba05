"""What the Castle Combo page shows, read from the game handle: the two rows with the
Messenger (every face-up card whole, priced for the player to move), the tableaux, the legal
actions card by card (in the one notation), the reveal form of a recorded game, and the end
scores."""

from __future__ import annotations

from typing import Any

from models.combo import (
    LOCATIONS,
    Key,
    Reveal,
    Take,
    ability_text,
    describe,
    format_action,
    price,
)
from service.combo import ComboGame
from web.pages import GamePage


def card_view(game: ComboGame, card_id: str) -> dict[str, Any]:
    deck, table = game.deck, game.state.now
    card = deck.card(card_id)
    return {"id": card.id, "name": card.name, "location": card.location, "cost": card.cost,
            "price": None if table.game_over else price(table.player, deck, card),
            "shields": list(card.shields), "messenger": card.has_messenger,
            "discount": list(card.discount), "scroll": describe(card.score) if card.score else "",
            "ability": ability_text(card), "capacity": card.capacity, "face_down": False}


def context(game: ComboGame, name: str) -> dict[str, Any]:
    table = game.state.now
    view = game.view()
    by_card: dict[str, list[str]] = {}
    keys: list[str] = []
    reveals = False
    for action in game.legal_actions():
        if isinstance(action, Take):
            by_card.setdefault(action.card, []).append(format_action(action))
        elif isinstance(action, Key):
            keys.append(format_action(action))
        elif isinstance(action, Reveal):
            reveals = True
    rows = {loc: [None if c is None else card_view(game, c) for c in table.rows[loc]]
            for loc in LOCATIONS}
    tableaux = []
    for player, grid, sheet in game.tableaux():
        cells = [[None if slot is None else
                  {"face_down": slot.face_down, **card_view(game, slot.card)}
                  for slot in row] for row in grid.rows]
        tableaux.append({"player": next(p for p in view.players if p.name == player),
                         "cells": cells, "score": sheet.total})
    return {
        "name": name, "kind": "combo", "game": game, "view": view, "table": table,
        "revision": game.revision, "rows": rows, "by_card": by_card, "keys": keys,
        "reveals": reveals or bool(view.pending_reveals), "tableaux": tableaux,
        "decks": {loc: len(table.decks[loc]) for loc in LOCATIONS},
        "discards": {loc: len(table.discard[loc]) for loc in LOCATIONS},
        "history": [f"{e.player}: {e.action}" if e.player else e.action for e in view.history],
    }


PAGE = GamePage(context)
