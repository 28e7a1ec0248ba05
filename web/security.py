"""What keeps a server safe: only the host names it serves (a page elsewhere cannot reach it
through a rebound DNS name), the join token for every request that changes a game, a
same-origin check against cross-site forms, a bound on request bodies, and headers that keep
its pages out of other sites' frames and scripts.

Viewing stays open under `--lan` (a spectator's screen): the state of a board game on the
table is no secret; changing it needs the token (or, for a game's own routes, one of that
game's seats), and a step a seat (`web.seat_store`).
"""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import HTTPException, Request

from models.errors import CastellError
from models.files import parse_json, read_text, write_atomic

# a step, a refill form, a new game's deal: a few KB; anything bigger is no form of ours
MAX_BODY_BYTES = 64 * 1024
TOKEN_COOKIE = "castell_token"
TOKEN_HEADER = "x-castell-token"
# what a server keeps across a restart, in its folder: each game's seats (`web.seat_store`)
# and the join token and host key (`SERVER_SECRETS`, a name no game's file has: they end in
# .json), readable by their owner only
KEPT_DIR = ".castell-seats"
SERVER_SECRETS = "server-secrets"
# a cookie that keeps a seat, the host's key or the join token lasts the game's life (an
# evening, a game left on the table for a week): a phone closed or restarted still plays
COOKIE_MAX_AGE_S = 30 * 24 * 3600

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
    def lan(hosts: frozenset[str] = LOCAL_NAMES, folder: Path | None = None) -> Access:
        """A join token and a host key (the names served: `hosts`, the LAN address among
        them); with `folder`, those kept there by the last server over it (`kept_secrets`),
        so that a restart with the same command locks no phone out."""
        token, host_key = kept_secrets(folder) if folder is not None else _minted()
        return Access(token=token, hosts=hosts, host_key=host_key)


def _minted() -> tuple[str, str]:
    return secrets.token_urlsafe(16), secrets.token_urlsafe(16)


def kept_secrets(folder: Path) -> tuple[str, str]:
    """The join token and host key kept in `folder` (`KEPT_DIR`/`SERVER_SECRETS`), or new ones,
    then kept there. A file that is damaged, or not ours to read, gives new ones; a folder
    where nothing can be written gives new ones that last until the server stops."""
    file = folder / KEPT_DIR / SERVER_SECRETS
    try:
        data = parse_json(read_text(file, 4096), SERVER_SECRETS)
    except (CastellError, OSError):
        data = None
    if isinstance(data, dict) and _a_secret(data.get("token")) \
            and _a_secret(data.get("host_key")):
        return str(data["token"]), str(data["host_key"])
    token, host_key = _minted()
    with contextlib.suppress(CastellError, OSError):
        write_private(file, json.dumps({"token": token, "host_key": host_key}))
    return token, host_key


def _a_secret(value: object) -> bool:
    return isinstance(value, str) and 16 <= len(value) <= 100 and value.isascii() \
        and value.replace("-", "").replace("_", "").isalnum()


def write_private(file: Path, text: str) -> None:
    """Write `text` to `file` atomically, readable by its owner only (0600, in a folder made
    0700): the temporary file is 0600 before the first byte of a secret goes in, and replaces
    `file` only once whole; a failed write leaves `file` as it was (none made, no temporary
    left), never empty."""
    file.parent.mkdir(mode=0o700, exist_ok=True)
    write_atomic(file, text, mode=0o600)


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
    check_origin(request)
    check_token(request)


def check_origin(request: Request) -> None:
    """A form from this server's own pages (`_same_origin`)."""
    if not _same_origin(request):
        raise HTTPException(403, "refused: this form came from another site")


def holds_token(request: Request, seated: bool = False) -> bool:
    """The request carries the join token (or none is needed), or `seated`: it holds a seat
    of the game its route names, which its caller resolved (`web.viewing`: a seat's link lets
    its holder play and ask in its own game only; it is no join token, not for another game
    nor for a new one). This module knows no seats: the seat store builds on it."""
    access: Access = request.app.state.access
    if access.token is None:
        return True
    given = request.cookies.get(TOKEN_COOKIE) or request.headers.get(TOKEN_HEADER) or ""
    return same_secret(given, access.token) or seated


JOIN_FIRST = "refused: open the join link (or scan its QR code) first"


def check_token(request: Request) -> None:
    """The join token when there is one (the cookie the join link set, or the header): a
    change, or a question that starts a solve (a spectator only watches), on a route that
    names no game (a game's routes take `web.viewing.Changer` or `Asker`, where its seat
    counts too)."""
    if not holds_token(request):
        raise HTTPException(403, JOIN_FIRST)


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
