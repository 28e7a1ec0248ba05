"""The routes only Castell has: a claim with the builder's tower, a festival tower named, every
region's refill at once, the tower builder's live check (nothing written), and a player's best
festival tower for the next festival they can reach (the `castell best --state` question,
asked of the game's file, drawn level by level)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response

from models.errors import CastellError
from service.castell import Game
from service.castell.towers import Asked, Solving, best
from service.castell.view import festival_here
from web.games import Revision, Where, refused, run
from web.page_response import page
from web.play import StepError, load
from web.served import game_file
from web.step_gate import StepTurn
from web.viewing import Asker, Changer
from web.wording import said

router = APIRouter()


def castell_game(request: Request, name: str, refusal: str) -> tuple[Path, Game]:
    """The Castell game called `name` and its file (404 with `refusal` for a game of another
    kind: the route is Castell's own)."""
    path, kind = game_file(request, name)
    game = load(path, kind)
    if not isinstance(game, Game):
        raise HTTPException(404, refusal)
    return path, game


@router.get("/g/{name}/best-tower", response_class=HTMLResponse)
def best_tower(request: Request, name: str, me: Asker,
               player: Annotated[str, Query(min_length=1, max_length=60)]) -> HTMLResponse:
    path, _ = castell_game(request, name, "best tower is a Castell question")
    limit = request.app.state.settings.best_tower_time_limit
    try:
        # in the server's pool of solves (`web.solves`: 503 when it is full)
        reply = request.app.state.solves.run(
            lambda: best(Asked(state=path, player=player), None, Solving("dp", limit)))
    except CastellError as error:
        raise HTTPException(400, said(error)) from None
    game = load(*game_file(request, name))
    who = reply.looked_for or player
    # the answer may be named as the player's tower only for this round's festival where
    # their pawn stands (the referee refuses any other), by a page that plays for them
    nameable = reply.reached is not None and isinstance(game, Game) and \
        reply.reached == festival_here(game.state, who) and me.acts_for(who)
    return page(request, "best_tower.html", {"answer": reply.output(), "reached": reply.reached,
                                             "player": who, "name": name,
                                             "revision": game.revision, "nameable": nameable})


@router.post("/g/{name}/claim")
def claim(request: Request, name: str, me: Changer, _turn: StepTurn, revision: Revision,
          tile: Annotated[str, Form(min_length=1, max_length=20)],
          tower: Annotated[str, Form(min_length=1, max_length=200)], where: Where = ""
          ) -> Response:
    """A special claim with the tower the builder holds."""
    return run(request, name, me, [["special", "claim", tile, tower]], revision, where)


@router.post("/g/{name}/festival-tower")
def festival_tower(request: Request, name: str, me: Changer, _turn: StepTurn,
                   revision: Revision,
                   player: Annotated[str, Form(min_length=1, max_length=60)],
                   location: Annotated[str, Form(min_length=1, max_length=80)],
                   tower: Annotated[str, Form(max_length=200)] = "",
                   competing: Annotated[str, Form(max_length=5)] = "yes",
                   where: Where = "") -> Response:
    """The tower `player` names for the festival at `location` (or not competing)."""
    named = "none" if competing == "no" or not tower.strip() else tower
    return run(request, name, me, [["festival-tower", player, location, named]], revision,
               where)


@router.post("/g/{name}/refill")
async def refill(request: Request, name: str, me: Changer, _turn: StepTurn) -> Response:
    """Every region's real draw at once (`refill-REGION_ID` = the sizes drawn), one write."""
    form = await request.form()
    where = str(form.get("where", "refill"))
    try:
        revision = int(str(form.get("revision", "")))
    except ValueError:
        return refused(request, StepError(400, "revision: a whole number"), where)
    _, game = castell_game(request, name, "a Castle Combo game has no refills")
    names = {r.id: r.name for r in game.board.regions}
    steps: list[list[str]] = []
    for key, value in form.multi_items():
        region = key.removeprefix("refill-")
        if key.startswith("refill-") and region in names:
            steps.append(["refill", names[region], str(value)])
    return run(request, name, me, steps, revision, where)


@router.get("/g/{name}/try", response_class=HTMLResponse)
def try_step(request: Request, name: str, tile: Annotated[str, Query(max_length=20)],
             tower: Annotated[str, Query(max_length=200)]) -> HTMLResponse:
    """The tower builder's live check: the claim tried by the referee on a copy, nothing
    written; its reason when refused."""
    message: str | None = None
    _, game = castell_game(request, name, "no tower builder in Castle Combo")
    try:
        game.step(["special", "claim", tile, tower or "?"])
    except CastellError as error:  # the referee's refusal, or a tower that cannot be read
        message = said(error)
    return page(request, "tower_check.html", {"message": message, "tower": tower})


