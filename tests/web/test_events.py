"""Live updates after a drop (issue 52): a stream opened without saying which revision the page
shows says the revision at once (a page's stream re-opened by the browser tells it where the
game is), and asks the browser to open it again within a second when it drops."""

from __future__ import annotations

import asyncio
from pathlib import Path

from service.castell import Game
from web import events
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


def test_the_streams_on_one_file_share_one_watch(folder: Path) -> None:
    """Ten pages on one game: one watch looks at the file for them all (ten looking each for
    itself took turns with the step being answered); every page hears the step; the watch ends
    with the last page."""
    path = folder / "castell.json"

    async def ten_pages() -> tuple[list[str], list[events.Watch]]:
        streams = [revisions(path, 0) for _ in range(10)]
        for stream in streams:
            assert (await anext(stream)).startswith(": listening")
        heard = [asyncio.ensure_future(anext(stream)) for stream in streams]
        await asyncio.sleep(5 * events.POLL_S)
        watches = list(events._WATCHES[asyncio.get_running_loop()].values())
        with Game.editing(path) as game:
            game.step("end")
            game.save()
        said = await asyncio.wait_for(asyncio.gather(*heard), 30)
        for stream in streams:
            await stream.aclose()
        for _ in range(600):  # the watch sees at its next look that nobody listens
            if not events._WATCHES[asyncio.get_running_loop()]:
                break
            await asyncio.sleep(events.POLL_S)
        assert not events._WATCHES[asyncio.get_running_loop()] and not watches[0].watching
        return said, watches

    said, watches = asyncio.run(ten_pages())
    assert said == ["event: changed\ndata: 1\n\n"] * 10 and len(watches) == 1


def test_a_step_this_server_wrote_is_heard_at_once(folder: Path) -> None:
    """The server's own step wakes the file's watch (`written`, once its answer is sent): its
    pages do not wait for the next look (another writer's step waits for it)."""
    path = folder / "castell.json"

    async def one_page() -> str:
        stream = revisions(path, 0, poll=60.0)  # the next look: long after the test
        await anext(stream)  # ": listening"
        heard = asyncio.ensure_future(anext(stream))
        await asyncio.sleep(0.2)  # the watch has looked once, and waits
        assert not heard.done()

        def step() -> None:
            with Game.editing(path) as game:
                game.step("end")
                game.save()

        await asyncio.to_thread(step)
        await events.written(path)
        said = await asyncio.wait_for(heard, 30)  # not the 60 s look
        await stream.aclose()
        return said

    assert asyncio.run(one_page()) == "event: changed\ndata: 1\n\n"
