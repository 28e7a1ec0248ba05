"""Fixtures for the web companion: a folder of games, the app, a test client, a live server on
127.0.0.1 (uvicorn in a thread on a free port)."""

from __future__ import annotations

import contextlib
import shutil
import socket
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# starlette asks for httpx2, which the package index here does not have
warnings.filterwarnings("ignore", message=".*httpx.*")

from fastapi.testclient import TestClient  # noqa: E402

from service.combo.new import start_game as start_combo  # noqa: E402
from service.combo.new import write_new  # noqa: E402
from web.app import create_app  # noqa: E402
from web.library import Library  # noqa: E402
from web.security import Access  # noqa: E402
from web.settings import WebSettings  # noqa: E402

# a browser test's waits (Playwright's default: 5 s) are hang guards, never a verdict on speed:
# with the machine at load 10 a live update once took longer than 5 s (bench_web.py measures
# how fast it is)
BROWSER_WAIT_MS = 30_000
# Debian's chromium, as the browser tests and the docs' screenshots drive it (never
# `playwright install`, which downloads)
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
with contextlib.suppress(ImportError):
    from playwright.sync_api import expect

    expect.set_options(timeout=BROWSER_WAIT_MS)

ROOT = Path(__file__).resolve().parents[2]
# the test client asks as a browser on this machine would (the server refuses other hosts)
LOCAL = "http://127.0.0.1"
ROUND3 = ROOT / "examples" / "game" / "round3.json"


def new_castell(folder: Path, name: str = "castell.json", players: str = "Anna,Biel",
                seed: int = 1) -> Path:
    from models.files import write_atomic
    from models.game import load_board
    from service.castell.setup import start_game

    names = players.split(",")
    state = start_game(load_board(None), "default", len(names), names, seed, None,
                       "standard", None)
    write_atomic(folder / name, state.to_json())
    return folder / name


def new_combo(folder: Path, name: str = "combo.json", players: str = "Ana,Ben",
              seed: int = 1) -> Path:
    write_new(start_combo(players, seed=seed), folder / name)
    return folder / name


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    games = tmp_path / "games"
    games.mkdir()
    shutil.copy(ROUND3, games / "round3.json")
    new_castell(games)
    new_combo(games)
    return games


@pytest.fixture
def client(folder: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Library(folder)), base_url=LOCAL) as test_client:
        yield test_client


@pytest.fixture
def client_with(folder: Path) -> Iterator[Callable[..., TestClient]]:
    """A test client of an app made with the settings given (`WebSettings` fields)."""
    with contextlib.ExitStack() as stack:
        def make(**settings: float) -> TestClient:
            app = create_app(Library(folder), settings=WebSettings(**settings))
            return stack.enter_context(TestClient(app, base_url=LOCAL))

        yield make


@pytest.fixture
def lan_client(folder: Path) -> Iterator[tuple[TestClient, str]]:
    access = Access.lan()
    assert access.token is not None
    join = f"{LOCAL}/join?token={access.token}"
    with TestClient(create_app(Library(folder), access, join), base_url=LOCAL) as test_client:
        yield test_client, access.token


def seat_keys(app: Any, name: str) -> dict[str | None, str]:
    """The secrets of the game `name`'s seats, as the host's page hands them out: by player's
    name (None: the scorekeeper's role, once chosen)."""
    from service.game_identity import identity

    game = identity(app.state.library.path(name))
    assert game is not None
    made = app.state.seats.secrets(name, game, list(game.players))
    return {seat.player: secret for seat, secret in made.items()}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class LiveServer:
    """uvicorn serving the app on 127.0.0.1 in a thread."""

    def __init__(self, folder: Path, access: Access | None = None, port: int | None = None):
        import uvicorn

        self.port = port or free_port()  # a port of its own, or a stopped server's (a restart)
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = create_app(Library(folder), access)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                log_level="warning", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(5)


@pytest.fixture
def live(folder: Path) -> Iterator[LiveServer]:
    with LiveServer(folder) as server:
        yield server
