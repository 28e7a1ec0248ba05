"""Seats (issue 37): a page plays for its own seat only, a guest watches, the seats' secrets
reach only the host, and a scorekeeper is an explicit choice."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from service.game_identity import Identity
from tests.web.conftest import LOCAL, seat_keys
from web.app import create_app
from web.library import Library
from web.seat_store import Seat, Seats
from web.security import Access


@pytest.fixture
def lan(folder: Path) -> Iterator[tuple[TestClient, TestClient, TestClient]]:
    """Three screens on one --lan server: Anna's, Biel's, and a guest's."""
    app = create_app(Library(folder), Access.lan(), "http://127.0.0.1/join?token=x")
    with TestClient(app, base_url=LOCAL) as anna, TestClient(app, base_url=LOCAL) as biel, \
            TestClient(app, base_url=LOCAL) as guest:
        keys = seat_keys(app, "castell.json")
        assert anna.get("/g/castell.json/seat", params={"key": keys["Anna"]}).status_code == 200
        assert biel.get("/g/castell.json/seat", params={"key": keys["Biel"]}).status_code == 200
        guest.cookies.set("castell_token", app.state.access.token)  # joined, no seat
        yield anna, biel, guest


def _state(client: TestClient) -> dict:
    return client.get("/api/g/castell.json").json()


def _post(client: TestClient, step: str, revision: int):
    return client.post("/g/castell.json/step", data={"revision": revision, "step": step},
                       follow_redirects=False)


def test_only_the_seat_to_move_plays(lan: tuple[TestClient, TestClient, TestClient],
                                     folder: Path) -> None:
    anna, biel, guest = lan
    state = _state(guest)
    before = (folder / "castell.json").read_bytes()
    wrong = _post(biel, "end", state["revision"])  # Anna is to move
    assert wrong.status_code == 403 and wrong.headers["x-castell-code"] == "wrong_player"
    watching = _post(guest, "end", state["revision"])
    assert watching.status_code == 403 and watching.headers["x-castell-code"] == "watching"
    assert (folder / "castell.json").read_bytes() == before
    assert _post(anna, "end", state["revision"]).status_code == 303
    assert _state(guest)["revision"] == state["revision"] + 1
    # Biel cannot take back Anna's step; Anna can
    assert _post(biel, "undo", state["revision"] + 1).headers["x-castell-code"] == \
        "wrong_player"
    assert _post(anna, "undo", state["revision"] + 1).status_code == 303


def test_a_page_shows_only_its_own_players_controls(
        lan: tuple[TestClient, TestClient, TestClient]) -> None:
    anna, biel, guest = lan
    mine, theirs, watched = (c.get("/g/castell.json").text for c in (anna, biel, guest))
    assert 'class="controls"' in mine and "You play <b>Anna</b>" in mine
    assert 'class="controls"' not in theirs and "You play <b>Biel</b>" in theirs
    assert 'class="controls"' not in watched and "You are watching" in watched
    assert "What should I do?" in mine and "What should I do?" not in theirs
    for page in (watched, theirs):
        assert 'name="step"' not in page.split("<h2>History")[0]  # no step control at all
    assert 'value="undo"' not in watched
    # every page shows the seats, taken; no page but the host's shows a seat's secret
    assert "Anna: taken" in watched and "Biel: taken" in watched
    for page in (mine, theirs, watched):
        assert "/seat?key=" not in page


def test_the_host_sees_every_seats_link(folder: Path) -> None:
    access = Access.lan()
    app = create_app(Library(folder), access, "http://127.0.0.1/join?token=x")
    with TestClient(app, base_url=LOCAL) as host:
        assert host.get("/host", params={"key": "wrong"}).status_code == 403
        assert "/seat?key=" not in host.get("/g/combo.json").text
        host.get("/host", params={"key": access.host_key})
        page = host.get("/g/combo.json").text
        keys = seat_keys(app, "combo.json")
        assert f"/g/combo.json/seat?key={keys['Ana']}" in page and "<svg" in page
        assert host.get("/g/combo.json/seat", params={"key": "nope"}).status_code == 403
        # a seat's secret is its game's only
        assert host.get("/g/castell.json/seat",
                        params={"key": keys["Ana"]}).status_code == 403


def test_a_scorekeeper_is_chosen_at_the_start_and_plays_for_everyone(folder: Path) -> None:
    app = create_app(Library(folder), Access.lan(), "http://127.0.0.1/join?token=x")
    with TestClient(app, base_url=LOCAL) as laptop:
        laptop.cookies.set("castell_token", app.state.access.token)
        made = laptop.post("/new/combo", data={"file": "kept", "players": "Ana,Ben",
                                               "scorekeeper": "true"}, follow_redirects=False)
        assert made.status_code == 303
        page = laptop.get("/g/kept.json").text
        assert "keeps the score" in page and "the scorekeeper: taken" in page
        for _ in range(2):  # Ana's step, then Ben's, from the one screen
            state = laptop.get("/api/g/kept.json").json()
            step = laptop.post("/g/kept.json/step", data={"revision": state["revision"],
                                                          "step": state["legal"][-1]},
                               follow_redirects=False)
            assert step.status_code == 303
        assert None in seat_keys(app, "kept.json")  # the scorekeeper's role
        # without the choice there is no scorekeeper
        laptop.post("/new/combo", data={"file": "seated", "players": "Ana,Ben"})
        assert None not in seat_keys(app, "seated.json")


def test_on_127_0_0_1_a_page_without_a_seat_keeps_the_score(client: TestClient) -> None:
    page = client.get("/g/castell.json").text
    assert "This screen keeps the score" in page and 'class="controls"' in page


def test_seats_count_the_pages_connected(tmp_path: Path) -> None:
    seats = Seats(tmp_path)
    game = Identity("g", 0, ("Ana", "Ben"))
    seats.secrets("g.json", game, ["Ana", "Ben"])
    assert [s.connected for s in seats.status("g.json", game, ["Ana", "Ben"])] == \
        [False, False]
    with seats.connected("g.json", Seat("Ben")):
        shown = seats.status("g.json", game, ["Ana", "Ben"])
        assert [(s.seat, s.taken, s.connected) for s in shown] == \
            [("Ana", False, False), ("Ben", False, True)]
    assert not any(s.connected for s in seats.status("g.json", game, ["Ana", "Ben"]))
    # the secrets outlive the server (a new Seats on the folder knows them)
    assert Seats(tmp_path).secrets("g.json", game, ["Ana", "Ben"]) == \
        seats.secrets("g.json", game, ["Ana", "Ben"])


def test_the_host_may_keep_the_score_on_its_screen(folder: Path) -> None:
    access = Access.lan()
    app = create_app(Library(folder), access, "http://127.0.0.1/join?token=x")
    with TestClient(app, base_url=LOCAL) as screen:
        screen.cookies.set("castell_token", access.token)
        assert screen.post("/g/castell.json/scorekeeper").status_code == 403  # a guest
        screen.get("/host", params={"key": access.host_key})
        kept = screen.post("/g/castell.json/scorekeeper", follow_redirects=False)
        assert kept.status_code == 303 and "castell_seat" in kept.headers["set-cookie"]
        page = screen.get("/g/castell.json").text
        assert "keeps the score" in page and "the scorekeeper: taken" in page
        state = _state(screen)
        assert _post(screen, "end", state["revision"]).status_code == 303  # Anna's turn
        assert _post(screen, "end", state["revision"] + 1).status_code == 303  # Biel's
