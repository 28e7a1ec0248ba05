"""Atomic writes: the target appears whole or not at all, and nothing is left behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.errors import SpecError
from models.files import atomic_open, write_atomic


def test_write_atomic_replaces_the_file(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    target.write_text("old\n")
    write_atomic(target, "new\n")
    assert target.read_text() == "new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_failure_inside_the_block_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    target.write_text("old\n")
    with pytest.raises(KeyboardInterrupt), atomic_open(target) as handle:
        handle.write("half a fi")
        raise KeyboardInterrupt
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_an_unwritable_folder_is_a_spec_error(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="cannot write"):
        write_atomic(tmp_path / "missing" / "game.json", "x")
