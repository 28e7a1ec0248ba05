"""Small hand-made Castle Combo decks for tests: a card with only what a test needs."""

from __future__ import annotations

from typing import Any

from models.combo import Deck, deck_from_dict


def card(card_id: str, location: str = "castle", cost: int = 0,
         shields: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:
    return {"id": card_id, "name": f"Test {card_id}", "location": location, "cost": cost,
            "shields": list(shields), **extra}


def deck(*cards: dict[str, Any]) -> Deck:
    return deck_from_dict({"card": list(cards)}, "test")


def filler(prefix: str, location: str, n: int, cost: int = 0) -> list[dict[str, Any]]:
    """n plain cards (no scroll, no ability) of one location."""
    return [card(f"{prefix}{i:02d}", location, cost) for i in range(n)]
