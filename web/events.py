"""Live updates: a page listens on `/g/NAME/events` (server-sent events) and reloads its game
when the file's revision moves on, whoever wrote it (another page, a `castell play` typed in a
terminal). The file is watched, not the server's own steps, so nothing written reaches a page
by one road and not the other.

A stream says the revision at once when it opens: a page whose stream comes back after a drop
(the browser opens it again) learns where the game is, and its script (`static/live.js`)
fetches the game if it shows another revision."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import AsyncIterator
from pathlib import Path

from service.store import GameFile

# how often a page's stream looks at the file (a stat): the other screens show a step within
# 150 ms (`benchmarks/bench_web.py`), of which this is at most the wait
POLL_S = 0.02
HEARTBEAT_S = 15.0
# how soon a browser opens a dropped stream again (SSE `retry`; its own default is seconds)
RETRY_MS = 1000


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


async def revisions(path: Path, since: int | None = None,
                    stopping: threading.Event | None = None) -> AsyncIterator[str]:
    """SSE messages: `changed` with the revision each time the file's revision is no longer the
    last one sent; the first, `since`, the revision the client shows (None: the page does not
    say, and the stream says the revision at once: a page's stream that comes back after a
    drop tells it where the game is); a comment now and then to keep proxies and phones from
    closing the stream. It ends when the server is `stopping` (an open stream kept Ctrl-C from
    stopping it)."""
    file = GameFile(path)
    last, stamp = (-1 if since is None else since), None  # no revision is -1
    quiet = 0.0
    yield f": listening\nretry: {RETRY_MS}\n\n"
    while stopping is None or not stopping.is_set():
        now = _stamp(path)
        if now != stamp:
            stamp = now
            revision = await asyncio.to_thread(file.revision_on_disk)
            if revision != last:
                last = revision
                quiet = 0.0
                yield f"event: changed\ndata: {revision}\n\n"
        await asyncio.sleep(POLL_S)
        quiet += POLL_S
        if quiet >= HEARTBEAT_S:
            quiet = 0.0
            yield ": still here\n\n"
