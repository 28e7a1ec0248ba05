"""What the Castle Combo page shows, read from the game's view (`service.combo.view`): the two
rows with the Messenger (every face-up card whole, in words, priced for the player to move),
the tableaux, the legal steps card by card (labelled, each posting the one notation), the
reveal form of a recorded game, and the end scores."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from service.combo import ComboGame
from service.combo.view import history_lines
from web.game_pages import GamePage

if TYPE_CHECKING:
    from service.results.combo import ComboStateOutput


def context(game: ComboGame, name: str, folds: frozenset[str] | None = None
            ) -> dict[str, Any]:
    """The page's content, read from the game's one view (`ComboGame.view`, what `combo show
    --json` prints): the rows' cards in words, the tableaux (face-down cards drawn face down),
    the legal steps grouped by card and labelled (all of it, whichever `folds` are open: a
    Castle Combo game is short)."""
    view = game.view()
    by_card: dict[str, list[tuple[str, str]]] = {}
    for action in view.actions:
        if action.kind == "take" and action.card is not None:
            by_card.setdefault(action.card, []).append((action.step, action.label))
    keys = [(a.step, a.label) for a in view.actions if a.kind == "key"]
    def face_up(card_id: str) -> dict[str, Any]:
        return {**view.cards[card_id].model_dump(), "face_down": False}

    rows = {loc: [None if c is None else face_up(c) for c in cards]
            for loc, cards in view.rows.items()}
    players = {p.name: p for p in view.players}
    tableaux = [{"player": players[t.player], "score": t.score,
                 "cells": [[None if cell is None else
                            {"face_down": True, "secret": cell.card, "location": "back",
                             "owner": t.player}
                            if cell.face_down else face_up(cell.card)
                            for cell in row] for row in t.cells]}
                for t in view.tableaux]
    return {
        "name": name, "game": game, "view": view,
        "revision": game.revision, "rows": rows, "by_card": by_card, "keys": keys,
        "reveals": bool(view.pending_reveals), "tableaux": tableaux,
        "decks": view.decks, "discards": view.discards,
        "history": history_lines(game.state)[::-1],
    }


def placement(view: ComboStateOutput, card: str) -> dict[str, Any] | None:
    """Where the player to move may put `card`: their tableau's places and the legal ones
    around them, as rows of cells (a card lying there, or the takes that put `card` there:
    each its step and a short label); None when `card` cannot be taken now."""
    takes = [a for a in view.actions if a.kind == "take" and a.card == card and a.at]
    if not takes or view.to_play is None:
        return None
    tableau = next(t for t in view.tableaux if t.player == view.to_play)
    top, left = tableau.origin
    lying = {(top + r, left + c): cell for r, row in enumerate(tableau.cells)
             for c, cell in enumerate(row) if cell is not None}
    here = _takes_at(takes)
    places = set(lying) | set(here)
    rows = range(min(r for r, _ in places), max(r for r, _ in places) + 1)
    cols = range(min(c for _, c in places), max(c for _, c in places) + 1)
    return {"card": card, "columns": len(cols),
            "cells": [[{"lying": lying.get((r, c)), "takes": here.get((r, c), [])}
                       for c in cols] for r in rows]}


def _takes_at(takes: list[Any]) -> dict[tuple[int, int], list[tuple[str, str]]]:
    """The takes by the cell they put the card in: each its step and a short label."""
    here: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for take in takes:
        assert take.at is not None
        words = ["flip here" if take.face_down else "buy here", *take.extra]
        here.setdefault((take.at[0], take.at[1]), []).append((take.step, ", ".join(words)))
    return here


RANKED_SHOWN = 5


def ranked(result: Any) -> list[Any]:
    """The advice's actions by the value shown, the unsampled last (the first few)."""
    return sorted(result.ranking,
                  key=lambda a: (a.value is None, -(a.value or 0.0)))[:RANKED_SHOWN]


PAGE = GamePage("Castle Combo", "combo.html", "combo_advice.html", context,
                lambda settings: settings.advice_time_limit, ranked=ranked)
