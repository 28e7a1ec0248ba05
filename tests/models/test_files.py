"""Atomic writes: the target appears whole or not at all, and nothing is left behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.errors import SpecError
from models.files import atomic_open, parse_json, write_atomic, write_atomic_meanwhile


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


def test_a_failed_rename_leaves_the_old_file(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # the process dies between writing the temporary file and renaming it over the target
    target = tmp_path / "game.json"
    target.write_text("old\n")

    def broken(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("models.files.os.replace", broken)
    with pytest.raises(SpecError, match="No space left on device"):
        write_atomic(target, "new\n" * 1000)
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_device_is_written_not_replaced() -> None:
    write_atomic("/dev/null", "x")  # no temporary file renamed over the device
    assert Path("/dev/null").is_char_device()


def test_a_folder_is_not_a_target(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="folder"):
        write_atomic(tmp_path, "x")


def test_a_write_meanwhile_replaces_the_file_when_its_block_ends(tmp_path: Path) -> None:
    """The text goes to disk on a thread of its own while the block runs (a page's step draws
    its page meanwhile); the file is replaced only at the block's end."""
    target = tmp_path / "game.json"
    target.write_text("old\n")
    with write_atomic_meanwhile(target, "new\n", 0o640):
        assert target.read_text() == "old\n"
    assert target.read_text() == "new\n" and target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_failure_while_writing_meanwhile_leaves_the_old_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "game.json"
    target.write_text("old\n")
    with pytest.raises(KeyboardInterrupt), write_atomic_meanwhile(target, "new\n"):
        raise KeyboardInterrupt
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]

    def full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("models.files.os.fsync", full)  # the writer's own failure
    with pytest.raises(SpecError, match="No space left on device"), \
            write_atomic_meanwhile(target, "new\n"):
        pass
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_device_is_written_meanwhile_not_replaced() -> None:
    with write_atomic_meanwhile("/dev/null", "x"):
        pass
    assert Path("/dev/null").is_char_device()


def test_json_nested_too_deep_is_a_spec_error() -> None:
    with pytest.raises(SpecError, match="nested deeper"):
        parse_json("[" * 100_000, "f")
    with pytest.raises(SpecError, match="nested deeper"):
        parse_json("[" * 40 + "]" * 40, "f")
    assert parse_json("[" * 10 + "]" * 10, "f") == [[[[[[[[[[]]]]]]]]]]
