"""An undo right after a step this process saved takes the verified game the step was made on,
not a replay of the whole history; what it gives is what the replay gives."""

from __future__ import annotations

from pathlib import Path

from models.game import load_board
from service.castell import Game
from service.castell.setup import start_game
from service.verified import VERIFIED


def _game(tmp_path: Path) -> Path:
    state = start_game(load_board(None), "default", 3, ["Anna", "Biel", "Carla"], 1, None,
                       "standard", None)
    path = tmp_path / "g.json"
    path.write_text(state.to_json(), encoding="utf-8")
    return path


def _step(path: Path, step: str) -> None:
    with Game.editing(path) as game:
        game.step(step)
        game.save()


def test_an_undo_after_a_step_is_the_game_before_it(tmp_path: Path,
                                                    monkeypatch) -> None:
    path = _game(tmp_path)
    _step(path, "end")
    before = Game.load(path).state
    move = next(s for s in Game.load(path).legal_steps() if s.startswith("move "))
    _step(path, move)
    import models.game.recording as recording

    replays: list[int] = []
    real = recording.replay
    monkeypatch.setattr(recording, "replay", lambda *a, **k: replays.append(1) or real(*a, **k))
    _step(path, "undo")
    assert replays == []  # no replay: the kept game
    after = Game.load(path).state
    assert after.model_copy(update={"revision": 0}) == before.model_copy(update={"revision": 0})
    # a second undo has no kept game of its own: it replays, and gives the same as a replay
    _step(path, "undo")
    assert replays
    VERIFIED.clear()
    replayed = Game.load(path).state
    assert replayed.history is None or len(replayed.history.entries) == 0
