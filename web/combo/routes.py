"""The routes only Castle Combo has: after a game, the best arrangement of a player's own nine
cards (`combo arrange`), against the score they made."""

from __future__ import annotations

from typing import Annotated, cast

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import HTMLResponse

from models.errors import CastellError
from web.games import game_file
from web.play import load
from web.render import page
from web.security import check_token
from web.wording import said

router = APIRouter()

ARRANGE_TIME_LIMIT = 5.0


@router.get("/g/{name}/arrangement", response_class=HTMLResponse,
            dependencies=[Depends(check_token)])
def arrangement(request: Request, name: str,
                player: Annotated[str, Query(min_length=1, max_length=60)]) -> HTMLResponse:
    """After a Castle Combo game: the best arrangement of a player's own nine cards, with the
    keys and gold they ended with (`combo arrange`), against the score they made."""
    from service.combo import ComboGame
    from service.combo.arrange import arrange_cards

    path, kind = game_file(request, name)
    game = cast(ComboGame, load(path, kind)) if kind == "combo" else None
    if game is None or not game.game_over:
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
        raise HTTPException(400, said(error)) from None
    return page(request, "arrangement.html", {"player": who.name, "best": best_one.output,
                                              "made": game.score(who.name).total})
