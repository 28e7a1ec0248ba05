"""What a game's own web package gives the routes both games share (`GamePage`): its title,
its part of the game page and of the advice panel (template names), the page's content, the
advice's time limit among the app's settings, and the advice's planned turns or ranked steps.
The app holds one `GamePage` per kind of game (`app.state.pages`, made by the app factory), so
that the shared routes and templates look the game's parts up by its handle's kind and never
compare the kind, nor import either game's page."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from service.handle import GameHandle, Kind
from web.settings import WebSettings

Turns = list[tuple[int, list[tuple[str, str]]]]


def _no_turns(game: Any, result: Any) -> Turns:
    return []


def _none_ranked(result: Any) -> list[Any]:
    return []


@dataclass(frozen=True)
class GamePage:
    """One game's page: its title ("Castell"), the templates of its part of the game page and
    of the advice panel's answer, its content (`context(game, name, folds)`: `folds`, the open
    folds of the screen that asks, or None for all: `web.drawing.open_folds`), the advice's
    time limit (from the app's settings), each turn of an advice as the panel lists it (round,
    [(step, reason)]; none: the panel shows the result itself) and the advice's ranked steps
    (best first; none: the panel shows its turns)."""

    title: str
    template: str
    advice_template: str
    context: Callable[[Any, str, frozenset[str] | None], dict[str, object]]
    advice_time_limit: Callable[[WebSettings], float]
    advice_turns: Callable[[Any, Any], Turns] = _no_turns
    ranked: Callable[[Any], list[Any]] = _none_ranked


Pages = Mapping[Kind, GamePage]


def page_of(pages: Pages, game: GameHandle) -> GamePage:
    """The game's own page parts."""
    return pages[game.kind]


def titles(pages: Pages) -> dict[str, str]:
    """Each kind's title, for the list of games."""
    return {kind: page.title for kind, page in pages.items()}
