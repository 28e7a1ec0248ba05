"""The start page: the games in the folder, a new game of either kind (seeded, or the real
deal typed in), and the join link a LAN server's QR code carries."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from models.errors import CastellError
from models.files import write_exclusive
from models.game import load_board
from service.castell.setup import TypedDeal, players_of
from service.castell.setup import start_game as start_castell
from service.combo.new import start_game as start_combo
from web.library import Library
from web.play import StepError
from web.render import page
from web.security import TOKEN_COOKIE, Access, check_change, holds_token
from web.wording import said

router = APIRouter()
CARD_FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}\.toml$")
Text = Annotated[str, Form(max_length=200)]


def _qr(url: str | None) -> str | None:
    """The join link's QR code as inline SVG (segno, no image file, no network)."""
    if url is None:
        return None
    import segno

    svg: str = segno.make(url, error="m").svg_inline(scale=4, title="join link")
    return svg


@router.get("/", response_class=HTMLResponse)
def index(request: Request) -> HTMLResponse:
    library: Library = request.app.state.library
    cards = sorted(p.name for p in library.folder.glob("*.toml") if CARD_FILE.match(p.name))
    # the join link and its QR code only for whoever holds the token already (the host, who
    # opened the link printed in the terminal): a guest who reached the port never sees it
    join = request.app.state.join_url if holds_token(request) else None
    return page(request, "start.html", {"games": library.entries(), "card_files": cards,
                                        "qr": _qr(join), "join_url": join})


@router.get("/join")
def join(request: Request, token: Annotated[str, Query(max_length=100)]) -> Response:
    """The join link: keeps the token in a cookie for this site only, then the start page."""
    access: Access = request.app.state.access
    if access.token is None or token != access.token:
        raise HTTPException(403, "this join link is not this server's")
    response = RedirectResponse("/", status_code=303)
    response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict")
    return response


def _names(players: str) -> list[str]:
    return [n.strip() for n in players.split(",") if n.strip()]


def _created(request: Request, file: str, write: Callable[[Path], None]) -> Response:
    library: Library = request.app.state.library
    try:
        path = library.new_path(file)
        write(path)
    except FileExistsError:  # taken, or another request made it first (`write_exclusive`)
        name = file if file.endswith(".json") else f"{file}.json"
        raise StepError(409, f"a game called '{name}' exists already") from None
    except CastellError as error:
        raise StepError(400, said(error)) from None
    if request.headers.get("hx-request"):
        return Response(status_code=204, headers={"HX-Redirect": f"/g/{path.name}"})
    return RedirectResponse(f"/g/{path.name}", status_code=303)


@router.post("/new/castell", dependencies=[Depends(check_change)])
def new_castell(request: Request, file: Text, players: Text,
                seed: Annotated[int, Form(ge=0, le=2**31 - 1)] = 0,
                wheel_side: Annotated[Literal["board", "standard", "advanced"], Form()] = "board",
                rules: Text = "standard",
                deal: Annotated[str, Form(max_length=20_000)] = "") -> Response:
    """A new Castell game: PLAYERS comma-separated (or a count), seeded, or the real deal
    typed in as the deal file's TOML (`castell state template`)."""
    side = None if wheel_side == "board" else wheel_side

    def write(path: Path) -> None:
        count, listed = players_of(players)
        board = load_board(None)
        state = start_castell(board, "default", count, listed, seed,
                              TypedDeal(deal) if deal.strip() else None,
                              rules.strip() or "standard", side)
        write_exclusive(path, state.to_json())

    return _created(request, file, write)


@router.post("/new/combo", dependencies=[Depends(check_change)])
def new_combo(request: Request, file: Text, players: Text,
              seed: Annotated[int, Form(ge=0, le=2**31 - 1)] = 0, cards: Text = "sample",
              castle: Text = "", village: Text = "", first: Text = "",
              readings: Annotated[str, Form(max_length=2000)] = "") -> Response:
    """A new Castle Combo game: seeded, or (with the rows' card ids) a real deal to record."""
    library: Library = request.app.state.library
    cards_file = None
    if cards != "sample":
        if not CARD_FILE.match(cards) or not (library.folder / cards).is_file():
            raise StepError(400, f"no card file '{cards}' in the folder")
        cards_file = str(library.folder / cards)
    reading = [line.strip() for line in readings.splitlines() if line.strip()]

    rows = None
    if castle.strip() or village.strip():  # the rows as dealt: a real game to record
        rows = (castle.replace(",", " ").split(), village.replace(",", " ").split())

    def write(path: Path) -> None:
        state = start_combo(",".join(_names(players)), seed=seed, cards_file=cards_file,
                            first=first.strip() or None, reading=reading, rows=rows)
        write_exclusive(path, state.to_json())

    return _created(request, file, write)
