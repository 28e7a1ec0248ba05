"""What a game's own page module gives the routes both games share: the game page's content
and the advice panel's planned turns. The app holds one `GamePage` per kind of game
(`app.state.pages`, made by the app factory), so that the shared routes dispatch on the game's
kind and import neither game's page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.handle import GameHandle, Kind

Turns = list[tuple[int, list[tuple[str, str]]]]


def _no_turns(game: Any, result: Any) -> Turns:
    return []


@dataclass(frozen=True)
class GamePage:
    """One game's page: its content (`context(game, name)`), and each turn of an advice as the
    panel lists it (round, [(step, reason)]; none: the panel shows the result itself)."""

    context: Callable[[Any, str], dict[str, object]]
    advice_turns: Callable[[Any, Any], Turns] = _no_turns


Pages = dict[Kind, GamePage]


def turns_of(pages: Pages, game: GameHandle, result: Any) -> Turns:
    """The advice's planned turns, as the game's page lists them."""
    return pages[game.kind].advice_turns(game, result)
