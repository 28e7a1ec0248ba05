"""What keeps a server safe: only the host names it serves (a page elsewhere cannot reach it
through a rebound DNS name), the join token for every request that changes a game, a
same-origin check against cross-site forms, a bound on request bodies, and headers that keep
its pages out of other sites' frames and scripts.

Viewing stays open under `--lan` (a spectator's screen): the state of a board game on the
table is no secret; changing it needs the token, and a step a seat (`web.seat_store`).
"""

from __future__ import annotations

import secrets
import time
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


# the names a server on this machine answers to, whatever address it listens on
LOCAL_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
# every page: scripts and connections only from the server itself (htmx is vendored), inline
# styles allowed (the pictures and a few templates carry them), no frame on another site
HEADERS = (
    (b"content-security-policy", b"default-src 'self'; style-src 'self' 'unsafe-inline'; "
                                 b"img-src 'self' data:; frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
)


@dataclass(frozen=True)
class Access:
    """`token` None: no token needed (bound to 127.0.0.1). `hosts`: the host names the
    server answers to (any other Host header is refused)."""

    token: str | None = None
    max_body: int = MAX_BODY_BYTES
    extra: dict[str, str] = field(default_factory=dict)
    hosts: frozenset[str] = LOCAL_NAMES
    # the host's own secret (the host link printed in the terminal): whoever holds it sees
    # the join link and the seats' links; None: every page is the host's (127.0.0.1)
    host_key: str | None = None

    @staticmethod
    def lan(hosts: frozenset[str] = LOCAL_NAMES) -> Access:
        """A join token and a host key (the names served: `hosts`, the LAN address among
        them)."""
        return Access(token=secrets.token_urlsafe(16), hosts=hosts,
                      host_key=secrets.token_urlsafe(16))


def same_secret(given: str, secret: str) -> bool:
    """`given` is `secret` (compared in constant time)."""
    return secrets.compare_digest(given.encode(), secret.encode())


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
    check_token(request)


def holds_token(request: Request) -> bool:
    """The request carries the join token (or none is needed)."""
    access: Access = request.app.state.access
    if access.token is None:
        return True
    given = request.cookies.get(TOKEN_COOKIE) or request.headers.get(TOKEN_HEADER) or ""
    return same_secret(given, access.token)


def check_token(request: Request) -> None:
    """The join token when there is one (the cookie the join link set, or the header): a
    change, or a question that starts a solve (a spectator only watches)."""
    if not holds_token(request):
        raise HTTPException(403, "refused: open the join link (or scan its QR code) first")


def host_name(header: str) -> str:
    """The host of a Host header, without its port (an IPv6 address without its brackets)."""
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class HostCheck:
    """400 for a request whose Host the server does not serve (DNS rebinding: a page on
    another site whose name was made to point here), and the security headers on every
    response."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str]):
        self.app, self.hosts = app, hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = dict(scope.get("headers", [])).get(b"host", b"").decode("latin-1")
        if host_name(host.lower()) not in self.hosts:
            served = ", ".join(sorted(self.hosts))
            await _plain(send, 400, f"refused: this server answers to {served}, "
                                    f"not to '{host[:80]}'")
            return

        started = time.perf_counter()

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # the server's own time for the request, to its answer's first byte
                # (`Server-Timing`: what `benchmarks/bench_web.py` calls a server step)
                spent = f"app;dur={(time.perf_counter() - started) * 1000:.1f}".encode()
                message["headers"] = [*message.get("headers", []), *HEADERS,
                                      (b"server-timing", spent)]
            await send(message)

        await self.app(scope, receive, with_headers)


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
    await _plain(send, 413, "request body too large")


async def _plain(send: Send, status: int, text: str) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), *HEADERS]})
    await send({"type": "http.response.body", "body": body})
