"""What keeps a server on a LAN safe: the join token for every request that changes a game,
a same-origin check against cross-site forms, and a bound on request bodies.

Viewing stays open under `--lan` (a spectator's screen, the QR code on the start page): the
state of a board game on the table is no secret; changing it needs the token.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from fastapi import HTTPException, Request

# a step, a refill form, a new game's deal: a few KB; anything bigger is no form of ours
MAX_BODY_BYTES = 64 * 1024
TOKEN_COOKIE = "castell_token"
TOKEN_HEADER = "x-castell-token"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True)
class Access:
    """`token` None: no token needed (bound to 127.0.0.1)."""

    token: str | None = None
    max_body: int = MAX_BODY_BYTES
    extra: dict[str, str] = field(default_factory=dict)

    @staticmethod
    def lan() -> Access:
        return Access(token=secrets.token_urlsafe(16))


def _same_origin(request: Request) -> bool:
    """A browser names the page a form came from (`Origin`, else `Sec-Fetch-Site`); a form
    posted from another site is refused. A client that names none (curl, a test) is no
    browser another site could drive."""
    origin = request.headers.get("origin")
    if origin is not None:
        host = request.headers.get("host", "")
        return origin != "null" and urlsplit(origin).netloc == host
    site = request.headers.get("sec-fetch-site")
    return site in (None, "same-origin", "none")


def check_change(request: Request) -> None:
    """A request that changes a game: same origin, and the join token when there is one (the
    cookie the join link set, or the header)."""
    if not _same_origin(request):
        raise HTTPException(403, "refused: this form came from another site")
    access: Access = request.app.state.access
    if access.token is None:
        return
    given = request.cookies.get(TOKEN_COOKIE) or request.headers.get(TOKEN_HEADER) or ""
    if not secrets.compare_digest(given.encode(), access.token.encode()):
        raise HTTPException(403, "refused: open the join link (or scan its QR code) first")


class BodyLimit:
    """413 for a request body over `limit` bytes, declared or streamed."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(send)
            return
        # read the body first (bounded, so buffering it is cheap), then hand it on: a body
        # that goes over the bound while streaming is refused before any route parses it
        messages: list[Message] = []
        seen, more = 0, True
        while more:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            seen += len(message.get("body", b""))
            if seen > self.limit:
                await _too_large(send)
                return
            more = message.get("more_body", False)

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


async def _too_large(send: Send) -> None:
    body = b"request body too large"
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
