"""Castell's use cases: the game handle (`Game`, in `service.castell.game`), towers, plans,
festivals, the views of a game, setup, maps, readings, puzzles and tournaments, each a module
of this package. The handle's names are read from here on first use, so that a command that
needs one use case loads only that one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from service.castell.game import REFEREE_TIME_LIMIT, RULES_WITH_STATE, Game

__all__ = ["REFEREE_TIME_LIMIT", "RULES_WITH_STATE", "Game"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from service.castell import game

        return getattr(game, name)
    raise AttributeError(f"module 'service.castell' has no attribute '{name}'")
