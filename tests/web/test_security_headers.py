"""The server answers only to the host names it serves, and every response carries headers
that keep its pages out of other sites' frames and scripts (issue 38)."""

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
