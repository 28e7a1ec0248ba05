"""The start page: the games in the folder, a new game of either kind (seeded, or the real
deal typed in), and the join link a LAN server's QR code carries."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from models.errors import CastellError
from models.files import write_exclusive
from models.game import load_board
from models.tower import rules_named
from service.castell.setup import TypedDeal, players_of
from service.castell.setup import start_game as start_castell
from service.combo.new import start_game as start_combo
from web.game_pages import titles
from web.library import Library
from web.page_response import page
from web.play import StepError
from web.qr import qr_svg
from web.seat_routes import keep_seat, to_game
from web.seat_store import KEEPER, Seats, game_of, is_host
from web.security import COOKIE_MAX_AGE_S, TOKEN_COOKIE, Access, check_change, same_secret
from web.wording import said

router = APIRouter()
CARD_FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}\.toml$")
Text = Annotated[str, Form(max_length=200)]


@functools.lru_cache(maxsize=1)
def _template() -> str:
    """The deal template of the default board, for the start page's deal (a seeded example
    deal of three players, to be replaced by what is on the table)."""
    from models.game import deal_template

    return deal_template(load_board(None), ["Anna", "Biel", "Carla"], 0)


@router.get("/", response_class=HTMLResponse)
def index(request: Request) -> HTMLResponse:
    library: Library = request.app.state.library
    cards = sorted(p.name for p in library.folder.glob("*.toml") if CARD_FILE.match(p.name))
    # the join link and its QR code only for the host (who opened the host link printed in
    # the terminal): a guest who reached the port, even one who joined, never sees them
    join = request.app.state.join_url if is_host(request) else None
    return page(request, "start.html", {"games": library.entries(), "card_files": cards,
                                        "deal_template": _template(),
                                        "titles": titles(request.app.state.pages),
                                        "qr": qr_svg(join, "join link") if join else None,
                                        "join_url": join})


@router.get("/join")
def join(request: Request, token: Annotated[str, Query(max_length=100)]) -> Response:
    """The join link: keeps the token in a cookie for this site only, then the start page."""
    access: Access = request.app.state.access
    # compared in constant time, as every secret is (`same_secret`)
    if access.token is None or not same_secret(token, access.token):
        raise HTTPException(403, "this join link is not this server's")
    response = RedirectResponse("/", status_code=303)
    response.set_cookie(TOKEN_COOKIE, token, max_age=COOKIE_MAX_AGE_S, httponly=True,
                        samesite="strict")
    return response


def _names(players: str) -> list[str]:
    return [n.strip() for n in players.split(",") if n.strip()]


class FieldError(StepError):
    """A new game refused, with the form's field it is about ("" the form as a whole)."""

    def __init__(self, status: int, message: str, field: str):
        super().__init__(status, message)
        self.field = field


def _created(request: Request, file: str, write: Callable[[Path], list[str]],
             scorekeeper: bool) -> Response:
    """The new game written by `write` (which gives its players); with `scorekeeper`, this
    browser keeps the score for everyone (a game played at one screen)."""
    library: Library = request.app.state.library
    try:
        path = library.new_path(file)
        players = write(path)
    except FileExistsError:  # taken, or another request made it first (`write_exclusive`)
        name = file if file.endswith(".json") else f"{file}.json"
        raise FieldError(409, f"a game called '{name}' exists already", "file") from None
    except CastellError as error:
        raise FieldError(400, said(error), getattr(error, "field", None) or "") from None
    response = to_game(request, path.name)
    seats: Seats = request.app.state.seats
    seats.forget(path.name)  # a game that was here before: its seats' links are not this one's
    ident, _ = game_of(request, path.name)
    if scorekeeper and ident is not None:
        secret = seats.secrets(path.name, ident, players, scorekeeper=True)[KEEPER]
        seats.take(path.name, ident, KEEPER)
        keep_seat(response, request, path.name, secret)
    return response


Scorekeeper = Annotated[bool, Form()]


@router.post("/new/castell", dependencies=[Depends(check_change)])
def new_castell(request: Request, file: Text, players: Text,
                seed: Annotated[int, Form(ge=0, le=2**31 - 1)] = 0,
                wheel_side: Annotated[Literal["board", "standard", "advanced"], Form()] = "board",
                rules: Text = "standard",
                deal: Annotated[str, Form(max_length=20_000)] = "",
                deal_kind: Annotated[Literal["", "seeded", "typed"], Form()] = "",
                scorekeeper: Scorekeeper = False) -> Response:
    """A new Castell game: PLAYERS comma-separated (or a count), seeded, or the real deal
    typed in as the deal file's TOML (`castell state template`)."""
    side = None if wheel_side == "board" else wheel_side
    # the deal typed in when asked for (a form without the choice: when one is given)
    typed = deal_kind == "typed" or (deal_kind == "" and bool(deal.strip()))
    values = {"file": file, "players": players, "seed": seed, "wheel_side": wheel_side,
              "rules": rules, "deal": deal, "deal_kind": "typed" if typed else "seeded",
              "scorekeeper": scorekeeper}
    if deal_kind == "typed" and not deal.strip():
        return _refused_form(request, FieldError(400, "the real deal is empty: fill in the "
                                                      "template", "deal"), values)
    try:  # read first, so that its error is the readings' (not the typed deal's)
        rules_named(rules.strip() or "standard")
    except CastellError as error:
        return _refused_form(request, FieldError(400, str(error), "rules"), values)

    def write(path: Path) -> list[str]:
        count, listed = players_of(players)
        board = load_board(None)
        state = start_castell(board, "default", count, listed, seed,
                              TypedDeal(deal) if typed else None,
                              rules.strip() or "standard", side)
        write_exclusive(path, state.to_json())
        return [p.name for p in state.players]

    try:
        return _created(request, file, write, scorekeeper)
    except FieldError as error:
        if typed and error.field == "":  # the deal's own problems (its fields, its TOML)
            error.field = "deal"
        return _refused_form(request, error, values)


def _refused_form(request: Request, error: FieldError, values: dict[str, object]
                  ) -> Response:
    """The new Castell game's form drawn again with what was typed, the error beside its
    field (a deal's problems one a line, each with the line of the deal it is on); without
    htmx, the one line as before."""
    if not request.headers.get("hx-request"):
        raise error
    field = FIELDS.get(error.field, "")
    lines = [error.message]
    if field == "deal":
        lines = deal_problems(error.message, str(values["deal"]))
    response = page(request, "start_castell_form.html",
                    {"errors": {field: lines}, "values": values,
                     "deal_template": _template()}, status=error.status)
    response.headers["HX-Retarget"] = "#new-castell"
    response.headers["HX-Reswap"] = "outerHTML"
    return response


def deal_problems(message: str, text: str) -> list[str]:
    """A refused deal's problems one a line ("deal: players.Anna: ...; regions.x: ..."), each
    that names a field of the deal led by the line it is on ("line 14: players.Anna: ...")."""
    for lead in ("Real deal: ", "deal: ", "the deal: "):
        message = message.removeprefix(lead)
    said_lines = []
    for problem in message.split("; "):
        path = re.match(r"([\w.-]+): ", problem)
        line = _line_of(text, path.group(1).split(".")) if path else None
        said_lines.append(problem if line is None else f"line {line}: {problem}")
    return said_lines


# the form's fields an error may be shown beside (an application field -> the form's); any
# other error is shown above the button
FIELDS = {"file": "file", "players": "players", "seed": "seed", "rules": "rules",
          "reading": "rules", "deal": "deal"}
TABLE = re.compile(r"^\s*(\[\[?)\s*([\w.-]+)\s*\]\]?")
KEY = re.compile(r'^\s*"?([\w.-]+?)"?\s*=')


def _line_of(text: str, path: list[str]) -> int | None:
    """The line (1-based) of the deal's TOML that holds `path` (["players", "Anna"], ["regions",
    "lleida", "castellers"], ["festivals", "2", "location"]): the key's line, else its table's."""
    table: list[str] = []
    arrays: dict[str, int] = {}
    best, best_len = None, 0
    for number, line in enumerate(text.splitlines(), 1):
        head = TABLE.match(line)
        if head:
            table = head.group(2).split(".")
            if head.group(1) == "[[":  # an array of tables: its index counts
                arrays[head.group(2)] = arrays.get(head.group(2), -1) + 1
                table = [*table, str(arrays[head.group(2)])]
            here = table
        else:
            key = KEY.match(line)
            if not key:
                continue
            here = [*table, *key.group(1).split(".")]
        if len(here) > best_len and path[:len(here)] == here:
            best, best_len = number, len(here)
    return best


@router.post("/new/combo", dependencies=[Depends(check_change)])
def new_combo(request: Request, file: Text, players: Text,
              seed: Annotated[int, Form(ge=0, le=2**31 - 1)] = 0, cards: Text = "sample",
              castle: Text = "", village: Text = "", first: Text = "",
              readings: Annotated[str, Form(max_length=2000)] = "",
              scorekeeper: Scorekeeper = False) -> Response:
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

    def write(path: Path) -> list[str]:
        state = start_combo(",".join(_names(players)), seed=seed, cards_file=cards_file,
                            first=first.strip() or None, reading=reading, rows=rows)
        write_exclusive(path, state.to_json())
        return [p.name for p in state.now.players]

    return _created(request, file, write, scorekeeper)
