"""A game file on disk: read and written under an exclusive lock, each write +1 on its
revision, a write from a writer that loaded an older revision refused (never a lost step).

The lock is `filelock`'s, on a lock file of the real game file (symbolic links resolved: two
paths to one file share one lock) kept in a hidden folder beside it (`LOCKS`), so that no lock
file lies among the games; the write itself is atomic (`models.files.write_atomic`: a
temporary file renamed over the old one). A lock file is never deleted: another writer may be
waiting on it, and a new file at its path would let two writers in at once.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from models.errors import CastellError, Reason, Refused, SpecError
from models.files import MAX_FILE_BYTES, parse_json, read_text, write_atomic_meanwhile

if TYPE_CHECKING:
    from filelock import FileLock

# a game file's last key is its revision (`"revision": 12` then the closing brace)
TAIL_BYTES = 64
TAIL_REVISION = re.compile(rb'\n {1,8}"revision": ([0-9]{1,9})\s*\}\s*$')

LOCKS = ".castell-locks"  # the hidden folder of the lock files, beside the game files


def lock_path(path: Path | str) -> Path:
    """The lock file of the game file at `path` (its real path's)."""
    real = Path(os.path.realpath(path))
    return real.parent / LOCKS / f"{real.name}.lock"


# how long a writer waits for another one to finish its step before it gives up: a step is
# milliseconds (a festival's towers, seconds), so this is only ever reached by a stuck process
LOCK_WAIT_S = 60.0


def lock_is_free(path: Path | str) -> bool:
    """Nobody holds the lock of the game file at `path` now: a look, the lock taken and given
    back at once, never waited for (a server's step waits for it without a thread,
    `web.step_gate`). A lock that cannot be made (a read-only folder) is no wait either: the
    write then says why."""
    from filelock import FileLock, Timeout  # deferred: see `GameFile.lock`

    lock = FileLock(lock_path(path), timeout=0)
    try:
        Path(lock.lock_file).parent.mkdir(exist_ok=True)
        with lock:
            return True
    except Timeout:
        return False
    except OSError:
        return True


class StaleRevision(Refused):
    """The file changed since the writer loaded it."""

    def __init__(self, loaded: int, now: int):
        self.loaded = loaded
        self.now = now
        super().__init__(f"the game changed since you loaded it: revision {loaded}, now {now}; "
                         "reload it and try again", Reason.STALE_REVISION)


class GameFile:
    """One game file and its lock. `locked()` holds the lock across a read-check-write (the
    lock is re-entrant within this object: `write` inside `locked()` does not wait)."""

    def __init__(self, path: Path | str, wait: float = LOCK_WAIT_S):
        self.path = Path(path)
        self.wait = wait  # how long a writer waits for another one's step
        self._lock: FileLock | None = None

    @property
    def lock(self) -> FileLock:
        """The file's lock, made when first taken: `filelock` imports asyncio, tens of
        milliseconds of every command's start-up that only reads a game (`castell plan`)."""
        if self._lock is None:
            from filelock import FileLock

            # on the real path: a link to the file and the file itself are one writer's at a
            # time (each path's own lock let two writers through it, one step lost)
            self._lock = FileLock(lock_path(self.path), timeout=self.wait)
        return self._lock

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        from filelock import Timeout

        lock = self.lock
        try:
            Path(lock.lock_file).parent.mkdir(exist_ok=True)
            with lock:
                yield
        except Timeout:
            raise CastellError(f"{self.path}: busy: another writer has held it for "
                               f"{self.wait:g} s; try again") from None

    def text(self) -> str:
        return read_text(self.path, MAX_FILE_BYTES)

    def data(self) -> Any:
        """The file's JSON, bounded in size and depth (`models.files.parse_json`): anything
        else is a `CastellError` naming the file, never a parser's own error."""
        return parse_json(self.text(), str(self.path))

    def revision_on_disk(self) -> int:
        """The revision the file holds now (0 for a file written before revisions, or one
        that is not a game's JSON). Both games write it last: read from the file's tail when
        it is there (the pages' event streams ask at every change: a parse of a whole game
        for each of ten screens competed with the step being answered)."""
        tail = self._tail_revision()
        if tail is not None:
            return tail
        try:
            data = self.data()
        except CastellError:
            return 0
        value = data.get("revision", 0) if isinstance(data, dict) else 0
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    def _tail_revision(self) -> int | None:
        try:
            with open(self.path, "rb") as handle:
                handle.seek(0, os.SEEK_END)
                handle.seek(max(0, handle.tell() - TAIL_BYTES))
                tail = handle.read()
        except OSError:
            return None
        found = TAIL_REVISION.search(tail)
        return int(found.group(1)) if found else None

    def write(self, text: str, loaded: int) -> None:
        """Write `text` (which already carries revision `loaded + 1`), under the lock, unless
        the file is no longer at revision `loaded`."""
        with self.writing(text, loaded):
            pass

    @contextlib.contextmanager
    def writing(self, text: str, loaded: int) -> Iterator[None]:
        """`write`, with the `with` block run while the text goes to disk
        (`models.files.write_atomic_meanwhile`); the file is replaced when the block ends
        without an error."""
        with self.locked():
            if self.path.exists():
                now = self.revision_on_disk()
                if now != loaded:
                    raise StaleRevision(loaded, now)
            with write_atomic_meanwhile(self.path, text):
                yield


class SavedGame:
    """What both game handles share: a state that carries its revision, kept in a file.
    `save` writes it back atomically under the lock as revision +1, refused (`StaleRevision`)
    when the file is no longer at `expect_revision` (default: the revision this handle
    loaded)."""

    state: Any  # a pydantic game state with a `revision` field and `to_json()`
    file: GameFile | None
    loaded_revision: int

    @property
    def revision(self) -> int:
        value: int = self.state.revision
        return value

    def save(self, expect_revision: int | None = None) -> None:
        with self.saving(expect_revision):
            pass

    @contextlib.contextmanager
    def saving(self, expect_revision: int | None = None) -> Iterator[str]:
        """`save`, with the `with` block run while the save goes to disk, the state showing
        the revision it writes: a page drawn there is ready when the other screens learn of
        the write, and the step waits for the disk only once (a page's step: the sync of
        the file was a third of it). It gives the text it writes. An error in the block
        writes nothing."""
        if self.file is None:
            raise SpecError("this game has no file to save to")
        loaded = self.loaded_revision if expect_revision is None else expect_revision
        # a new state (a state is never changed in place: a verified game kept by
        # `service.verified` may be this very object)
        new = self.state.model_copy(update={"revision": loaded + 1})
        text = new.to_json()
        state, self.state = self.state, new
        try:
            with self.file.writing(text, loaded):
                yield text
        except BaseException:
            self.state = state
            raise
        self.loaded_revision = new.revision
        self.saved(text)

    def saved(self, text: str) -> None:
        """What a handle does once its state is written as `text` (nothing by default)."""
