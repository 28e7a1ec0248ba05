"""Live updates after a drop (issue 52): a stream opened without saying which revision the page
shows says the revision at once (a page's stream re-opened by the browser tells it where the
game is), and asks the browser to open it again within a second when it drops."""

from __future__ import annotations

import asyncio
from pathlib import Path

from service.castell import Game
from web.events import RETRY_MS, revisions


def _first_two(path: Path, since: int | None) -> list[str]:
    async def read() -> list[str]:
        stream = revisions(path, since)
        first = await anext(stream)
        try:
            second = await asyncio.wait_for(anext(stream), 0.5)
        except TimeoutError:
            second = ""
        return [first, second]

    return asyncio.run(read())


def test_a_stream_says_the_revision_at_once(folder: Path) -> None:
    path = folder / "castell.json"
    with Game.editing(path) as game:
        game.step("end")
        game.save()
    listening, now = _first_two(path, None)
    assert listening == f": listening\nretry: {RETRY_MS}\n\n" and RETRY_MS <= 1000
    assert now == "event: changed\ndata: 1\n\n"


def test_a_client_that_says_its_revision_hears_only_changes(folder: Path) -> None:
    path = folder / "castell.json"
    assert _first_two(path, 0)[1] == ""  # the file is at 0: nothing to say yet
    assert _first_two(path, 3)[1] == "event: changed\ndata: 0\n\n"
