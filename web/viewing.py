"""Whom a request plays for, resolved once: `seat_of` is the FastAPI dependency that gives the
`Viewer` of the game named in the path (`web.seat_store.viewer`: its seat cookie, the host's,
the open table). FastAPI keeps a dependency's value for the rest of its request, so a route that
takes `Me` and guards with `may_change` or `may_ask` (which take it too) works the viewer out
once, and hands it on to whatever draws the page (the seat panel, the page cache's key).

They run on the server's event loop (`async`): a request's seat is a cookie, the seats kept in
memory and the game's identity, kept by the file's stat (a read and a parse only after another
process wrote it). A plain function here ran on a worker thread of its own, each: two more
hand-overs per step between threads, each of which waited for a core when both were busy."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request

from web.seat_store import Viewer, viewer
from web.security import JOIN_FIRST, check_origin, holds_token


async def seat_of(request: Request, name: str) -> Viewer:
    """The viewer of the game `name` (the path's): its seat, host or not, open table or not."""
    return viewer(request, name)


Me = Annotated[Viewer, Depends(seat_of)]


async def may_ask(request: Request, me: Me) -> Viewer:
    """`web.security.check_token` with the seat resolved once: the join token, or a seat of
    this game (a question that starts a solve)."""
    if not holds_token(request, seated=me.held is not None):
        raise HTTPException(403, JOIN_FIRST)
    return me


async def may_change(request: Request, me: Me) -> Viewer:
    """`web.security.check_change` with the seat resolved once: a form from this server's
    pages, and the join token or a seat of this game."""
    check_origin(request)
    return await may_ask(request, me)


Changer = Annotated[Viewer, Depends(may_change)]
Asker = Annotated[Viewer, Depends(may_ask)]
