"""The games a server may show: the game files in its folder and the files named on the command
line, each known by its file name only (a name that is not one of them is a 404, so no path
typed into a URL reaches the disk)."""

from __future__ import annotations

import hashlib
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from models.errors import CastellError
from models.files import parse_json
from service.handle import Kind
from service.handles import kind_of_data
from service.store import GameFile

# a game's name in a URL: a plain file name, no separator, no leading dot
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}\.json$")


class NotFound(Exception):
    """No game of this server has that name."""


# why a JSON file in the folder is listed but not served (its name could not be a URL's)
BAD_NAME = "not served: a game's name is letters, digits, '-', '_' and '.' (rename the file)"
# why a file is listed with U+FFFD in its name: the name's bytes are no UTF-8 text
NOT_TEXT = "not served: its name is not UTF-8 text (rename the file)"


def shown_name(name: str) -> str:
    """A file name as a page can show it: a name the folder holds as bytes that are no UTF-8
    text (Python keeps them as lone surrogates, which no page can encode) with each such
    byte replaced by U+FFFD."""
    return os.fsencode(name).decode("utf-8", "replace")


@dataclass(frozen=True)
class Entry:
    name: str
    path: Path
    kind: Kind | None  # None: a JSON file that is no game of either kind (or not served)
    revision: int
    unserved: str | None = None  # why the file is listed but not served


def kind_of(path: Path) -> Kind | None:
    """Which game a file holds, from its top-level keys (a Castell state has a turn order, a
    Castle Combo one its cards and starting table); once per file text (every request asks:
    a hash of the text, not a parse of a whole game)."""
    try:
        text = GameFile(path).text()
    except (CastellError, OSError):
        return None
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    with _KINDS_LOCK:
        if digest in _KINDS:
            return _KINDS[digest]
    kind = _kind_of_data(text, str(path))
    with _KINDS_LOCK:
        if len(_KINDS) >= 256:  # bounded: the oldest out
            _KINDS.pop(next(iter(_KINDS)))
        _KINDS[digest] = kind
    return kind


_KINDS: dict[str, Kind | None] = {}  # a file text's SHA-256 -> its kind
_KINDS_LOCK = threading.Lock()


def _kind_of_data(text: str, where: str) -> Kind | None:
    try:
        data = parse_json(text, where)  # bounded in size and depth, as the CLI reads files
    except CastellError:
        return None
    return kind_of_data(data)


def _clash(name: str, one: Path, other: Path) -> None:
    from models.errors import SpecError

    raise SpecError(f"two game files are called '{name}' ({one} and {other}): a game is known "
                    "by its file name; serve one of them, or rename one")


class Library:
    """The folder `folder` and the extra files `files` (by their file names)."""

    def __init__(self, folder: Path, files: list[Path] | tuple[Path, ...] = ()):
        """A `SpecError` when two different files would have one name (a game is known by its
        file name: one of them would hide the other)."""
        self.folder = folder.resolve()
        self.files: dict[str, Path] = {}
        for file in files:
            self._add(file.name, file.resolve())
        for name, path in self.files.items():
            there = self.folder / name
            if there.is_file() and there.resolve() != path:
                _clash(name, path, there.resolve())

    def _add(self, name: str, path: Path) -> None:
        known = self.files.get(name)
        if known is not None and known != path:
            _clash(name, known, path)
        self.files[name] = path

    def _candidates(self) -> dict[str, Path]:
        found = {p.name: p.resolve() for p in sorted(self.folder.glob("*.json")) if p.is_file()}
        return {**found, **self.files}

    def path(self, name: str) -> Path:
        """The file of the game called `name`; `NotFound` for any other name."""
        if not NAME.match(name):
            raise NotFound(name)
        # the one name looked up, not the folder listed: every request of a page asks this
        path = self.files.get(name)
        if path is None:
            path = (self.folder / name).resolve()
            if path.parent != self.folder:  # a link out of the folder
                raise NotFound(name)
        if not path.is_file():
            raise NotFound(name)
        return path

    def entries(self) -> list[Entry]:
        """Every game file, and every other JSON file (said not to be a game, or why it is not
        served): nothing in the folder is hidden without a word."""
        out = []
        for name, path in sorted(self._candidates().items()):
            if NAME.match(name):
                out.append(Entry(name, path, kind_of(path), GameFile(path).revision_on_disk()))
            else:
                shown = shown_name(name)
                out.append(Entry(shown, path, None, 0, BAD_NAME if shown == name else NOT_TEXT))
        return out

    def new_path(self, name: str) -> Path:
        """Where a new game called `name` goes (in the folder); `FileExistsError` when taken
        (a conflict, as when another request makes it first)."""
        from models.errors import SpecError

        if not name.endswith(".json"):
            name += ".json"
        if not NAME.match(name):
            raise SpecError(f"'{name}': a game's name is letters, digits, '-', '_' and '.', "
                            "ending in .json")
        path = self.folder / name
        if path.exists() or name in self.files:
            raise FileExistsError(name)
        return path
