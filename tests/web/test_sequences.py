"""Random legal step sequences through the API end where the same sequence through the game
handle ends (both games; undo among the steps)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from service.castell import Game
from service.combo import ComboGame
from tests.web.conftest import LOCAL, new_castell, new_combo
from web.app import create_app
from web.library import Library

# each pick: an index into the legal steps, or None for an undo
PICKS = st.lists(st.one_of(st.none(), st.integers(0, 1000)), min_size=1, max_size=6)


def _through_api(folder: Path, name: str, picks: list[int | None]) -> list[str]:
    """Play the picks through the API; the steps the API accepted, in order (an undo the
    referee refuses, like one that would cross a draw, is refused by both roads)."""
    sent = []
    with TestClient(create_app(Library(folder)), base_url=LOCAL) as client:
        for pick in picks:
            state = client.get(f"/api/g/{name}").json()
            if state["game_over"] or not state["legal"]:
                break
            step = "undo" if pick is None else state["legal"][pick % len(state["legal"])]
            answer = client.post(f"/g/{name}/step", data={"revision": state["revision"],
                                                          "step": step},
                                 follow_redirects=False)
            assert answer.status_code in (303, 422), answer.text
            if answer.status_code == 303:
                sent.append(step)
            else:
                assert step == "undo"
    return sent


def _assert_api_equals_handle(new_game: Callable[..., Path], load: Callable[[Path], Any],
                              picks: list[int | None], seed: int) -> None:
    """The steps the API accepted, replayed on a game handle from the same start, give the
    state the server wrote, at a revision per accepted step."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        start = new_game(folder, seed=seed)
        shutil.copy(start, folder / "start.txt")
        sent = _through_api(folder, start.name, picks)
        game = load(folder / "start.txt")
        for step in sent:
            game.step(step)
        served = load(start)
        assert served.state.model_dump(exclude={"revision"}) == \
            game.state.model_dump(exclude={"revision"})
        assert served.revision == len(sent)


@settings(max_examples=6, deadline=None)
@given(picks=PICKS, seed=st.integers(0, 50))
def test_castell_steps_through_the_api_equal_the_handle(picks: list[int | None],
                                                        seed: int) -> None:
    _assert_api_equals_handle(new_castell, Game.load, picks, seed)


@settings(max_examples=6, deadline=None)
@given(picks=PICKS, seed=st.integers(0, 50))
def test_combo_steps_through_the_api_equal_the_handle(picks: list[int | None],
                                                      seed: int) -> None:
    _assert_api_equals_handle(new_combo, ComboGame.load, picks, seed)
