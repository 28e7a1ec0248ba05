"""The games this process has verified, by their files' exact text: a game file is verified
(its history replayed through the referee) once when it is read or changed on disk, never
again while its text stays the same. A server's pages, live updates and advice read a game
many times between two steps; each read is a file read and a hash, not a replay.

Keyed by the file's real path and the SHA-256 of the very text that was verified (never by a
modification time: a write within the clock's tick would look unchanged); what a step saves is
kept under the text it wrote, since the referee recorded it. Bounded (`SIZE` games, least
recently used first out); every answer is a copy of its own, so that no handle changes
another's (but for what no step changes in place, a Castell game's history: its entries are
shared). A game is kept packed (its state pickled: one bytes object, not the hundreds of
objects a state is): a server keeps dozens, and the garbage collector's full passes walked
every one of their objects, a pause of tens of milliseconds in some step. A Castell game's
history stays live, shared: the texts a game's steps save hold the same entries (a step adds
a few objects, `tests/service/test_verified.py`), so a game's history is walked once, not
once per kept text.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
SIZE = 64  # games kept (a state of a whole game is tens of kilobytes)


def _key(path: Path, text: str) -> tuple[str, str]:
    return (os.path.realpath(path), hashlib.sha256(text.encode("utf-8")).hexdigest())


class Verified:
    """Verified games by (real path, text); counts the verifications it could not spare."""

    def __init__(self, size: int = SIZE):
        self.size = size
        self.verifications = 0
        self.reads = 0  # every game read through it (a file's text: a hash, then a copy)
        self._kept: OrderedDict[tuple[str, str], Any] = OrderedDict()
        # a text a step saved -> the text it was made on (an undo's game, if still kept)
        self._made_on: OrderedDict[tuple[str, str], tuple[str, str]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, path: Path, text: str, verify: Callable[[], T],
            pack: Callable[[T], Any], unpack: Callable[[Any], T]) -> T:
        """The game `verify()` makes of `text` (the file at `path`), verified once; kept as
        `pack` makes it, given out as `unpack` makes of that."""
        key = _key(path, text)
        with self._lock:
            self.reads += 1
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
            else:
                self.verifications += 1
        if kept is not None:
            return unpack(kept)
        made = verify()
        self.keep(path, text, made, pack)
        return made

    def keep(self, path: Path, text: str, value: T, pack: Callable[[T], Any]) -> None:
        """Remember `value` as the verified game of `text`, packed (the caller goes on)."""
        key = _key(path, text)
        packed = pack(value)
        with self._lock:
            self._kept[key] = packed
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def made_on(self, path: Path, after: str, before: str) -> None:
        """The text `after` was saved by one step on the game of the text `before`."""
        with self._lock:
            self._made_on[_key(path, after)] = _key(path, before)
            while len(self._made_on) > self.size:
                self._made_on.popitem(last=False)

    def previous(self, path: Path, text: str, unpack: Callable[[Any], T]) -> T | None:
        """The verified game the step that saved `text` was made on (what undoing it gives
        back, revision aside), while it is kept; None otherwise."""
        with self._lock:
            before = self._made_on.get(_key(path, text))
            kept = None if before is None else self._kept.get(before)
        return None if kept is None else unpack(kept)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._made_on.clear()


VERIFIED = Verified()
