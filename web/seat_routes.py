"""Taking a seat and the host's link: the routes that set a seat's or the host's cookie, the
seat panel every game page shows (seats taken and connected; for the host, each seat's link
and QR code), and the count of pages connected per seat (`web.seat_store`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import RedirectResponse, Response

from service.handle import GameHandle
from web.play import load
from web.qr import qr_svg
from web.seat_store import HOST_COOKIE, SCOREKEEPER, SEAT_COOKIE, Seats, is_host, viewer
from web.security import TOKEN_COOKIE, Access, check_change, same_secret
from web.served import game_file

router = APIRouter()
WATCHING = "you are watching this game: take a seat (its link or QR code) to play"
Key = Annotated[str, Query(max_length=100)]


def seating(request: Request, game: GameHandle, name: str) -> dict[str, object]:
    """What a game page shows of its seats: whose this page is (`me`), each seat taken and
    connected, and for the host each seat's link with its QR code."""
    seats: Seats = request.app.state.seats
    players = game.player_names()
    me = viewer(request, name)
    links: list[tuple[str, str, str]] = []
    if me.host:
        base = str(request.base_url).rstrip("/")
        for seat, secret in seats.secrets(name, players).items():
            url = f"{base}/g/{name}/seat?key={secret}"
            links.append((seat, url, qr_svg(url, f"{seat}'s seat")))
    return {"me": me, "seats": seats.status(name, players), "seat_links": links}


def keep_seat(response: Response, request: Request, name: str, secret: str) -> None:
    """This browser holds the seat of `secret` in the game `name` (its pages only)."""
    _set(response, request, SEAT_COOKIE, secret, f"/g/{name}")


def to_game(request: Request, name: str) -> Response:
    """On to the game's page: htmx follows a header, a plain form a redirect."""
    if request.headers.get("hx-request"):
        return Response(status_code=204, headers={"HX-Redirect": f"/g/{name}"})
    return RedirectResponse(f"/g/{name}", status_code=303)


def _set(response: Response, request: Request, cookie: str, value: str, path: str) -> None:
    response.set_cookie(cookie, value, path=path, httponly=True, samesite="strict")
    access: Access = request.app.state.access
    if access.token is not None:  # a seat or the host may also ask questions (solves)
        response.set_cookie(TOKEN_COOKIE, access.token, httponly=True, samesite="strict")


@router.get("/g/{name}/seat")
def take_seat(request: Request, name: str, key: Key) -> Response:
    """A seat's link: this browser plays for that seat in this game (a cookie kept for the
    game's pages only), then the game."""
    game_file(request, name)
    seats: Seats = request.app.state.seats
    seat = seats.holder(name, key)
    if seat is None:
        raise HTTPException(403, "this seat's link is not this game's (ask the host for it)")
    seats.take(name, seat)
    response = RedirectResponse(f"/g/{name}", status_code=303)
    keep_seat(response, request, name, key)
    return response


@router.post("/g/{name}/scorekeeper", dependencies=[Depends(check_change)])
def keep_score(request: Request, name: str) -> Response:
    """The host makes this browser the game's scorekeeper (it acts for every player): an
    explicit choice, for a game played at one screen."""
    if not is_host(request):
        raise HTTPException(403, "only the host's screen may keep the score for everyone")
    path, kind = game_file(request, name)
    game = load(path, kind)
    secret = request.app.state.seats.secrets(name, game.player_names(), scorekeeper=True)
    request.app.state.seats.take(name, SCOREKEEPER)
    response = to_game(request, name)
    keep_seat(response, request, name, secret[SCOREKEEPER])
    return response


@router.get("/host")
def host_link(request: Request, key: Key) -> Response:
    """The host link printed in the terminal: this browser is the host's (it sees the join
    link and every seat's link), then the start page."""
    access: Access = request.app.state.access
    if access.host_key is None or not same_secret(key, access.host_key):
        raise HTTPException(403, "this host link is not this server's")
    response = RedirectResponse("/", status_code=303)
    _set(response, request, HOST_COOKIE, key, "/")
    return response


async def listening(stream: AsyncIterator[str], seats: Seats, name: str, seat: str | None
                    ) -> AsyncIterator[str]:
    """A page's event stream, its seat counted as connected while it is open."""
    with seats.connected(name, seat):
        async for message in stream:
            yield message
