"""Load: 20 concurrent clients sending steps and undos at one game, and a terminal `castell
play` loop on the same file: no lost or duplicated step, no 5xx (bounded in count and time;
benchmarks/bench_web.py reports the figures at the full 20 x 100)."""

from __future__ import annotations

from service.castell import Game
from tests.web.conftest import LiveServer
from tests.web.load import run_load

CLIENTS, REQUESTS, TERMINAL = 20, 12, 4  # 20 x 100 (3 minutes here) is bench_web.py's


def test_many_clients_lose_no_step(folder) -> None:
    path = folder / "castell.json"
    with LiveServer(folder) as server:
        web, term, wall = run_load(server.url, path, CLIENTS, REQUESTS, TERMINAL)
    # 503: a step that waited `WebSettings.step_lock_wait` for the others (a loaded machine) is
    # refused as busy, not written: a refusal, never a lost step; any other 5xx is a failure
    assert not [s for s in web.statuses if s >= 500 and s != 503], web.statuses
    assert set(web.statuses) <= {303, 409, 422, 503}, web.statuses
    assert sum(web.statuses.values()) == CLIENTS * REQUESTS
    game = Game.load(path)
    accepted = web.steps + web.undos + term.steps + term.undos
    assert game.revision == accepted  # every accepted step written once
    history = game.state.history.entries if game.state.history else []
    assert len(history) == web.steps + term.steps - web.undos - term.undos
    print(f"\nload: {CLIENTS} clients x {REQUESTS}: {web.statuses}, wall {wall:.1f} s, "
          f"step p50 {web.p50 * 1000:.0f} ms, p95 {web.percentile(0.95) * 1000:.0f} ms")
