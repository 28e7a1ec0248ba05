"""Seats bound to their game (issue 53): the scorekeeper is a role with a secret of its own,
never a player's seat; a seat's secret is good for the game it was made for only (a new game
at the old path gets new secrets), the host re-issues it, and a seat's link is no join
token."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from service.game_identity import Identity, identity
from tests.web.conftest import LOCAL, new_castell, seat_keys
from web.app import create_app
from web.library import Library
from web.seat_store import KEEPER, SEATS_DIR, Seat, Seats, Viewer
from web.security import Access


@pytest.fixture
def server(folder: Path) -> Iterator[tuple[object, Access]]:
    access = Access.lan()
    app = create_app(Library(folder), access, "http://127.0.0.1/join?token=x")
    yield app, access


def _screen(app: object) -> TestClient:
    return TestClient(app, base_url=LOCAL)  # type: ignore[arg-type]


def _step(client: TestClient, game: str = "castell.json", step: str = "end") -> int:
    state = client.get(f"/api/g/{game}").json()
    status: int = client.post(f"/g/{game}/step", follow_redirects=False,
                              data={"revision": state["revision"], "step": step}).status_code
    return status


def test_a_player_called_scorekeeper_holds_a_players_seat_not_the_role(tmp_path: Path) -> None:
    """Regression (issue 53): seats were named after players and the scorekeeper's was the
    seat called "scorekeeper": a player of that name (from a file of an older version) acted
    for everyone, and with "keep the score" the role's secret was that player's."""
    seats = Seats(tmp_path)
    game = Identity("g", 0, ("Anna", "scorekeeper"))
    made = seats.secrets("g.json", game, ["Anna", "scorekeeper"], scorekeeper=True)
    assert set(made) == {Seat("Anna"), Seat("scorekeeper"), KEEPER}
    assert made[Seat("scorekeeper")] != made[KEEPER]
    player = seats.holder("g.json", game, ["Anna", "scorekeeper"], made[Seat("scorekeeper")])
    assert player == Seat("scorekeeper") and not player.scorekeeper
    them = Viewer(player, host=False, open_table=False)
    assert not them.scorekeeper and them.seat == "scorekeeper"
    assert not them.acts_for("Anna") and them.as_player() == "scorekeeper"
    role = seats.holder("g.json", game, ["Anna", "scorekeeper"], made[KEEPER])
    keeper = Viewer(role, host=False, open_table=False)
    assert keeper.scorekeeper and keeper.seat is None and keeper.acts_for("Anna")
    shown = seats.status("g.json", game, ["Anna", "scorekeeper"])
    assert [(s.seat, s.role) for s in shown] == \
        [("Anna", False), ("scorekeeper", False), ("scorekeeper", True)]


def test_an_older_seat_file_gives_no_seat(server: tuple[object, Access], folder: Path) -> None:
    """A seats file of an older version (seats by name, "scorekeeper" among them, bound to no
    game): none of its secrets plays, the scorekeeper's least."""
    app, access = server
    (folder / SEATS_DIR).mkdir()
    old = {"Anna": {"secret": "a" * 22, "taken": True},
           "scorekeeper": {"secret": "k" * 22, "taken": True}}
    (folder / SEATS_DIR / "castell.json").write_text(json.dumps(old))
    with _screen(app) as phone:
        phone.cookies.set("castell_token", access.token or "")
        for secret in ("a" * 22, "k" * 22):
            assert phone.get("/g/castell.json/seat", params={"key": secret}).status_code == 403
            phone.cookies.set("castell_seat", secret, path="/g/castell.json")
            assert "You are watching" in phone.get("/g/castell.json").text
            assert _step(phone) == 403


def test_keep_the_score_gives_the_role_its_own_secret(server: tuple[object, Access]) -> None:
    app, access = server
    with _screen(app) as screen:
        screen.get("/host", params={"key": access.host_key})
        kept = screen.post("/g/castell.json/scorekeeper", follow_redirects=False)
        secret = kept.cookies.get("castell_seat")
        keys = seat_keys(app, "castell.json")
        assert secret == keys[None] and secret not in {keys["Anna"], keys["Biel"]}
        page = screen.get("/g/castell.json").text
        assert 'data-role="scorekeeper"' in page and 'data-seat="scorekeeper"' not in page
        # the host re-issues the role's link: the screen that held it only watches
        assert screen.post("/g/castell.json/reissue", data={"scorekeeper": "true"},
                           follow_redirects=False).status_code == 303
        assert "You are watching" in screen.get("/g/castell.json").text
        assert seat_keys(app, "castell.json")[None] != secret


def test_a_new_game_at_an_old_path_gets_new_secrets(server: tuple[object, Access],
                                                    folder: Path) -> None:
    """Regression (issue 53): delete a game, write a new one at its path (the same players,
    the same seed): the old game's seat cookie played the new game."""
    app, _ = server
    keys = seat_keys(app, "castell.json")
    with _screen(app) as anna:
        anna.get("/g/castell.json/seat", params={"key": keys["Anna"]})
        assert _step(anna) == 303  # Anna plays her game (revision 1)
        assert _step(anna, step="undo") == 303  # an undo is the same game (revision 2)
        assert "You play <b>Anna</b>" in anna.get("/g/castell.json").text
        (folder / "castell.json").unlink()
        new_castell(folder)  # the same players and seed: revision 0
        assert "You are watching" in anna.get("/g/castell.json").text
        assert _step(anna) == 403
        assert anna.get("/g/castell.json/seat", params={"key": keys["Anna"]}).status_code == 403
    assert seat_keys(app, "castell.json")["Anna"] != keys["Anna"]


def test_a_game_made_again_on_the_server_drops_the_old_seats(
        server: tuple[object, Access], folder: Path) -> None:
    """A new game made from the start page at the name of one deleted (even one never
    played, which the file alone could not tell from the new one): its seats are new."""
    app, access = server
    keys = seat_keys(app, "combo.json")
    with _screen(app) as host:
        host.get("/host", params={"key": access.host_key})
        (folder / "combo.json").unlink()
        made = host.post("/new/combo", follow_redirects=False,
                         data={"file": "combo", "players": "Ana,Ben", "seed": 1})
        assert made.status_code == 303
    with _screen(app) as ana:
        assert ana.get("/g/combo.json/seat", params={"key": keys["Ana"]}).status_code == 403
    assert seat_keys(app, "combo.json")["Ana"] != keys["Ana"]


def test_the_host_reissues_a_seats_link(server: tuple[object, Access]) -> None:
    app, access = server
    keys = seat_keys(app, "castell.json")
    with _screen(app) as anna, _screen(app) as host:
        anna.get("/g/castell.json/seat", params={"key": keys["Anna"]})
        anna.cookies.set("castell_token", access.token or "")
        assert anna.post("/g/castell.json/reissue", data={"player": "Anna"}).status_code == 403
        host.get("/host", params={"key": access.host_key})
        page = host.get("/g/castell.json").text
        assert 'action="/g/castell.json/reissue"' in page
        assert host.post("/g/castell.json/reissue", data={"player": "Nobody"}).status_code == 400
        # no scorekeeper was chosen: there is none to re-issue (nor one made by asking)
        assert host.post("/g/castell.json/reissue",
                         data={"scorekeeper": "true"}).status_code == 400
        assert None not in seat_keys(app, "castell.json")
        again = host.post("/g/castell.json/reissue", data={"player": "Anna"},
                          follow_redirects=False)
        assert again.status_code == 303
        assert "You are watching" in anna.get("/g/castell.json").text
        assert _step(anna) == 403
        assert anna.get("/g/castell.json/seat", params={"key": keys["Anna"]}).status_code == 403
        fresh = seat_keys(app, "castell.json")
        assert fresh["Anna"] != keys["Anna"] and fresh["Biel"] == keys["Biel"]
        assert fresh["Anna"] in host.get("/g/castell.json").text
        assert anna.get("/g/castell.json/seat", params={"key": fresh["Anna"]}).status_code == 200
        assert _step(anna) == 303


def test_a_seat_link_is_no_join_token(folder: Path) -> None:
    """Regression (issue 53): a seat's link set the server's join token; after a restart an
    old seat link set the new run's: any seat link ever handed out joined the server. It plays
    its own game now, and nothing else."""
    first = create_app(Library(folder), Access.lan(), None)
    keys = seat_keys(first, "castell.json")
    later = create_app(Library(folder), Access.lan(), None)  # the server restarted
    with _screen(later) as anna:
        taken = anna.get("/g/castell.json/seat", params={"key": keys["Anna"]},
                         follow_redirects=False)
        assert taken.status_code == 303 and "castell_token" not in taken.headers["set-cookie"]
        assert "castell_token" not in anna.cookies
        assert _step(anna) == 303  # her own game's step
        assert anna.post("/new/combo", data={"file": "mine", "players": "A,B"}).status_code \
            == 403
        combo = anna.get("/api/g/combo.json").json()
        assert anna.post("/g/combo.json/step", data={"revision": combo["revision"],
                                                     "step": combo["legal"][0]}).status_code \
            == 403
        assert anna.post("/g/combo.json/advice", data={"revision": 0}).status_code == 403


def test_an_identity_read_before_a_step_keeps_the_seats(server: tuple[object, Access],
                                                        folder: Path) -> None:
    """A request that read the game's identity before another's step (its revision below the
    one seen since) is no new game: the seats stay."""
    app, _ = server
    keys = seat_keys(app, "castell.json")
    before = identity(folder / "castell.json")
    with _screen(app) as anna:
        anna.get("/g/castell.json/seat", params={"key": keys["Anna"]})
        assert _step(anna) == 303
        assert "You play <b>Anna</b>" in anna.get("/g/castell.json").text  # seen: 1
    seats: Seats = app.state.seats  # type: ignore[attr-defined]
    assert before is not None and before.revision == 0
    assert seats.holder("castell.json", before, ["Anna", "Biel"], keys["Anna"]) == Seat("Anna")
    assert seat_keys(app, "castell.json") == keys


@pytest.mark.parametrize("text", ["[" * 50_000, "not json", '{"game": 1, "players": []}'])
def test_a_damaged_seats_file_holds_no_seat(server: tuple[object, Access], folder: Path,
                                            text: str) -> None:
    app, _ = server
    (folder / SEATS_DIR).mkdir()
    (folder / SEATS_DIR / "castell.json").write_text(text)
    with _screen(app) as phone:
        assert phone.get("/g/castell.json").status_code == 200
    keys = seat_keys(app, "castell.json")
    assert json.loads((folder / SEATS_DIR / "castell.json").read_text())["players"]["Anna"][
        "secret"] == keys["Anna"]


def test_a_new_game_replaces_the_old_games_secrets_on_disk(server: tuple[object, Access],
                                                          folder: Path) -> None:
    app, _ = server
    keys = seat_keys(app, "castell.json")
    with _screen(app) as anna:
        anna.get("/g/castell.json/seat", params={"key": keys["Anna"]})
        assert _step(anna) == 303
        assert "You play" in anna.get("/g/castell.json").text
        (folder / "castell.json").unlink()
        new_castell(folder)
        anna.get("/g/castell.json")
    assert keys["Anna"] not in (folder / SEATS_DIR / "castell.json").read_text()


def test_the_revision_seen_is_written_at_the_stop_not_on_every_step(
        server: tuple[object, Access], folder: Path) -> None:
    """A step no longer rewrites the seats' file (about 10 ms of every step, issue 52); the
    highest revision seen reaches it when the server stops, so that a restarted server still
    knows a game written again from an earlier revision for a new one."""
    app, _ = server
    keys = seat_keys(app, "castell.json")
    kept = folder / SEATS_DIR / "castell.json"
    with _screen(app) as anna:
        anna.get("/g/castell.json/seat", params={"key": keys["Anna"]})
        written = kept.stat().st_mtime_ns
        assert _step(anna) == 303
        assert "You play <b>Anna</b>" in anna.get("/g/castell.json").text
        assert kept.stat().st_mtime_ns == written
        assert json.loads(kept.read_text())["seen"] == 0
    assert json.loads(kept.read_text())["seen"] == 1
