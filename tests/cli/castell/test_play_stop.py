"""A stop (Ctrl-C, SIGTERM) that lands just after `castell play` wrote its step says the step
is saved and exits 0 (issue 38: 7 of 60 such stops exited 130/143 though the step was written,
so the player could not tell it was recorded); one before the write is an interrupt as ever."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.edge import Terminated
from models.game import load_board, new_game
from service.castell import Game
from tests.cli.helpers import run


def _game(tmp_path: Path) -> Path:
    path = tmp_path / "g.json"
    path.write_text(new_game(load_board(), 2, seed=3).to_json(), encoding="utf-8")
    return path


@pytest.mark.parametrize("stop", [KeyboardInterrupt, Terminated])
def test_a_stop_after_the_write_says_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           stop: type[BaseException]) -> None:
    path = _game(tmp_path)
    save = Game.save

    def save_then_stop(self: Game, *args: object, **kwargs: object) -> None:
        save(self, *args, **kwargs)  # type: ignore[arg-type]
        raise stop

    monkeypatch.setattr(Game, "save", save_then_stop)
    result = run("play", str(path), "end")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.strip().splitlines() == [
        "saved: revision 1 (stopped after the step was written)"]
    assert Game.load(path).revision == 1


def test_a_stop_before_the_write_is_an_interrupt(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = _game(tmp_path)

    def stop(self: Game, *args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Game, "save", stop)
    result = run("play", str(path), "end")
    assert result.exit_code == 130
    assert Game.load(path).revision == 0


@pytest.mark.parametrize("stop", [KeyboardInterrupt, Terminated])
def test_combo_play_says_saved_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   stop: type[BaseException]) -> None:
    from models.combo import load_deck
    from models.combo import new_game as new_combo
    from models.combo.actions import format_action
    from service.combo import ComboGame

    path = tmp_path / "c.json"
    path.write_text(new_combo(load_deck(), ["Ana", "Ben"], 1).to_json(), encoding="utf-8")
    take = format_action(ComboGame.load(path).legal_actions()[0])
    save = ComboGame.save

    def save_then_stop(self: ComboGame, *args: object, **kwargs: object) -> None:
        save(self, *args, **kwargs)  # type: ignore[arg-type]
        raise stop

    monkeypatch.setattr(ComboGame, "save", save_then_stop)
    result = run("combo", "play", str(path), *take.split())
    assert result.exit_code == 0, result.stderr
    assert result.stderr.strip().splitlines() == [
        "saved: revision 1 (stopped after the steps were written)"]
    assert ComboGame.load(path).revision == 1
    # a stop before the write: an interrupt, nothing written
    monkeypatch.setattr(ComboGame, "save", lambda self, *a, **k: (_ for _ in ()).throw(stop()))
    before = format_action(ComboGame.load(path).legal_actions()[0])
    again = run("combo", "play", str(path), *before.split())
    assert again.exit_code in (130, 143) and ComboGame.load(path).revision == 1
