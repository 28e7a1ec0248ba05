"""Seats: whom a page plays for. Each player of a game has a seat with its own secret (its link
and QR code set it in a cookie kept for that game's pages only); a scorekeeper seat, which
acts for every player, exists only when somebody chose it (at the start of a game, or from the
host's seat panel). A page without a seat watches. The secrets are kept in the folder's hidden
`.castell-seats/` (a server restarted keeps its phones seated); which seats have a page open
(their event streams) is counted in memory.

Who sees the secrets: the host (`Viewer.host`): on a server bound to 127.0.0.1 whoever uses
this machine; under `--lan` only the browser that opened the host link printed in the
terminal (its own secret, `Access.host_key`)."""

from __future__ import annotations

import json
import secrets
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from fastapi import Request

from models.errors import CastellError
from models.files import read_text, write_atomic
from web.security import Access, same_secret

SEAT_COOKIE = "castell_seat"
HOST_COOKIE = "castell_host"
SCOREKEEPER = "scorekeeper"  # the seat that acts for every player (an explicit choice)
SEATS_DIR = ".castell-seats"
MAX_SEATS_BYTES = 64 * 1024  # a game's seats: a few secrets


@dataclass(frozen=True)
class SeatStatus:
    """What every page shows of a seat: whose it is, taken (its link was opened), connected
    (a page holding it is open now)."""

    seat: str
    taken: bool
    connected: bool


class Seats:
    """Each game's seats in a folder (see the module text)."""

    def __init__(self, folder: Path):
        self.dir = folder / SEATS_DIR
        self._lock = threading.Lock()
        self._open: Counter[tuple[str, str]] = Counter()
        self._seats: dict[str, dict[str, dict[str, object]]] = {}  # by game, as in its file

    def _file(self, name: str) -> Path:
        return self.dir / name  # `name` is a served game's name: a plain file name

    def _read(self, name: str) -> dict[str, dict[str, object]]:
        """The game's seats: read from its file once (bounded), then kept here; every change
        goes through `_write` (this server is the file's only writer). Call under the lock."""
        if name not in self._seats:
            try:
                data = json.loads(read_text(self._file(name), MAX_SEATS_BYTES))
            except (CastellError, OSError, ValueError):
                data = {}
            self._seats[name] = data if isinstance(data, dict) else {}
        return self._seats[name]

    def _write(self, name: str) -> None:
        self.dir.mkdir(exist_ok=True)
        write_atomic(self._file(name), json.dumps(self._seats[name], indent=1))

    def secrets(self, name: str, players: list[str], scorekeeper: bool = False
                ) -> dict[str, str]:
        """Seat -> its secret: every player's (made when first asked), and the scorekeeper's
        if `scorekeeper` or once chosen."""
        with self._lock:
            seats = self._read(name)
            wanted = players + ([SCOREKEEPER] if scorekeeper or SCOREKEEPER in seats else [])
            missing = [seat for seat in wanted if seat not in seats]
            for seat in missing:
                seats[seat] = {"secret": secrets.token_urlsafe(16), "taken": False}
            if missing:
                self._write(name)
            return {seat: str(seats[seat]["secret"]) for seat in wanted}

    def holder(self, name: str, secret: str | None) -> str | None:
        """The seat whose secret this is (None: none, or no secret)."""
        if not secret:
            return None
        with self._lock:
            seats = list(self._read(name).items())
        for seat, record in seats:
            if same_secret(secret, str(record.get("secret", ""))):
                return seat
        return None

    def take(self, name: str, seat: str) -> None:
        """The seat's link was opened: the seat is taken."""
        with self._lock:
            seats = self._read(name)
            if seat in seats and not seats[seat].get("taken"):
                seats[seat]["taken"] = True
                self._write(name)

    def status(self, name: str, players: list[str]) -> list[SeatStatus]:
        with self._lock:
            seats = dict(self._read(name))
        shown = players + ([SCOREKEEPER] if SCOREKEEPER in seats else [])
        return [SeatStatus(seat, bool(seats.get(seat, {}).get("taken")),
                           self._open[(name, seat)] > 0) for seat in shown]

    def fingerprint(self, name: str) -> tuple[object, ...]:
        """What a page shows of the game's seats, as a key (`web.page_cache`)."""
        with self._lock:
            seats = dict(self._read(name))
            open_now = tuple(sorted(seat for (game, seat), n in self._open.items()
                                    if game == name and n > 0))
        return (tuple(sorted((seat, bool(r.get("taken"))) for seat, r in seats.items())),
                open_now)

    @contextmanager
    def connected(self, name: str, seat: str | None) -> Iterator[None]:
        """While a page holding `seat` listens for changes (its event stream)."""
        if seat is None:
            yield
            return
        with self._lock:
            self._open[(name, seat)] += 1
        try:
            yield
        finally:
            with self._lock:
                self._open[(name, seat)] -= 1


@dataclass(frozen=True)
class Viewer:
    """Who is asking for a game's page: their seat (None: none), whether they are the host,
    and whether a page without a seat keeps the score (a server bound to 127.0.0.1 is one
    machine's: its pages act for anyone until they take a seat)."""

    seat: str | None
    host: bool
    open_table: bool

    @property
    def scorekeeper(self) -> bool:
        return self.seat == SCOREKEEPER or (self.seat is None and self.open_table)

    @property
    def watching(self) -> bool:
        return self.seat is None and not self.open_table

    def acts_for(self, player: str | None) -> bool:
        """May this page take `player`'s steps (None: the table's own, a refill or a reveal)?"""
        if self.scorekeeper:
            return True
        return self.seat is not None and (player is None or player == self.seat)

    def as_player(self) -> str | None:
        """Whom its steps are checked against (None: anyone's, the scorekeeper's)."""
        return None if self.scorekeeper else self.seat


def is_host(request: Request) -> bool:
    access: Access = request.app.state.access
    if access.host_key is None:
        return True
    return same_secret(request.cookies.get(HOST_COOKIE) or "", access.host_key)


def viewer(request: Request, name: str) -> Viewer:
    seats: Seats = request.app.state.seats
    access: Access = request.app.state.access
    return Viewer(seats.holder(name, request.cookies.get(SEAT_COOKIE)), is_host(request),
                  open_table=access.token is None)
