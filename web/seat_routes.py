"""Taking a seat and the host's link: the routes that set a seat's or the host's cookie, the
seat panel every game page shows (seats taken and connected; for the host, each seat's link
and QR code, and a button that re-issues it), and the devices each seat is open on (their
pages' event streams, `web.seat_store`). A seat's link sets that seat's cookie only: it is
no join token (it plays its own game's steps, and nothing else on the server)."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi.responses import RedirectResponse, Response

from service.game_identity import Identity
from service.handle import GameHandle
from web.qr import qr_svg
from web.seat_store import (
    DEVICE_COOKIE,
    HOST_COOKIE,
    KEEPER,
    SEAT_COOKIE,
    Seat,
    Seats,
    Viewer,
    game_of,
    is_host,
)
from web.security import COOKIE_MAX_AGE_S, TOKEN_COOKIE, Access, check_change, same_secret
from web.served import game_file
from web.viewing import may_change

router = APIRouter()
WATCHING = "you are watching this game: take a seat (its link or QR code) to play"
Key = Annotated[str, Query(max_length=100)]


def seating(request: Request, game: GameHandle, name: str, me: Viewer
            ) -> dict[str, object]:
    """What a game page shows of its seats: whose this page is (`me`: the request's viewer,
    resolved once by `web.viewing`), each seat taken and connected, and for the host each
    seat's link with its QR code (the scorekeeper's role last, `keeper` true)."""
    seats: Seats = request.app.state.seats
    players = game.player_names()
    links: list[tuple[str, bool, str, str]] = []
    ident, _ = game_of(request, name)
    if ident is None:
        return {"me": me, "seats": [], "seat_links": links}
    if me.host:
        base = str(request.base_url).rstrip("/")
        for seat, secret in seats.secrets(name, ident, players).items():
            url = f"{base}/g/{name}/seat?key={secret}"
            label = "the scorekeeper" if seat.scorekeeper else f"{seat.player}'s seat"
            links.append((seat.player or "", seat.scorekeeper, url, qr_svg(url, label)))
    return {"me": me, "seats": seats.status(name, ident, players), "seat_links": links}


def _identity(request: Request, name: str) -> Identity:
    """The identity of the game called `name` (404: no such game)."""
    game_file(request, name)
    ident, _ = game_of(request, name)
    if ident is None:
        raise HTTPException(404, f"'{name}' is not a game file")
    return ident


def keep_seat(response: Response, request: Request, name: str, secret: str) -> None:
    """This browser holds the seat of `secret` in the game `name` (its pages only), and has a
    name of its own (to count the devices a seat is open on)."""
    _set(response, request, SEAT_COOKIE, secret, f"/g/{name}")
    if not request.cookies.get(DEVICE_COOKIE):
        _set(response, request, DEVICE_COOKIE, secrets.token_urlsafe(12), "/")


def to_game(request: Request, name: str) -> Response:
    """On to the game's page: htmx follows a header, a plain form a redirect."""
    if request.headers.get("hx-request"):
        return Response(status_code=204, headers={"HX-Redirect": f"/g/{name}"})
    return RedirectResponse(f"/g/{name}", status_code=303)


def _set(response: Response, request: Request, cookie: str, value: str, path: str) -> None:
    # for the game's life, not until the browser closes (`COOKIE_MAX_AGE_S`)
    response.set_cookie(cookie, value, path=path, max_age=COOKIE_MAX_AGE_S, httponly=True,
                        samesite="strict")


@router.get("/g/{name}/seat")
def take_seat(request: Request, name: str, key: Key) -> Response:
    """A seat's link: this browser plays for that seat in this game (a cookie kept for the
    game's pages only), then the game."""
    ident = _identity(request, name)
    seats: Seats = request.app.state.seats
    seat = seats.holder(name, ident, list(ident.players), key)
    if seat is None:
        raise HTTPException(403, "this seat's link is not this game's (ask the host for it)")
    seats.take(name, ident, seat)
    response = RedirectResponse(f"/g/{name}", status_code=303)
    keep_seat(response, request, name, key)
    return response


def _host_only(request: Request, doing: str) -> None:
    if not is_host(request):
        raise HTTPException(403, f"only the host's screen may {doing}")


@router.post("/g/{name}/scorekeeper", dependencies=[Depends(may_change)])
def keep_score(request: Request, name: str) -> Response:
    """The host makes this browser the game's scorekeeper (it acts for every player): an
    explicit choice, for a game played at one screen."""
    _host_only(request, "keep the score for everyone")
    ident = _identity(request, name)
    seats: Seats = request.app.state.seats
    secret = seats.secrets(name, ident, list(ident.players), scorekeeper=True)[KEEPER]
    seats.take(name, ident, KEEPER)
    response = to_game(request, name)
    keep_seat(response, request, name, secret)
    return response


@router.post("/g/{name}/reissue", dependencies=[Depends(check_change)])
def reissue(request: Request, name: str,
            player: Annotated[str, Form(max_length=100)] = "",
            scorekeeper: Annotated[bool, Form()] = False) -> Response:
    """The host re-issues a seat's link (`player`'s, or with `scorekeeper` the scorekeeper's):
    the old link, and every page that holds it, no longer plays for it."""
    _host_only(request, "re-issue a seat's link")
    ident = _identity(request, name)
    seat = KEEPER if scorekeeper else Seat(player)
    seats: Seats = request.app.state.seats
    if (not scorekeeper and player not in ident.players) or \
            seats.reissue(name, ident, seat) is None:
        what = "the scorekeeper" if scorekeeper else f"'{player[:60]}'"
        raise HTTPException(400, f"player: {what} has no seat's link in this game")
    return to_game(request, name)


@router.get("/host")
def host_link(request: Request, key: Key) -> Response:
    """The host link printed in the terminal: this browser is the host's (it sees the join
    link and every seat's link), then the start page."""
    access: Access = request.app.state.access
    if access.host_key is None or not same_secret(key, access.host_key):
        raise HTTPException(403, "this host link is not this server's")
    response = RedirectResponse("/", status_code=303)
    _set(response, request, HOST_COOKIE, key, "/")
    if access.token is not None:  # the host holds the join token too (it starts games)
        _set(response, request, TOKEN_COOKIE, access.token, "/")
    return response


async def listening(stream: AsyncIterator[str], seats: Seats, name: str, seat: Seat | None,
                    device: str = "") -> AsyncIterator[str]:
    """A page's event stream, its seat counted as connected (on `device`) while it is open."""
    with seats.connected(name, seat, device):
        async for message in stream:
            yield message
