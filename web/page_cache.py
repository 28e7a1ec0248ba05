"""Pages drawn, kept by what they show: after a step every open screen re-fetches the game's
fragment, and most of them see the same thing (the same file, the same kind of viewer), so it
is drawn once per file text and viewer, not once per screen. The key holds the game file's
exact bytes (their SHA-256: never a modification time, which a write within the clock's tick
would leave unchanged), the template, the viewer (seat, host), the folds open on the screen
(`web.drawing.open_folds`), the advice job's state and the seats' (taken, connected):
anything else a page shows is read from those."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Hashable
from pathlib import Path

from models.files import MAX_FILE_BYTES, read_text

SIZE = 256  # drawn pages kept (tens of kilobytes each)


def file_digest(path: Path) -> str:
    """The SHA-256 of the game file's text as it is now (bounded as every read is)."""
    return text_digest(read_text(path, MAX_FILE_BYTES))


def text_digest(text: str) -> str:
    """The key part of a game file's text (`file_digest` of a file holding it)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Drawn:
    """The bodies of pages drawn, least recently used first out."""

    def __init__(self, size: int = SIZE):
        self.size = size
        self.drawn = 0  # pages drawn (misses); the rest were kept
        self._kept: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> bytes | None:
        with self._lock:
            body = self._kept.get(key)
            if body is not None:
                self._kept.move_to_end(key)
            return body

    def put(self, key: Hashable, body: bytes) -> None:
        with self._lock:
            self.drawn += 1
            self._kept[key] = body
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
