"""The region graph of a board (networkx): adjacency, routes, distances, turns needed."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from models.errors import ProvenNo, SpecError

if TYPE_CHECKING:
    import networkx as nx

    from models.tower import Rules


def _networkx() -> Any:
    """networkx, imported on first use: it costs a tenth of a second, and only routes and
    adjacency need it, not every command that reads a board or a state."""
    import networkx

    return networkx


class _Place(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


class RegionMap(Protocol):
    """What the region graph reads of a board (`models.game.board.Board`, which keeps its graph
    and so builds on this module): its regions and both kinds of links."""

    @property
    def regions(self) -> Sequence[_Place]: ...

    @property
    def borders(self) -> Sequence[tuple[str, str]]: ...

    @property
    def dotted_links(self) -> Sequence[tuple[str, str]]: ...

    @property
    def region_ids(self) -> tuple[str, ...]: ...

    @property
    def graph(self) -> RegionGraph: ...


class NoRoute(ProvenNo):
    """The board has no route between two regions."""


@dataclass(frozen=True)
class Route:
    """A shortest route between two regions and the turns it takes."""
    start: str
    end: str
    moves: int
    paths: tuple[tuple[str, ...], ...]

    @property
    def turns(self) -> int:
        """Turns needed with one Move a turn."""
        return self.moves

    @property
    def turns_with_special(self) -> int:
        """Turns needed when every turn adds a special-action move to its Move."""
        return math.ceil(self.moves / 2)


def move_targets(board: RegionMap, rules: Rules, pawn: str | None, special: bool) -> list[str]:
    """Where a move takes a pawn standing in `pawn` (None: off the board, so anywhere): a
    Move to a neighbour; a special move (paid, or the free one of a special tile) too, or to
    any other region with the rules' `special_move` reading "any". The one place the referee,
    the turn planner's models and the opponents' reach take this from."""
    if pawn is None:
        return list(board.region_ids)
    if special and rules.special_move == "any":
        return [r for r in board.region_ids if r != pawn]
    return graph_of(board).neighbours(pawn)


def graph_of(board: RegionMap) -> RegionGraph:
    """The board's region graph, built once per board and kept by it (the referee asks for it
    per action)."""
    return board.graph


class RegionGraph:
    """Regions as nodes; borders and dotted links as edges (both count as adjacent)."""

    def __init__(self, board: RegionMap):
        self.board = board

    @cached_property
    def graph(self) -> nx.Graph:
        """The board's region graph as a networkx graph."""
        graph = _networkx().Graph()
        for region in self.board.regions:
            graph.add_node(region.id, name=region.name)
        graph.add_edges_from(self.board.borders, kind="border")
        graph.add_edges_from(self.board.dotted_links, kind="dotted")
        return graph

    @cached_property
    def links(self) -> dict[str, frozenset[str]]:
        """Each region's neighbours, without networkx (adjacency is all most commands need)."""
        found: dict[str, set[str]] = {region.id: set() for region in self.board.regions}
        for a, b in (*self.board.borders, *self.board.dotted_links):
            found[a].add(b)
            found[b].add(a)
        return {region: frozenset(near) for region, near in found.items()}

    def adjacent(self, a: str, b: str) -> bool:
        """Whether two regions are linked."""
        return b in self.links.get(a, ())

    def neighbours(self, region: str) -> list[str]:
        """The regions linked to a region."""
        self._known(region)
        return sorted(self.links[region])

    def distance(self, a: str, b: str) -> int:
        """The number of moves between two regions."""
        self._known(a)
        self._known(b)
        nx = _networkx()
        try:
            return int(nx.shortest_path_length(self.graph, a, b))
        except nx.NetworkXNoPath:
            raise NoRoute(f"no route from '{a}' to '{b}' on this board") from None

    def within(self, region: str, moves: int) -> set[str]:
        """Regions at most `moves` moves from `region`."""
        self._known(region)
        return set(_networkx().single_source_shortest_path_length(self.graph, region, cutoff=moves))

    def route(self, a: str, b: str) -> Route:
        """Every shortest route from a to b. On a board whose regions and links are the ones
        the stored table was computed for (the default board's), the table's answer: the same
        networkx computation, done once ahead (`write_route_table`), so that `castell route`
        need not import networkx (a tenth of a second) for a 7-region map."""
        stored = stored_routes(self.board)
        if stored is not None:
            self._known(a)
            self._known(b)
            found = stored[a].get(b)
            if found is None:
                raise NoRoute(f"no route from '{a}' to '{b}' on this board")
            paths = tuple(tuple(p) for p in found)
            return Route(a, b, len(paths[0]) - 1, paths)
        return self.computed_route(a, b)

    def computed_route(self, a: str, b: str) -> Route:
        """`route` computed by networkx now (never from the stored table)."""
        moves = self.distance(a, b)
        paths = sorted(tuple(p) for p in _networkx().all_shortest_paths(self.graph, a, b))
        return Route(a, b, moves, tuple(paths))

    def _known(self, region: str) -> None:
        if region not in self.links:
            raise SpecError(f"unknown region '{region}'", token=region)


# The routes between every two regions of the default board, computed by networkx
# (`route_table`); kept with the graph they were computed on, and used only for that graph.
ROUTE_TABLE = Path(__file__).parent / "data" / "routes.json"
_STORED: dict[str, Any] = {}


def _graph_of(board: RegionMap) -> dict[str, list[Any]]:
    """A board's graph as the table records it: region ids and links (both kinds), sorted."""
    links = sorted(sorted(pair) for pair in (*board.borders, *board.dotted_links))
    return {"regions": sorted(r.id for r in board.regions), "links": links}


def route_table(board: RegionMap) -> dict[str, Any]:
    """The graph of `board` and, for every two regions (the same one included), every
    shortest route, computed by networkx."""
    graph = RegionGraph(board)
    routes: dict[str, dict[str, list[list[str]]]] = {}
    for a in sorted(graph.links):
        routes[a] = {}
        for b in sorted(graph.links):
            try:
                found = graph.computed_route(a, b)
            except NoRoute:
                continue
            routes[a][b] = [list(path) for path in found.paths]
    return {**_graph_of(board), "routes": routes}


def write_route_table(board: RegionMap, path: Path = ROUTE_TABLE) -> None:
    """Store `route_table(board)` (run when the default board's map changes; a test says so:
    python -c "from models.game import load_board; from models.game.regions import
    write_route_table; write_route_table(load_board(None))")."""
    from models.files import write_atomic

    write_atomic(path, json.dumps(route_table(board), indent=1, ensure_ascii=False) + "\n")


def stored_routes(board: RegionMap) -> dict[str, dict[str, list[list[str]]]] | None:
    """The stored routes when they were computed on `board`'s very graph, else None."""
    if "table" not in _STORED:
        try:
            _STORED["table"] = json.loads(ROUTE_TABLE.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            _STORED["table"] = None
    table = _STORED["table"]
    if not isinstance(table, dict) or {k: table.get(k) for k in ("regions", "links")} != \
            _graph_of(board):
        return None
    routes: dict[str, dict[str, list[list[str]]]] = table["routes"]
    return routes
