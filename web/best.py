""""Best tower": a player's best festival tower for the next festival they can reach (the
`castell best --state` question, asked of the game's file), drawn level by level."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse

from models.errors import CastellError
from service.towers import Asked, Solving, best
from web.app import page
from web.games import game_file

router = APIRouter()
# the dp engine answers in milliseconds on any team the rules allow; a safety net only
BEST_TIME_LIMIT = 10.0


@router.get("/g/{name}/best-tower", response_class=HTMLResponse)
def best_tower(request: Request, name: str,
               player: Annotated[str, Query(min_length=1, max_length=60)]) -> HTMLResponse:
    path, kind = game_file(request, name)
    if kind != "castell":
        raise HTTPException(404, "best tower is a Castell question")
    try:
        reply = best(Asked(state=path, player=player), None, Solving("dp", BEST_TIME_LIMIT))
    except CastellError as error:
        raise HTTPException(400, str(error)) from None
    return page(request, "best_tower.html", {"answer": reply.output(), "reached": reply.reached,
                                             "player": reply.looked_for or player})
