"""Hypothesis strategies for Castle Combo solver tests: small decks whose scrolls use every
form that depends on placement (row, column and cross counts, linear or not, and positions)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from models.combo import CELLS, LOCATIONS, SHIELDS, Deck, Slot, deck_from_dict

scopes = st.sampled_from(["row", "column", "cross", "tableau"])
shields = st.sampled_from(SHIELDS[:3])  # few types, so counts and sets are often non-zero


@st.composite
def scrolls(draw: st.DrawFn) -> dict[str, Any] | None:
    points = draw(st.integers(-1, 3))
    scope = draw(scopes)
    form = draw(st.sampled_from(["shield", "shield_type", "shield_set", "identical_shields",
                                 "banner", "banner_set", "card_with_cost", "card_with_shields",
                                 "card_with_discount", "position", "purse", "none"]))
    if form == "none":
        return None
    if form == "position":
        return {"points": points, "if": "position",
                "cells": draw(st.lists(st.sampled_from(CELLS), min_size=1, max_size=3,
                                       unique=True))}
    if form == "purse":
        return {"points": 2, "per": "purse_gold", "capacity": draw(st.integers(1, 4))}
    extra: dict[str, Any] = {
        "shield": {"shield": draw(shields)},
        "shield_type": {},
        "shield_set": {"shields": draw(st.lists(shields, min_size=1, max_size=3))},
        "identical_shields": {"size": draw(st.integers(1, 3))},
        "banner": {"location": draw(st.sampled_from(LOCATIONS))},
        "banner_set": {"locations": draw(st.lists(st.sampled_from(LOCATIONS), min_size=1,
                                                  max_size=3))},
        "card_with_cost": {"cost": draw(st.integers(0, 3)), "or_more": draw(st.booleans())},
        "card_with_shields": {"count": draw(st.integers(0, 2))},
        "card_with_discount": {},
    }[form]
    return {"points": points, "per": form, "scope": scope, **extra}


@st.composite
def nine_cards(draw: st.DrawFn) -> tuple[Deck, list[Slot]]:
    """Nine random cards (a deck of just them) and which are face down."""
    cards = []
    for i in range(9):
        table: dict[str, Any] = {
            "id": f"K{i}", "name": f"Card {i}",
            "location": draw(st.sampled_from(LOCATIONS)), "cost": draw(st.integers(0, 3)),
            "shields": draw(st.lists(shields, max_size=2)),
        }
        if draw(st.booleans()):
            table["discount"] = [draw(st.sampled_from(LOCATIONS))]
        scroll = draw(scrolls())
        if scroll is not None:
            table["score"] = scroll
        cards.append(table)
    deck = deck_from_dict({"card": cards}, "hypothesis")
    down = draw(st.lists(st.booleans(), min_size=9, max_size=9).map(
        lambda flags: [f and i % 3 == 0 for i, f in enumerate(flags)]))
    return deck, [Slot(c.id, d) for c, d in zip(deck.cards, down, strict=True)]
