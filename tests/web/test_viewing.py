"""A request works out whom it plays for once (`web.viewing.seat_of`, a FastAPI dependency):
counted through a dependency override that spies on it, and shown by an override that seats the
page somewhere its cookies do not (the step, its guard, the fragment drawn, the page cache all
take the dependency's viewer, never their own)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import Request
from fastapi.testclient import TestClient

from service.handles import load_handle
from web.app import create_app
from web.library import Library
from web.seat_store import Seat, Viewer, viewer
from web.security import Access
from web.viewing import seat_of

from .conftest import LOCAL


class Spy:
    """`seat_of` counted; `seated`: the viewer it gives instead (None: the real one)."""

    def __init__(self) -> None:
        self.calls = 0
        self.seated: Viewer | None = None

    def __call__(self, request: Request, name: str) -> Viewer:
        self.calls += 1
        return viewer(request, name) if self.seated is None else self.seated


@pytest.fixture
def spied(folder: Path) -> Iterator[tuple[TestClient, Spy]]:
    app = create_app(Library(folder))
    spy = Spy()
    app.dependency_overrides[seat_of] = spy
    with TestClient(app, base_url=LOCAL) as client:
        yield client, spy


def _step(client: TestClient, name: str, step: str | None = None) -> tuple[int, str, str]:
    # the state read from the file (the API resolves its viewer too: not counted here)
    game = load_handle(client.app.state.library.path(name),  # type: ignore[attr-defined]
                       "castell" if name.startswith("castell") else "combo")
    answer = client.post(f"/g/{name}/step", headers={"hx-request": "true"},
                         data={"revision": game.revision, "step": step or game.legal_steps()[0]})
    return answer.status_code, answer.headers.get("x-castell-code", ""), answer.text


@pytest.mark.parametrize("name", ["castell.json", "combo.json"])
def test_a_step_works_out_its_viewer_once(spied: tuple[TestClient, Spy], name: str) -> None:
    client, spy = spied
    spy.calls = 0
    status, _, _ = _step(client, name)
    assert status == 200
    assert spy.calls == 1  # the guard, the step, its fragment and the cache's key share it
    client.get(f"/g/{name}/game")
    assert spy.calls == 2  # a page drawn: once


@pytest.mark.parametrize("name", ["castell.json", "combo.json"])
def test_every_part_of_a_step_takes_the_dependencys_viewer(
        spied: tuple[TestClient, Spy], folder: Path, name: str) -> None:
    """Seated by the override alone (no cookie): the step is checked against that seat, and
    the fragment drawn says whose page it is; a rival's seat is refused."""
    client, spy = spied
    first, second = _players(folder, name)
    spy.seated = Viewer(Seat(second), host=False, open_table=False)
    status, code, _ = _step(client, name)
    assert (status, code) == (403, "wrong_player")
    spy.seated = Viewer(Seat(first), host=False, open_table=False)
    status, _, text = _step(client, name)
    assert status == 200
    assert f'data-seat="{first}"' in text  # the fragment is drawn for the override's seat
    assert client.get(f"/g/{name}/game").text == text  # the cache's key is that viewer


def _players(folder: Path, name: str) -> tuple[str, str]:
    """The player to move, and another."""
    game = load_handle(folder / name, "castell" if name.startswith("castell") else "combo")
    mover = game.to_play()
    assert mover is not None
    return mover, next(p for p in game.player_names() if p != mover)


def test_a_seat_without_the_join_token_is_resolved_once(folder: Path) -> None:
    """Under --lan a phone holds its seat's cookie, not the join token: the guard asks the
    dependency too, and the step is still one resolution."""
    app = create_app(Library(folder), Access(token="t" * 22))
    spy = Spy()
    app.dependency_overrides[seat_of] = spy
    with TestClient(app, base_url=LOCAL) as client:
        spy.seated = Viewer(Seat("Anna"), host=False, open_table=False)
        assert _step(client, "castell.json")[0] == 200
        assert spy.calls == 1
        spy.seated = Viewer(None, host=False, open_table=False)  # no seat, no token
        status, _, text = _step(client, "castell.json")
        assert status == 403 and "join link" in text
