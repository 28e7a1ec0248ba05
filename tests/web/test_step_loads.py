"""Speed at any point in the game (issue 37), counted rather than timed: a step and the live
updates of the pages open on it read the game as often at round 10 as at round 1 (once: the
step's own load; the screens get the fragment it drew), and replay its history never (it was
verified once, when first read)."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from service.castell import Game
from service.verified import VERIFIED
from tests.web.conftest import new_castell
from tests.web.load import play_to_round

PAGES = 3  # the pages open on the game, each re-fetching its fragment after every step


def _per_step(client: TestClient, name: str, steps: int = 10) -> tuple[float, float]:
    """Reads and replays per step: the step (htmx, its fragment drawn) and every page's
    live re-fetch; moves and their undos (no solver)."""
    client.get(f"/g/{name}")  # the first read verifies the file
    reads, replays = VERIFIED.reads, VERIFIED.verifications
    for index in range(steps):
        state = client.get(f"/api/g/{name}").json()
        step = "undo" if index % 2 else next(s for s in state["legal"] if s.startswith("move "))
        answer = client.post(f"/g/{name}/step", data={"revision": state["revision"],
                                                      "step": step},
                             headers={"hx-request": "true"})
        assert answer.status_code == 200, answer.text
        for _ in range(PAGES):
            assert client.get(f"/g/{name}/game").status_code == 200
    # the API reads between the steps stand for the table's scripts: not counted
    return ((VERIFIED.reads - reads - steps) / steps,
            (VERIFIED.verifications - replays) / steps)


def test_a_step_reads_the_game_as_often_at_round_10_as_at_round_1(
        client: TestClient, folder: Path) -> None:
    late = new_castell(folder, "late.json", players="Anna,Biel,Carla")
    play_to_round(late, 10)
    assert len(Game.load(late).history_lines()) > 40
    new_castell(folder, "early.json", players="Anna,Biel,Carla")
    reads_early, replays_early = _per_step(client, "early.json")
    reads_late, replays_late = _per_step(client, "late.json")
    assert replays_early == replays_late == 0  # verified once, on the first read
    assert reads_late / reads_early == 1
    assert reads_early == 1  # the step's one load: every screen's fragment drawn from it


def test_what_the_server_loaded_at_its_start_is_left_out_of_full_collections(
        folder: Path) -> None:
    """The collector's full passes walked every module, template and board object again, a
    70-100 ms pause inside whichever step it fell in: they are frozen while the server runs,
    and given back when it stops."""
    import gc

    from tests.web.conftest import LOCAL
    from web.app import create_app
    from web.library import Library

    assert gc.get_freeze_count() == 0
    with TestClient(create_app(Library(folder)), base_url=LOCAL) as client:
        assert client.get("/").status_code == 200
        assert gc.get_freeze_count() > 10_000
    assert gc.get_freeze_count() == 0
