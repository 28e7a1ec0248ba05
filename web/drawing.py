"""A game's page drawn for a viewer, and the key it is kept under (`web.page_cache`): the
fragment a step draws (before its save, `service.step.play_steps`) and every page a screen
asks for. Whatever a page shows comes from the game, the viewer the request resolved once
(`web.viewing`), the seats and that viewer's own advice job (`web.advice_jobs`)."""

from __future__ import annotations

import re

from fastapi import Request
from fastapi.responses import HTMLResponse

from service.handle import GameHandle
from web.advice_jobs import owner_of
from web.game_pages import page_of
from web.page_cache import Drawn, text_digest
from web.page_response import page
from web.seat_routes import seating
from web.seat_store import Seats, Viewer, game_of

FRAGMENT = "game_fragment.html"  # the game's part of its page, which live updates reload

# The folding sections below the turn (the `fold` macro's ids, in both games' templates). A
# page's script says which of them are open on that screen (`FOLDS_HEADER`, `static/folds.js`);
# a closed one is drawn as its title alone, and drawn whole when opened. Most screens have
# them all closed: a round-10 fragment was 49 KB, 21 of them folded away, and drawing those
# folds (the history's lines most of all) about 1.5 ms of a step's 8 of CPU.
FOLDS = frozenset({"score", "teams", "festivals", "regions", "wheel", "history", "tableaux"})
FOLDS_HEADER = "x-folds"
_FOLD = re.compile(r"fold-([a-z]{1,20})")


def open_folds(request: Request) -> frozenset[str] | None:
    """The folds the page that asks has open, of `FOLDS` (their titles alone are drawn for the
    others); None, every fold drawn, for a request that does not say (a page's first load, a
    script, a browser without the page's script)."""
    said = request.headers.get(FOLDS_HEADER)
    if said is None:
        return None
    return frozenset(found for found in _FOLD.findall(said[:1000]) if found in FOLDS)


def context(request: Request, game: GameHandle, name: str) -> dict[str, object]:
    """The game page's content, by the game's own page module (`web.game_pages`), and the
    template of the game's part of the page."""
    own = page_of(request.app.state.pages, game)
    folds = open_folds(request)
    return {**own.context(game, name, folds), "game_template": own.template, "folds": folds}


def key(request: Request, name: str, template: str, digest: str, me: Viewer
        ) -> tuple[object, ...]:
    """What the page drawn for `me` shows (see `web.page_cache`)."""
    job = request.app.state.jobs.get(name, owner_of(me))  # the viewer's own advice only
    seats: Seats = request.app.state.seats
    return (name, template, digest, me, open_folds(request),
            seats.fingerprint(name, game_of(request, name)[0]),
            None if job is None else (job.id, job.done.is_set(), job.followed, job.revision),
            str(request.base_url))


def drawn(request: Request, name: str, game: GameHandle, template: str, me: Viewer
          ) -> HTMLResponse:
    """The page (`template`) of the game `name` as `me` sees it."""
    job = request.app.state.jobs.get(name, owner_of(me))  # the viewer's own advice only
    return page(request, template, {**context(request, game, name), "job": job,
                                    **seating(request, game, name, me)})


def keep(request: Request, name: str, response: HTMLResponse, me: Viewer, saved: str
         ) -> None:
    """A step's fragment, drawn before its save, kept for `me`'s other screens under the key
    of the text it `saved` (not of the file as it is by now: another step may have followed,
    and this page does not show it)."""
    kept: Drawn = request.app.state.drawn
    kept.put(key(request, name, FRAGMENT, text_digest(saved), me), bytes(response.body))
