"""A game the server serves, by its name in a URL: its file and its kind, or a 404."""

from __future__ import annotations

from pathlib import Path

from fastapi import HTTPException, Request

from service.handle import Kind
from web.library import Library, NotFound, kind_of


def game_file(request: Request, name: str) -> tuple[Path, Kind]:
    library: Library = request.app.state.library
    try:
        path = library.path(name)
    except NotFound:
        raise HTTPException(404, f"no game called '{name}' here") from None
    kind = kind_of(path)
    if kind is None:
        raise HTTPException(404, f"'{name}' is not a game file")
    return path, kind


__all__ = ["game_file"]
