"""The routes only Castle Combo has: after a game, the best arrangement of a player's own nine
cards (`combo arrange`), against the score they made."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse

from models.errors import CastellError
from web.page_response import page
from web.play import load
from web.seat_routes import WATCHING
from web.served import game_file
from web.viewing import Asker, Me
from web.wording import said

router = APIRouter()


@router.get("/g/{name}/place", response_class=HTMLResponse)
def place(request: Request, name: str, me: Me,
          card: Annotated[str, Query(min_length=1, max_length=20)]) -> HTMLResponse:
    """Tap a card, then a cell: the mover's grid with the places `card` may go highlighted,
    each a button that takes it there (the take buttons stay, for a screen reader)."""
    from service.combo import ComboGame
    from web.combo.content import placement

    game = load(*game_file(request, name))
    if not isinstance(game, ComboGame):
        raise HTTPException(404, "placing a card is a Castle Combo step")
    view = game.view()
    if not me.acts_for(view.to_play):
        raise HTTPException(403, WATCHING if me.watching
                            else f"it is {view.to_play}'s turn")
    grid = placement(view, card)
    if grid is None:
        raise HTTPException(400, f"{card} cannot be taken now")
    return page(request, "place.html", {"name": name, "revision": game.revision, **grid})


@router.get("/g/{name}/arrangement", response_class=HTMLResponse)
def arrangement(request: Request, name: str, me: Asker,
                player: Annotated[str, Query(min_length=1, max_length=60)]) -> HTMLResponse:
    """After a Castle Combo game: the best arrangement of a player's own nine cards, with the
    keys and gold they ended with (`combo arrange`), against the score they made; asked by
    a page with the join token or a seat of this game (`me`, a solve's guard)."""
    from service.combo import ComboGame
    from service.combo.arrange import arrange_cards

    game = load(*game_file(request, name))
    if not isinstance(game, ComboGame) or not game.game_over:
        raise HTTPException(404, "the best arrangement is asked once a Castle Combo game is over")
    try:
        who = game.player(player)
        cards = ",".join(("~" if p.face_down else "") + p.card for p in who.tableau)
        source = game.state.card_source
        limit = request.app.state.settings.arrange_time_limit
        # in the server's pool of solves (`web.solves`: 503 when it is full)
        best_one = request.app.state.solves.run(
            lambda: arrange_cards(cards, None if source == "sample" else source,
                                  keys=who.keys, gold=who.gold, time_limit=limit))
    except CastellError as error:
        raise HTTPException(400, said(error)) from None
    return page(request, "arrangement.html", {"player": who.name, "best": best_one.output,
                                              "made": game.score(who.name).total,
                                              "me": me})
