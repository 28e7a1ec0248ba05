"""The handle of each kind of game file: the one place both games' packages are named, so that
neither imports the other (`service.handle.GameHandle` is what each gives)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from service.handle import GameHandle, Kind


def handle_for(kind: Kind) -> Any:
    """The handle class of `kind` (its `load(path)` and `editing(path, wait=...)` make one)."""
    if kind == "castell":
        from service.castell.game import Game

        return Game
    from service.combo.game import ComboGame

    return ComboGame


def load_handle(path: Path, kind: Kind) -> GameHandle:
    """The game in `path`, verified once as it is read."""
    handle: GameHandle = handle_for(kind).load(path)
    return handle


def edit_handle(path: Path, kind: Kind, wait: float) -> AbstractContextManager[GameHandle]:
    """The game in `path` under its file's lock (waiting at most `wait` seconds)."""
    editing: AbstractContextManager[GameHandle] = handle_for(kind).editing(path, wait=wait)
    return editing
