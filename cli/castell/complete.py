"""Shell completion from the board file: region ids (with their names), tile ids (with their
tiles) and the plan goals. A completion never fails: a bad board file completes nothing."""

from __future__ import annotations

from typing import Any

import typer


def _board(ctx: typer.Context) -> Any:
    from models.game import load_board  # deferred: only a TAB needs the board

    return load_board(ctx.params.get("board_file"))


def regions(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    try:
        found = _board(ctx).regions
    except Exception:
        return []
    key = incomplete.lower()
    return [(r.id, r.name) for r in found
            if r.id.startswith(key) or r.name.lower().startswith(key)]


def tiles(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    try:
        found = _board(ctx).performance_tiles
    except Exception:
        return []
    return [(t.id, t.tile) for t in found if t.id.lower().startswith(incomplete.lower())]


def goals(incomplete: str) -> list[tuple[str, str]]:
    """The registered goals (`planner.turns.GOALS`, through the plan use case), each with its
    one line."""
    from service.castell.plans import GOALS  # deferred: only a TAB needs the planner

    return [(name, goal.words.about) for name, goal in GOALS.items()
            if name.startswith(incomplete.lower())]
