"""`castell serve` bounds what a client may hold (issue 53: 400 connections sending their heads
and bodies a byte at a time were all kept): the uvicorn settings it runs with, and on a real
loopback server, a head past the bound refused at once (no timing: bytes, not seconds)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from cli.main import app as castell
from cli.serve import LIMITS, server_config

HANG = 60.0  # seconds: a hang guard, never a verdict on speed


def test_serve_runs_uvicorn_within_the_limits(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Any) -> None:
    seen: list[uvicorn.Config] = []

    def run(server: uvicorn.Server, sockets: Any = None) -> None:
        seen.append(server.config)

    monkeypatch.setattr(uvicorn.Server, "run", run)
    result = CliRunner().invoke(castell, ["serve", "--dir", str(tmp_path), "--port", "8124"])
    assert result.exit_code == 0, result.output
    config = seen[0]
    assert config.http == "h11"  # the parser the head bound applies to
    assert config.h11_max_incomplete_event_size == 16 * 1024
    assert config.timeout_keep_alive == 5
    assert config.limit_concurrency == 256
    assert config.backlog == 128
    assert config.ws == "none"
    assert config.timeout_graceful_shutdown == 1
    assert (config.host, config.port) == ("127.0.0.1", 8124)
    assert set(LIMITS) <= set(vars(config))  # every limit a setting uvicorn has


async def _hello(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"hello"})


@pytest.fixture()
def server() -> Iterator[int]:
    """A loopback server with serve's settings (a free port), stopped after the test."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    running = uvicorn.Server(server_config(_hello, "127.0.0.1", port))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + HANG
    while not running.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield port
    running.should_exit = True
    thread.join(HANG)


def _ask(port: int, head: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=HANG) as connection:
        connection.sendall(head)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
            if b"\r\n\r\n" in answer and (b"hello" in answer or b"Invalid" in answer):
                break
        return answer


def test_a_head_past_the_bound_is_refused_and_one_within_it_answered(server: int) -> None:
    small = b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    assert _ask(server, small).startswith(b"HTTP/1.1 200")
    # a head still unfinished past 16 KiB (as a slow client's grows): refused, not kept
    unfinished = b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Pad: " + b"a" * (20 * 1024)
    assert _ask(server, unfinished).startswith(b"HTTP/1.1 400")
