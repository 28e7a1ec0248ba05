"""The handle of each kind of game file: the one place both games' packages are named, so that
neither imports the other (`service.handle.GameHandle` is what each gives). Each kind is an
entry of `HANDLES`: the module and class of its handle (imported when first asked for) and
how its file is told from the other kind's (`kind_of_data`)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from service.handle import GameHandle, Kind


@dataclass(frozen=True)
class HandleEntry:
    """A kind of game file: its handle class (`module:Class`) and whether a file's JSON data
    is a game of this kind."""

    handle: str
    recognises: Callable[[dict[str, Any]], bool]


HANDLES: dict[Kind, HandleEntry] = {
    "castell": HandleEntry("service.castell.game:Game", lambda data: "turn_order" in data),
    "combo": HandleEntry("service.combo.game:ComboGame",
                         lambda data: "cards" in data and "start" in data),
}


def handle_for(kind: Kind) -> Any:
    """The handle class of `kind` (its `load(path)` and `editing(path, wait=...)` make one)."""
    module, _, name = HANDLES[kind].handle.partition(":")
    return getattr(importlib.import_module(module), name)


def kind_of_data(data: object) -> Kind | None:
    """The kind of game a file's JSON data is (None: a game of no kind)."""
    if not isinstance(data, dict):
        return None
    return next((kind for kind, entry in HANDLES.items() if entry.recognises(data)), None)


def load_handle(path: Path, kind: Kind) -> GameHandle:
    """The game in `path`, verified once as it is read."""
    handle: GameHandle = handle_for(kind).load(path)
    return handle


def edit_handle(path: Path, kind: Kind, wait: float) -> AbstractContextManager[GameHandle]:
    """The game in `path` under its file's lock (waiting at most `wait` seconds)."""
    editing: AbstractContextManager[GameHandle] = handle_for(kind).editing(path, wait=wait)
    return editing
