"""Edits of nested JSON/TOML data, for tables of bad file values."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Path = tuple[str | int, ...]


def set_at(path: Path, value: object) -> Callable[[dict[str, Any]], None]:
    """An edit that sets the value at `path` (keys and list indices)."""

    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def drop_at(path: Path) -> Callable[[dict[str, Any]], None]:
    """An edit that deletes the entry at `path`."""

    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change
