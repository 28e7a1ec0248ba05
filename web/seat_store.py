"""Seats: whom a page plays for. Each player of a game has a seat with its own secret (its link
and QR code set it in a cookie kept for that game's pages only); the scorekeeper, who acts for
every player, is a role with a secret of its own (never a player's name or seat), which exists
only when somebody chose it (at the start of a game, or from the host's seat panel). A page
without a seat watches. The secrets are kept in the folder's hidden `.castell-seats/` (a server
restarted keeps its phones seated), bound to the game they were made for
(`service.game_identity`: a new game at an old game's path gets new secrets); the host may
re-issue a seat's secret (the old link stops working). Which seats have a page open (their
event streams) is counted in memory, by device: a browser's own cookie (`DEVICE_COOKIE`, set
with a seat), else the address it asks from; a seat open on two devices (its link opened on
two phones, its cookie copied) says so on every page.

Who sees the secrets: the host (`Viewer.host`): on a server bound to 127.0.0.1 whoever uses
this machine; under `--lan` only the browser that opened the host link printed in the
terminal (its own secret, `Access.host_key`)."""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import Request

from models.errors import CastellError
from models.files import parse_json, read_text
from service.game_identity import Identity, identity
from web.library import Library, NotFound
from web.security import KEPT_DIR, Access, same_secret, write_private

SEAT_COOKIE = "castell_seat"
HOST_COOKIE = "castell_host"
DEVICE_COOKIE = "castell_device"  # a browser's own name, to count the devices a seat is open on
SCOREKEEPER = "scorekeeper"  # the role that acts for every player (never a player's seat)
SEATS_DIR = KEPT_DIR  # with the join token and host key (`web.security.kept_secrets`)
MAX_SEATS_BYTES = 64 * 1024  # a game's seats: a few secrets


@dataclass(frozen=True)
class SeatStatus:
    """What every page shows of a seat: whose it is, taken (its link was opened), connected
    (a page holding it is open now)."""

    seat: str
    taken: bool
    connected: bool
    role: bool = False  # the scorekeeper's role (`seat` is then no player's name)
    devices: int = 0  # the devices with a page of this seat open (two: a seat shared)


@dataclass(frozen=True)
class Seat:
    """A seat of a game: a player's (`player` their name), or the scorekeeper's role
    (`player` None)."""

    player: str | None

    @property
    def scorekeeper(self) -> bool:
        return self.player is None


KEEPER = Seat(None)
Record = dict[str, object]  # a seat's secret and whether its link was opened


class Seats:
    """Each game's seats in a folder (see the module text). A game's file in `.castell-seats/`:
    `{"game": its identity's start, "seen": the highest revision seen, "players": {name:
    record}, "scorekeeper": record or null}`; a file of another game, or of an older version
    (whose secrets were bound to no game), holds no seat of this game."""

    def __init__(self, folder: Path):
        self.dir = folder / SEATS_DIR
        self._lock = threading.Lock()
        self._open: Counter[tuple[str, Seat, str]] = Counter()  # streams, by device
        self._seats: dict[str, dict[str, Any]] = {}  # by game, as in its file
        self._unsaved: set[str] = set()  # games whose highest revision seen is not written

    def _file(self, name: str) -> Path:
        return self.dir / name  # `name` is a served game's name: a plain file name

    def _read(self, name: str, game: Identity) -> dict[str, Any]:
        """The seats of `game`, the game called `name` now: read from its file once (bounded),
        then kept here; every change goes through `_write` (this server is the file's only
        writer). None of another game's: one whose start differs, or whose revision is lower
        than this game's seen (a new game at the path). Call under the lock."""
        if name not in self._seats:
            try:  # bounded in size and depth: a damaged file holds no seat, never a 500
                data = parse_json(read_text(self._file(name), MAX_SEATS_BYTES), name)
            except (CastellError, OSError):
                data = {}
            self._seats[name] = data if isinstance(data, dict) else {}
        seats = self._seats[name]
        seen = seats.get("seen")
        if seats.get("game") != game.start or not isinstance(seats.get("players"), dict) \
                or not isinstance(seen, int) or game.went_back(seen):
            seats = self._seats[name] = {"game": game.start, "seen": game.revision,
                                         "players": {}, "scorekeeper": None}
        else:
            if game.revision > seen:  # kept here; written with the next change or at the stop
                seats["seen"] = game.revision  # (a write on every step cost the step ~10 ms)
                self._unsaved.add(name)
            return seats
        if self._file(name).exists():  # another game's secrets: replaced
            self._write(name)
        return seats

    def _write(self, name: str) -> None:
        write_private(self._file(name), json.dumps(self._seats[name], indent=1))
        self._unsaved.discard(name)

    def flush(self) -> None:
        """Write the highest revisions seen that no change has written yet (the server stops):
        after a restart a game written again at its path from an earlier revision is still
        known as a new game."""
        with self._lock:
            for name in sorted(self._unsaved):
                with contextlib.suppress(CastellError, OSError):
                    self._write(name)

    @staticmethod
    def _record(seats: dict[str, Any], seat: Seat) -> Record | None:
        record = seats["scorekeeper"] if seat.scorekeeper else seats["players"].get(seat.player)
        return record if isinstance(record, dict) else None

    def _made(self, name: str, seats: dict[str, Any], wanted: list[Seat]) -> None:
        """A secret for each seat of `wanted` that has none yet. Call under the lock."""
        missing = [seat for seat in wanted if self._record(seats, seat) is None]
        for seat in missing:
            self._put(seats, seat, {"secret": secrets.token_urlsafe(16), "taken": False})
        if missing:
            self._write(name)

    @staticmethod
    def _put(seats: dict[str, Any], seat: Seat, record: Record) -> None:
        if seat.scorekeeper:
            seats["scorekeeper"] = record
        else:
            seats["players"][seat.player] = record

    def secrets(self, name: str, game: Identity, players: list[str],
                scorekeeper: bool = False) -> dict[Seat, str]:
        """Seat -> its secret: every player's (made when first asked), and the scorekeeper's
        if `scorekeeper` or once chosen."""
        with self._lock:
            seats = self._read(name, game)
            wanted = [Seat(player) for player in players]
            if scorekeeper or seats["scorekeeper"] is not None:
                wanted.append(KEEPER)
            self._made(name, seats, wanted)
            return {seat: str((self._record(seats, seat) or {})["secret"]) for seat in wanted}

    def reissue(self, name: str, game: Identity, seat: Seat) -> str | None:
        """A new secret for `seat` (free again): its old link, and every page holding it, no
        longer plays for it (None: the seat has no secret to re-issue)."""
        with self._lock:
            seats = self._read(name, game)
            if self._record(seats, seat) is None:
                return None
            secret = secrets.token_urlsafe(16)
            self._put(seats, seat, {"secret": secret, "taken": False})
            self._write(name)
            return secret

    def forget(self, name: str) -> None:
        """A new game was written at `name`: the seats of any game there before are gone."""
        with self._lock:
            self._seats.pop(name, None)
            self._file(name).unlink(missing_ok=True)

    def holder(self, name: str, game: Identity | None, players: list[str],
               secret: str | None) -> Seat | None:
        """The seat of `game` whose secret this is (None: none, no secret, or no game); a
        player's seat only while that player is in the game."""
        if not secret or game is None:
            return None
        with self._lock:
            seats = self._read(name, game)
            held = [(KEEPER, seats["scorekeeper"])] + \
                [(Seat(player), record) for player, record in seats["players"].items()]
        for seat, record in held:
            if isinstance(record, dict) and same_secret(secret, str(record.get("secret", ""))):
                return seat if seat.scorekeeper or seat.player in players else None
        return None

    def take(self, name: str, game: Identity, seat: Seat) -> None:
        """The seat's link was opened: the seat is taken."""
        with self._lock:
            record = self._record(self._read(name, game), seat)
            if record is not None and not record.get("taken"):
                record["taken"] = True
                self._write(name)

    def status(self, name: str, game: Identity, players: list[str]) -> list[SeatStatus]:
        with self._lock:
            seats = self._read(name, game)
            shown = [Seat(player) for player in players] + \
                ([KEEPER] if seats["scorekeeper"] is not None else [])
            devices = self._devices(name)
            return [SeatStatus(seat.player or SCOREKEEPER,
                               bool((self._record(seats, seat) or {}).get("taken")),
                               devices[seat] > 0, seat.scorekeeper, devices[seat])
                    for seat in shown]

    def _devices(self, name: str) -> Counter[Seat]:
        """Seat -> the devices with a page of it open. Call under the lock."""
        return Counter(seat for (game_name, seat, _), n in self._open.items()
                       if game_name == name and n > 0)

    def fingerprint(self, name: str, game: Identity | None) -> tuple[object, ...]:
        """What a page shows of the game's seats, as a key (`web.page_cache`)."""
        if game is None:
            return ()
        with self._lock:
            seats = self._read(name, game)
            taken = json.dumps(seats, sort_keys=True)
            open_now = tuple(sorted((seat.player or "", seat.scorekeeper, n)
                                    for seat, n in self._devices(name).items()))
        return (taken, open_now)

    @contextmanager
    def connected(self, name: str, seat: Seat | None, device: str = "") -> Iterator[None]:
        """While a page holding `seat` listens for changes (its event stream), on `device`
        (`device_of`)."""
        if seat is None:
            yield
            return
        key = (name, seat, device)
        with self._lock:
            self._open[key] += 1
        try:
            yield
        finally:
            with self._lock:
                self._open[key] -= 1
                if self._open[key] <= 0:
                    del self._open[key]


@dataclass(frozen=True)
class Viewer:
    """Who is asking for a game's page: their seat (None: none; a player's, or the
    scorekeeper's role), whether they are the host, and whether a page without a seat keeps the
    score (a server bound to 127.0.0.1 is one machine's: its pages act for anyone until they
    take a seat)."""

    held: Seat | None
    host: bool
    open_table: bool

    @property
    def seat(self) -> str | None:
        """The player whose seat this page holds (None: none, or the scorekeeper's role)."""
        return None if self.held is None else self.held.player

    @property
    def keeps_score(self) -> bool:
        """This page holds the scorekeeper's role (its secret)."""
        return self.held is not None and self.held.scorekeeper

    @property
    def scorekeeper(self) -> bool:
        return self.keeps_score or (self.held is None and self.open_table)

    @property
    def watching(self) -> bool:
        return self.held is None and not self.open_table

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


def game_of(request: Request, name: str) -> tuple[Identity | None, list[str]]:
    """The identity and players of the game served as `name` (None, []: no such game)."""
    library: Library = request.app.state.library
    try:
        path = library.path(name)
    except NotFound:
        return None, []
    game = identity(path)
    return game, ([] if game is None else list(game.players))


def device_of(request: Request) -> str:
    """Which device a request comes from: its browser's own cookie (set with a seat), else its
    address (a seat's cookie copied to another phone without that phone's own)."""
    own = request.cookies.get(DEVICE_COOKIE)
    if own:
        return "browser " + own[:40]
    return "address " + (request.client.host if request.client else "")


def held_seat(request: Request, name: str) -> Seat | None:
    """The seat of the game `name` this request's seat cookie holds (None: none)."""
    secret = request.cookies.get(SEAT_COOKIE)
    if not secret:
        return None
    game, players = game_of(request, name)
    seats: Seats = request.app.state.seats
    return seats.holder(name, game, players, secret)


def viewer(request: Request, name: str) -> Viewer:
    access: Access = request.app.state.access
    return Viewer(held_seat(request, name), is_host(request), open_table=access.token is None)
