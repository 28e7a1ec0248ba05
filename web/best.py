""""Best tower": a player's best festival tower for the next festival they can reach (the
`castell best --state` question, asked of the game's file), drawn level by level."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import HTMLResponse

from models.errors import CastellError
from service.castell.towers import Asked, Solving, best
from web.app import page
from web.games import game_file
from web.security import check_token

router = APIRouter()
# the dp engine answers in milliseconds on any team the rules allow; a safety net only
BEST_TIME_LIMIT = 10.0


@router.get("/g/{name}/best-tower", response_class=HTMLResponse,
            dependencies=[Depends(check_token)])
def best_tower(request: Request, name: str,
               player: Annotated[str, Query(min_length=1, max_length=60)]) -> HTMLResponse:
    path, kind = game_file(request, name)
    if kind != "castell":
        raise HTTPException(404, "best tower is a Castell question")
    try:
        with request.app.state.solves.slot():
            reply = best(Asked(state=path, player=player), None,
                         Solving("dp", BEST_TIME_LIMIT))
    except CastellError as error:
        raise HTTPException(400, str(error)) from None
    return page(request, "best_tower.html", {"answer": reply.output(), "reached": reply.reached,
                                             "player": reply.looked_for or player})


ARRANGE_TIME_LIMIT = 5.0


@router.get("/g/{name}/arrangement", response_class=HTMLResponse,
            dependencies=[Depends(check_token)])
def arrangement(request: Request, name: str,
                player: Annotated[str, Query(min_length=1, max_length=60)]) -> HTMLResponse:
    """After a Castle Combo game: the best arrangement of a player's own nine cards, with the
    keys and gold they ended with (`combo arrange`), against the score they made."""
    from service.combo import ComboGame
    from service.combo.arrange import arrange_cards
    from web.play import load

    path, kind = game_file(request, name)
    game = load(path, kind)
    if not isinstance(game, ComboGame) or not game.state.now.game_over:
        raise HTTPException(404, "the best arrangement is asked once a Castle Combo game is over")
    try:
        who = game.player(player)
        cards = ",".join(("~" if p.face_down else "") + p.card for p in who.tableau)
        source = game.state.card_source
        with request.app.state.solves.slot():
            best_one = arrange_cards(cards, None if source == "sample" else source,
                                     keys=who.keys, gold=who.gold,
                                     time_limit=ARRANGE_TIME_LIMIT)
    except CastellError as error:
        raise HTTPException(400, str(error)) from None
    return page(request, "arrangement.html", {"player": who.name, "best": best_one.output,
                                              "made": game.score(who.name).total})
