"""The server under hostile or clumsy requests (issue 38): only the host names it serves, the
security headers on every response, one game per new name, a damaged file never a 500."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from web.app import create_app
from web.library import Library
from web.security import Access, host_name


def test_a_rebound_host_is_refused_before_any_change(client: TestClient, folder: Path) -> None:
    """Regression: `curl -H 'Host: evil.example:8000' -H 'Origin: http://evil.example:8000'
    -d 'file=x.json&players=2' 127.0.0.1:8000/new/castell` answered 303 and wrote the game:
    a page on another site, its name rebound to 127.0.0.1, could drive the local server."""
    evil = {"host": "evil.example:8000", "origin": "http://evil.example:8000"}
    made = client.post("/new/castell", data={"file": "x.json", "players": "2"}, headers=evil,
                       follow_redirects=False)
    assert made.status_code == 400
    assert made.text.startswith("refused: this server answers to")
    assert not (folder / "x.json").exists()
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000",
                                  "LOCALHOST"])
def test_the_machines_own_names_are_served(client: TestClient, host: str) -> None:
    assert client.get("/", headers={"host": host}).status_code == 200


def test_the_lan_address_is_served_under_lan(folder: Path) -> None:
    access = Access.lan(frozenset({"127.0.0.1", "192.168.1.20"}))
    with TestClient(create_app(Library(folder), access), base_url="http://192.168.1.20:8000"
                    ) as lan:
        assert lan.get("/").status_code == 200
        assert lan.get("/", headers={"host": "192.168.1.99:8000"}).status_code == 400


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    for response in (client.get("/"), client.get("/no-such-page"),
                     client.get("/", headers={"host": "evil.example"})):
        assert "default-src 'self'" in response.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize(("header", "name"), [("a.b:80", "a.b"), ("a.b", "a.b"),
                                               ("[::1]:8000", "::1"), ("::1", "::1")])
def test_host_name(header: str, name: str) -> None:
    assert host_name(header) == name


def test_concurrent_new_games_of_one_name_make_one_game(folder: Path) -> None:
    """Regression (issue 38): 10 concurrent `POST /new/castell file=same.json` answered 303 to
    2-10 of them, each overwriting the last; now the first makes it and the rest get 409."""
    import threading

    import httpx

    from tests.web.conftest import LiveServer

    answers: list[int] = []
    with LiveServer(folder) as server:
        start = threading.Barrier(10)

        def make(n: int) -> None:
            start.wait()
            response = httpx.post(f"{server.url}/new/castell",
                                  data={"file": "same.json", "players": f"P{n},Q{n}"})
            answers.append(response.status_code)

        threads = [threading.Thread(target=make, args=(n,)) for n in range(10)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert sorted(answers) == [303] + [409] * 9
    assert not [p for p in folder.iterdir() if p.name.startswith(".same.json")]


def test_write_exclusive_refuses_a_taken_name(tmp_path: Path) -> None:
    from models.files import write_exclusive

    write_exclusive(tmp_path / "g.json", "first")
    with pytest.raises(FileExistsError):
        write_exclusive(tmp_path / "g.json", "second")
    assert (tmp_path / "g.json").read_text() == "first"
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


def test_a_deeply_nested_file_is_listed_as_no_game_never_a_500(client: TestClient,
                                                               folder: Path) -> None:
    """Regression (issue 38): `[[[...]]]` 10,000 deep saved as games/g.json made `GET /` and
    `/g/g.json` answer 500 (RecursionError in the listing and the revision check)."""
    (folder / "g.json").write_text("[" * 10_000 + "]" * 10_000, encoding="utf-8")
    listing = client.get("/")
    assert listing.status_code == 200
    page = client.get("/g/g.json")
    assert page.status_code in (400, 404)
    assert "\n" not in page.text.strip()
    assert client.get("/api/g/g.json").status_code in (400, 404)


@pytest.mark.parametrize("seed", ["2147483648", "-1", "seven"])
def test_bad_form_input_is_400_with_one_line(client: TestClient, folder: Path,
                                             seed: str) -> None:
    """Regression (issue 38): bad web input answered FastAPI's 422 JSON, where the docs say 400
    with one line (422 is a refused step); the web took seed 2^31, which the CLI refuses."""
    made = client.post("/new/castell", data={"file": "s.json", "players": "2", "seed": seed},
                       follow_redirects=False)
    assert made.status_code == 400
    assert made.text.startswith("bad input: seed:")
    assert "\n" not in made.text
    assert not (folder / "s.json").exists()


def test_under_lan_a_viewer_starts_no_solve(lan_client: tuple[TestClient, str]) -> None:
    """Regression (issue 38): with no token, `GET /g/m.json/best-tower?player=Anna` spent 10 s
    of solving; 45 of them at once made a player's step take 20 s. A viewer watches; a solve
    needs the join token."""
    client, token = lan_client
    asked = {"player": "anna"}
    assert client.get("/g/round3.json/best-tower", params=asked).status_code == 403
    client.cookies.set("castell_token", token)
    assert client.get("/g/round3.json/best-tower", params=asked).status_code == 200


def test_solves_past_the_bound_are_refused_at_once(client: TestClient) -> None:
    import threading

    solves = client.app.state.solves  # type: ignore[attr-defined]
    settings = client.app.state.settings  # type: ignore[attr-defined]
    go = threading.Event()
    held = [solves.submit(go.wait) for _ in range(settings.solve_slots + settings.solve_queue)]
    try:  # every slot and queued place taken
        busy = client.get("/g/round3.json/best-tower", params={"player": "anna"})
    finally:
        go.set()
    for future in held:
        future.result(60)
    assert busy.status_code == 503 and busy.text.startswith("busy:")
    assert client.get("/g/round3.json/best-tower", params={"player": "anna"}).status_code == 200


def test_a_lock_held_elsewhere_makes_a_step_busy_not_a_wait(client: TestClient,
                                                             folder: Path) -> None:
    """Regression (issue 38): a process holding g.json's lock for 25 s while steps arrived
    made every request wait (the steps filled the server's threads). A step waits a bound
    (`WebSettings.step_lock_wait`, in the event loop: `web.step_gate`), then is 503 "busy",
    and reads go on meanwhile."""
    from filelock import FileLock

    from service.store import lock_path

    state = client.get("/api/g/round3.json").json()
    lock = lock_path(folder / "round3.json")
    lock.parent.mkdir(exist_ok=True)
    held = FileLock(lock)
    with held:
        step = client.post("/g/round3.json/step", data={"step": state["legal"][0],
                                                       "revision": state["revision"]})
        assert step.status_code == 503 and "busy" in step.text
        assert client.get("/api/g/round3.json").status_code == 200


def test_under_lan_the_join_link_reaches_only_its_holders(
        lan_client: tuple[TestClient, str]) -> None:
    """Regression (issue 38, 37): under --lan the start page, open to anyone who reaches the
    port, showed the join link with its token and its QR code: a guest could read it and then
    change the game. The page shows them only to whoever holds the token already (the host,
    who opened the link printed in the terminal)."""
    client, token = lan_client
    guest = client.get("/")
    assert guest.status_code == 200
    assert token not in guest.text and "<svg" not in guest.text.split("join")[-1]
    client.get(f"/join?token={token}")
    joined = client.get("/")  # a guest who joined is still a guest
    assert token not in joined.text and "Join from a phone" not in joined.text
    access = client.app.state.access  # type: ignore[attr-defined]
    client.get(f"/host?key={access.host_key}")
    host = client.get("/")
    assert token in host.text and "Join from a phone" in host.text


@pytest.mark.parametrize("raw", [b"r\xe9.json", b"\xff\xfe.json", b"ok\x80.json"])
def test_a_file_name_that_is_not_utf8_is_listed_with_a_word(
        client: TestClient, folder: Path, raw: bytes) -> None:
    """Regression (issue 53): a file whose name's bytes are no UTF-8 text (`printf 'r\\xe9.json'`)
    made `GET /` answer 500 (UnicodeEncodeError drawing the page): it is listed, its odd bytes
    shown as U+FFFD, with why it is not served."""
    import os

    (folder / os.fsdecode(raw)).write_text("{}")
    page = client.get("/")
    assert page.status_code == 200
    shown = raw.decode("utf-8", "replace")
    assert shown in page.text and "its name is not UTF-8 text" in page.text
    assert client.get("/g/castell.json").status_code == 200


def test_the_join_link_compares_its_token_in_constant_time(
        lan_client: tuple[TestClient, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (issue 53, low): `/join` compared the token with `!=` where every other
    secret is compared in constant time (`web.security.same_secret`)."""
    import web.start
    from web.security import same_secret

    client, token = lan_client
    compared: list[str] = []

    def spy(given: str, secret: str) -> bool:
        compared.append(given)
        return same_secret(given, secret)

    monkeypatch.setattr(web.start, "same_secret", spy)
    assert client.get("/join", params={"token": "x" * len(token)},
                      follow_redirects=False).status_code == 403
    assert client.get("/join", params={"token": token}, follow_redirects=False).status_code == 303
    assert compared == ["x" * len(token), token]
