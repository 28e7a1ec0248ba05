"""A page's step as one use case (`service.step.play_steps`): loaded, played and saved in one
call; what is made before the save sees the game as it will be saved while the file still holds
the old one; a stale revision or an unconfirmed reopening writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.handle import GameHandle
from service.handles import load_handle
from service.step import ReopenUnconfirmed, play_steps
from service.store import GameFile, StaleRevision
from tests.web.conftest import new_castell, new_combo


@pytest.mark.parametrize("kind", ["castell", "combo"])
def test_one_call_loads_plays_and_saves(tmp_path: Path, kind: str) -> None:
    path = new_castell(tmp_path) if kind == "castell" else new_combo(tmp_path)
    step = load_handle(path, kind).legal_steps()[0]  # type: ignore[arg-type]
    seen: list[tuple[int, int]] = []

    def before_save(game: GameHandle, text: str) -> str:
        seen.append((game.revision, GameFile(path).revision_on_disk()))
        assert f'"revision": {game.revision}' in text  # the text about to be written
        return "drawn"

    game, made = play_steps(path, kind, [step], 0, wait=1,  # type: ignore[arg-type]
                            before_save=before_save)
    assert made == "drawn" and seen == [(1, 0)]  # shown as saved, not yet written
    assert game.revision == 1 == GameFile(path).revision_on_disk()
    assert load_handle(path, kind).history_lines() == game.history_lines()  # type: ignore


def test_a_stale_revision_writes_nothing(tmp_path: Path) -> None:
    path = new_castell(tmp_path)
    before = path.read_text()
    with pytest.raises(StaleRevision):
        play_steps(path, "castell", ["end"], 3, wait=1)
    assert path.read_text() == before


def test_an_undo_that_reopens_a_finished_game_asks_first(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path = new_castell(tmp_path)
    play_steps(path, "castell", ["end"], 0, wait=1)
    from service.castell import Game

    monkeypatch.setattr(Game, "game_over", property(lambda self: True))
    before = path.read_text()
    with pytest.raises(ReopenUnconfirmed):
        play_steps(path, "castell", ["undo"], 1, wait=1)
    assert path.read_text() == before
    game, _ = play_steps(path, "castell", ["undo"], 1, wait=1, reopen=True)
    assert game.revision == 2
