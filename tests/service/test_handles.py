"""Each kind of game file's handle (`service.handles`): the kind told from the file's data,
and the handle built on the one game interface (`GameHandle.in_play`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.handles import HANDLES, kind_of_data, load_handle

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    from service.combo.new import start_game, write_new

    write_new(start_game("Ana,Ben", seed=3), tmp_path / "combo.json")
    return {"castell": ROOT / "examples" / "game" / "round3.json",
            "combo": tmp_path / "combo.json"}


def test_each_file_is_told_by_its_data(files: dict[str, Path]) -> None:
    for kind, path in files.items():
        assert kind_of_data(json.loads(path.read_text(encoding="utf-8"))) == kind
    assert kind_of_data({"players": []}) is None and kind_of_data([1]) is None
    assert set(HANDLES) == set(files)


def test_the_handle_and_its_game_in_play_agree(files: dict[str, Path]) -> None:
    for kind, path in files.items():
        handle = load_handle(path, kind)  # type: ignore[arg-type]
        game = handle.in_play()
        assert game.kind == handle.kind == kind
        assert list(game.players) == handle.player_names()
        assert game.game_over == handle.game_over
        seat = game.to_move()
        assert seat is not None and game.players[seat] == handle.to_play()
        assert len(game.legal_steps(seat)) == len(handle.legal_steps())
