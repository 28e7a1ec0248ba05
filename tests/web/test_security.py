"""The server's private files (`web.security.write_private`): the secrets and the seats, each
owner-only and written whole or not at all."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from models.errors import CastellError
from web.security import write_private


def test_a_private_file_is_the_owners_only(tmp_path: Path) -> None:
    file = tmp_path / "kept" / "secret.json"
    write_private(file, "{}")
    write_private(file, '{"token": 1}')
    assert file.read_text() == '{"token": 1}'
    assert stat.S_IMODE(os.stat(file).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(file.parent).st_mode) == 0o700
    assert sorted(p.name for p in file.parent.iterdir()) == ["secret.json"]


def test_a_failed_private_write_leaves_nothing(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (issue 53's residue): the file was made (empty, 0600) before its text was
    written; a write that failed then (a full disk) left it empty, and a secret or seat read
    back from it was gone. Now a failed write leaves no file and no temporary one, and an
    old file as it was."""
    file = tmp_path / "kept" / "secret.json"

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises((CastellError, OSError)):
        write_private(file, '{"token": 1}')
    assert not any(file.parent.iterdir())
    monkeypatch.undo()
    write_private(file, "old")
    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises((CastellError, OSError)):
        write_private(file, "new")
    assert file.read_text() == "old" and [p.name for p in file.parent.iterdir()] == [file.name]
