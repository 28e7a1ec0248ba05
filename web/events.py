"""Live updates: a page listens on `/g/NAME/events` (server-sent events) and reloads its game
when the file's revision moves on, whoever wrote it (another page, a `castell play` typed in a
terminal). The file is watched, not the server's own steps, so nothing written reaches a page
by one road and not the other.

One watch a file (`Watch`): one task looks at the file for all the pages that listen to it,
and wakes them when its revision moves on. A stream each looking for itself made ten screens'
looks, 500 a second, that took turns with the step being answered (`benchmarks/bench_web.py`).
A step this server wrote is looked at at once (`written`: the watch still reads the revision
from the file); another writer's (a terminal's `castell play`) at the next look, `POLL_S`.

A stream says the revision at once when it opens: a page whose stream comes back after a drop
(the browser opens it again) learns where the game is, and its script (`static/live.js`)
fetches the game if it shows another revision."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import weakref
from collections.abc import AsyncIterator
from pathlib import Path

from models.errors import CastellError
from service.store import GameFile

# how often a file's watch looks at it (a stat) for another writer's steps: they show within
# this and a fetch (the server's own steps are looked at when written)
POLL_S = 0.05
HEARTBEAT_S = 15.0
# how soon a browser opens a dropped stream again (SSE `retry`; its own default is seconds)
RETRY_MS = 1000


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


class Watch:
    """One file's revision, looked at every `poll` seconds by one task while a stream listens
    (and until the server is `stopping`); each change wakes every stream that waits on it. Its
    task ends when nobody listens, the server stops or the file cannot be read; the watch is
    then forgotten (a stream that comes later makes a new one) and its streams end."""

    def __init__(self, path: Path, stopping: threading.Event | None, poll: float = POLL_S
                 ) -> None:
        self.path = path
        self.stopping = stopping
        self.poll = poll
        self.revision: int | None = None  # None until the first look
        self.generation = 0  # one more at each change (and when the watch ends)
        self._file = GameFile(path)
        self._changed = asyncio.Event()
        self._listeners = 0
        self._loop = asyncio.get_running_loop()
        self._poked = asyncio.Event()
        self._task: asyncio.Task[None] | None = self._loop.create_task(self._watch())

    def poke(self) -> None:
        """Look at the file now (from any thread or loop): this server wrote it."""
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody listens
            self._loop.call_soon_threadsafe(self._poked.set)

    def join(self) -> None:
        self._listeners += 1

    def leave(self) -> None:
        self._listeners -= 1

    @property
    def watching(self) -> bool:
        return self._task is not None

    async def changed(self, generation: int) -> None:
        """Returns once the watch moved past `generation` (at once if it has)."""
        if self.generation == generation:
            await self._changed.wait()

    def _bump(self) -> None:
        self.generation += 1
        self._changed.set()
        self._changed = asyncio.Event()

    async def _watch(self) -> None:
        stamp: tuple[int, int, int] | None = None
        try:
            while self._listeners > 0 and not (self.stopping is not None
                                               and self.stopping.is_set()):
                now = _stamp(self.path)
                if now != stamp or self.revision is None:
                    stamp = now
                    revision = await asyncio.to_thread(self._file.revision_on_disk)
                    if revision != self.revision:
                        self.revision = revision
                        self._bump()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._poked.wait(), self.poll)
                self._poked.clear()
        except (OSError, CastellError):
            pass  # the file is gone or unreadable: its streams end (a browser opens again)
        finally:
            # no await between the last look at the listeners and this: a stream that comes
            # now finds no watch, and makes a new one
            self._task = None
            _forget(self)
            self._bump()


# the watches, by event loop (a task belongs to its loop; tests run loops of their own) and
# by the file's real path and the stop event their streams end with; the lock: `written`
# reads the watches of every loop
_WATCHES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[str, int], Watch]] \
    = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


async def written(path: Path) -> None:
    """This server wrote `path` (a step): the watches on it look now, not at their next look
    (on the event loop: an answer's background task)."""
    real = os.path.realpath(path)
    with _LOCK:
        watches = [watch for found in _WATCHES.values() for (where, _), watch in found.items()
                   if where == real]
    for watch in watches:
        watch.poke()


def _key(path: Path, stopping: threading.Event | None) -> tuple[str, int]:
    return os.path.realpath(path), id(stopping)


def _joined(path: Path, stopping: threading.Event | None, poll: float) -> Watch:
    key = _key(path, stopping)
    with _LOCK:
        found = _WATCHES.setdefault(asyncio.get_running_loop(), {})
        if key not in found:  # the first stream's `poll` is the watch's
            found[key] = Watch(path, stopping, poll)
        watch = found[key]
    watch.join()
    return watch


def _forget(watch: Watch) -> None:
    key = _key(watch.path, watch.stopping)
    with _LOCK:
        found = _WATCHES.get(asyncio.get_running_loop(), {})
        if found.get(key) is watch:
            del found[key]


async def revisions(path: Path, since: int | None = None,
                    stopping: threading.Event | None = None, poll: float = POLL_S
                    ) -> AsyncIterator[str]:
    """SSE messages: `changed` with the revision each time the file's revision is no longer the
    last one sent; the first, `since`, the revision the client shows (None: the page does not
    say, and the stream says the revision at once: a page's stream that comes back after a
    drop tells it where the game is); a comment now and then to keep proxies and phones from
    closing the stream. It ends when the server is `stopping` (an open stream kept Ctrl-C from
    stopping it). `poll`: how often the file's watch looks for another writer's steps."""
    last = -1 if since is None else since  # no revision is -1
    yield f": listening\nretry: {RETRY_MS}\n\n"
    watch = _joined(path, stopping, poll)
    try:
        while True:
            generation = watch.generation
            if watch.revision is not None and watch.revision != last:
                last = watch.revision
                yield f"event: changed\ndata: {last}\n\n"
            if not watch.watching:  # the server stops, or the file could not be read (the
                return               # browser opens the stream again)
            try:
                await asyncio.wait_for(watch.changed(generation), HEARTBEAT_S)
            except TimeoutError:
                yield ": still here\n\n"
    finally:
        watch.leave()
