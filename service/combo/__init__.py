"""Castle Combo's use cases: the game handle (`ComboGame`, in `service.combo.game`), cards,
scores, a new game, the view of a game, arrangement, advice and tournaments, each a module of
this package. The handle is read from here on first use, so that a command that needs one use
case loads only that one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from service.combo.game import ComboGame

__all__ = ["ComboGame"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from service.combo import game

        return getattr(game, name)
    raise AttributeError(f"module 'service.combo' has no attribute '{name}'")
