"""A game file's identity, as a served game's seats are bound to it (`web.seat_store`): what a
game keeps from its first write to its last (its kind, seed, players and deal), and its
revision, which every write of the same game raises (an undo too). A seat's secret is good for
the game it was made for only: a file whose start differs, or whose revision went down (a new
game written at an old game's path), is another game."""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from models.combo import GameState as ComboState
from models.errors import CastellError
from models.files import parse_json
from models.game import GameState as CastellState
from service.handles import kind_of_data
from service.store import GameFile


@dataclass(frozen=True)
class Identity:
    """`start`: a digest of what the game keeps from its first write (`players` among it);
    `revision`: the file's."""

    start: str
    revision: int
    players: tuple[str, ...]
    path: Path | None = None  # the file it was read from

    def went_back(self, seen: int) -> bool:
        """The game's revision is below `seen`, the highest seen of the game at its path: a
        new game was written there. Asked of the file again (this identity may have been read
        before a write that came since: a revision never goes down within one game)."""
        if self.revision >= seen:
            return False
        return self.path is None or GameFile(self.path).revision_on_disk() < seen


# what each kind of game keeps from its first write to its last, besides its players' names
# (nothing a step changes: a seat must not lose its game to a step)
KEPT = {"castell": ("board", "seed", "deal", "rules", "wheel_side"),
        "combo": ("version", "seed", "recorded", "card_source")}


def identity(path: Path) -> Identity | None:
    """The identity of the game in `path` (None: no game's file, or unreadable). Once per
    version of the file (every request with a seat asks: its status, not a parse of the whole
    game; every write of a game file is a new file, `models.files.write_atomic`)."""
    key = _version(path)
    if key is None:
        return None
    with _LOCK:
        if key in _SEEN:
            return _SEEN[key]
    try:
        data = parse_json(GameFile(path).text(), str(path))  # bounded in size and depth
    except (CastellError, OSError):
        return None
    return _keep(key, _identity(data, path) if isinstance(data, dict) else None)


def remember(path: Path, text: str) -> None:
    """Keep the identity of `text`, which this process has just written to `path`, for the
    file as it is now: the next request that asks finds it without reading and parsing the
    whole game again (its own text, trusted: no bounds to check; a step's ~1 ms)."""
    key = _version(path)
    try:
        data = json.loads(text)
    except ValueError:
        return
    if key is not None:
        _keep(key, _identity(data, path) if isinstance(data, dict) else None)


Version = tuple[str, int, int, int, int]


def _version(path: Path) -> Version | None:
    """A file's version: its path, inode, modification and change times and size (None: no
    such file)."""
    try:
        status = path.stat()
    except OSError:
        return None
    return (str(path), status.st_ino, status.st_mtime_ns, status.st_ctime_ns, status.st_size)


def _keep(key: Version, found: Identity | None) -> Identity | None:
    with _LOCK:
        if len(_SEEN) >= 256:  # bounded: the oldest out
            _SEEN.pop(next(iter(_SEEN)))
        _SEEN[key] = found
    return found


# a file's version (path, inode, modification and change times, size) -> its game's identity
_SEEN: dict[Version, Identity | None] = {}
_LOCK = threading.Lock()


# each kind's state model: a field a file leaves out (or writes null where the model reads its
# default) is the default, so that an older file keeps its identity when it is first rewritten
# in full (examples/game/round3.json leaves "deal" out, and is written back with "seeded")
_MODELS: dict[str, type[BaseModel]] = {"castell": CastellState, "combo": ComboState}


def _or_default(kind: str, key: str, value: Any) -> Any:
    if value is not None:
        return value
    field = _MODELS[kind].model_fields.get(key)
    return None if field is None or field.is_required() else field.get_default()


def _identity(data: dict[str, Any], path: Path) -> Identity | None:
    kind = kind_of_data(data)
    if kind is None:
        return None
    table = data.get("start") if kind == "combo" else data
    players = table.get("players") if isinstance(table, dict) else None
    names = [str(p.get("name")) for p in players if isinstance(p, dict)] \
        if isinstance(players, list) else []
    kept = {"kind": kind, "players": names,
            **{key: _or_default(kind, key, data.get(key)) for key in KEPT[kind]}}
    start = hashlib.sha256(json.dumps(kept, sort_keys=True, default=str).encode()).hexdigest()
    revision = data.get("revision", 0)
    if not isinstance(revision, int) or isinstance(revision, bool):
        revision = 0
    return Identity(start, revision, tuple(names), path)
