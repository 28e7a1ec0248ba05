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
