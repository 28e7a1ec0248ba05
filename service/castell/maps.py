"""The map asked of a board: its regions and links, and the routes between two regions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from service.results import SCHEMA_VERSION
from service.results.game import BoardOutput, FestivalTown, Region, RouteOutput

if TYPE_CHECKING:
    from models.game import Board


def board_view(board: Board) -> BoardOutput:
    from models.game import graph_of

    graph = graph_of(board)
    return BoardOutput(
        schema_version=SCHEMA_VERSION, name=board.name, provisional=board.provisional,
        regions=[Region(id=r.id, name=r.name, x=r.x, y=r.y, neighbours=graph.neighbours(r.id),
                        festival_towns=[f.name for f in board.festival_locations
                                        if f.region == r.id])
                 for r in board.regions],
        borders=[(a, b) for a, b in board.borders],
        dotted_links=[(a, b) for a, b in board.dotted_links],
        festival_locations=[FestivalTown.model_validate(f.model_dump())
                            for f in board.festival_locations])


def route_view(board: Board, start: str, end: str) -> RouteOutput:
    """The shortest routes between two regions named as players write them."""
    from models.game import graph_of

    found = graph_of(board).route(board.find_region(start).id, board.find_region(end).id)
    return RouteOutput(schema_version=SCHEMA_VERSION, **{"from": found.start}, to=found.end,
                       moves=found.moves, paths=[list(p) for p in found.paths],
                       turns=found.turns, turns_with_special=found.turns_with_special)
