"""models.files: only regular files are read (a FIFO would block forever), and a written file
keeps the mode of the file it replaces, or gets the umask's for a new one (not mkstemp's 0600)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from models.errors import SpecError
from models.files import read_text, write_atomic


def test_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(SpecError, match="FIFO"):
        read_text(fifo)


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="folder"):
        read_text(tmp_path)


def test_a_rewritten_file_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("{}")
    path.chmod(0o640)
    write_atomic(path, "{}\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_new_file_follows_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "new.json", "{}\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o640
