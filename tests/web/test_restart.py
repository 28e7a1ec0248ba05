"""A real evening (issue 52): a server restarted with the same command keeps its join token,
host key and seat secrets (readable by their owner only), so every phone plays on without
opening a link again; the cookies that hold them last for the game's life; a seat open on two
devices says so."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import LOCAL, seat_keys
from web.app import create_app
from web.library import Library
from web.seat_store import DEVICE_COOKIE, Seat, device_of
from web.security import COOKIE_MAX_AGE_S, KEPT_DIR, SERVER_SECRETS, Access


def _server(folder: Path) -> tuple[Any, Access]:
    """What `castell serve --lan --dir FOLDER` makes: the app and its access."""
    access = Access.lan(folder=folder)
    return create_app(Library(folder), access, f"{LOCAL}/join?token={access.token}"), access


def _step(client: TestClient, step: str = "end") -> int:
    revision = client.get("/api/g/castell.json").json()["revision"]
    status: int = client.post("/g/castell.json/step", data={"revision": revision, "step": step},
                              follow_redirects=False).status_code
    return status


def test_a_restart_keeps_every_phone_seated(folder: Path) -> None:
    app, access = _server(folder)
    with TestClient(app, base_url=LOCAL) as anna, TestClient(app, base_url=LOCAL) as host:
        anna.get("/g/castell.json/seat", params={"key": seat_keys(app, "castell.json")["Anna"]})
        assert _step(anna) == 303
        host.get("/host", params={"key": access.host_key})
        cookies = {"anna": anna.cookies, "host": host.cookies}
    again, kept = _server(folder)  # the same command, over the same folder
    assert (kept.token, kept.host_key) == (access.token, access.host_key)
    with TestClient(again, base_url=LOCAL, cookies=cookies["anna"]) as anna, \
            TestClient(again, base_url=LOCAL, cookies=cookies["host"]) as host:
        assert "You play <b>Anna</b>" in anna.get("/g/castell.json").text
        assert _step(anna, "undo") == 303  # her seat still plays: no link opened again
        assert "Seat links" in host.get("/g/castell.json").text  # still the host's screen
        new = {"name": "second", "players": "Anna,Biel"}
        # the join token the host holds still acts: past the token's check (a stranger's 403)
        assert host.post("/new/castell", data=new).status_code != 403
        with TestClient(again, base_url=LOCAL) as stranger:
            assert stranger.post("/new/castell", data=new).status_code == 403
    # a new server of another folder is another server: its own secrets
    assert Access.lan(folder=folder / "..").token != access.token


def test_the_kept_secrets_are_the_owners_only(folder: Path) -> None:
    app, _ = _server(folder)
    seat_keys(app, "castell.json")  # the seats' secrets are made and kept
    kept = folder / KEPT_DIR
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o700
    files = sorted(p.name for p in kept.iterdir())
    assert files == ["castell.json", SERVER_SECRETS]
    for name in files:
        assert stat.S_IMODE(os.stat(kept / name).st_mode) == 0o600


def test_damaged_kept_secrets_give_new_ones(folder: Path) -> None:
    _, first = _server(folder)
    (folder / KEPT_DIR / SERVER_SECRETS).write_text('{"token": "<script>", "host_key": 1}')
    _, second = _server(folder)
    assert second.token not in (None, first.token, "<script>")
    _, third = _server(folder)  # and kept from then on
    assert (third.token, third.host_key) == (second.token, second.host_key)


def test_cookies_last_for_the_games_life(folder: Path) -> None:
    app, access = _server(folder)
    with TestClient(app, base_url=LOCAL) as phone:
        answers = [phone.get("/join", params={"token": access.token}, follow_redirects=False),
                   phone.get("/host", params={"key": access.host_key}, follow_redirects=False),
                   phone.get("/g/castell.json/seat", follow_redirects=False,
                             params={"key": seat_keys(app, "castell.json")["Biel"]})]
    set_cookies = [value for answer in answers
                   for value in answer.headers.get_list("set-cookie")]
    # the join token, the host's key (and token), the seat and the browser's own name
    assert len(set_cookies) == 5
    for cookie in set_cookies:
        parts = [part.strip().lower() for part in cookie.split(";")]
        assert f"max-age={COOKIE_MAX_AGE_S}" in parts and COOKIE_MAX_AGE_S >= 30 * 24 * 3600
        assert "httponly" in parts and "samesite=strict" in parts


def test_a_seat_open_on_two_devices_says_so(folder: Path) -> None:
    app, _ = _server(folder)
    anna = seat_keys(app, "castell.json")["Anna"]
    with TestClient(app, base_url=LOCAL) as phone, TestClient(app, base_url=LOCAL) as other, \
            TestClient(app, base_url=LOCAL) as guest:
        for device in (phone, other):  # Anna's link opened on two phones
            device.get("/g/castell.json/seat", params={"key": anna})
        names = [phone.cookies.get(DEVICE_COOKIE), other.cookies.get(DEVICE_COOKIE)]
        assert None not in names and names[0] != names[1]
        seats, seat = app.state.seats, Seat("Anna")
        with seats.connected("castell.json", seat, f"browser {names[0]}"), \
                seats.connected("castell.json", seat, f"browser {names[0]}"):  # two tabs
            page = guest.get("/g/castell.json").text
            assert 'data-seat="Anna">Anna: taken · connected</li>' in page  # one device
            with seats.connected("castell.json", seat, f"browser {names[1]}"):
                assert "open on 2 devices" in guest.get("/g/castell.json").text
        assert "open on" not in guest.get("/g/castell.json").text


def test_a_browser_without_its_own_cookie_is_known_by_its_address() -> None:
    from starlette.requests import Request

    def asking(cookie: str, address: str) -> Request:
        headers = [(b"cookie", cookie.encode())] if cookie else []
        return Request({"type": "http", "headers": headers, "client": (address, 5000)})

    assert device_of(asking(f"{DEVICE_COOKIE}=abc", "10.0.0.2")) == "browser abc"
    # a seat's cookie copied to another phone: that phone is another device
    assert device_of(asking("castell_seat=s", "10.0.0.3")) == "address 10.0.0.3"
    assert device_of(asking("", "10.0.0.3")) != device_of(asking("", "10.0.0.4"))
