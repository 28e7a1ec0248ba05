"""The region graph of a board (networkx): adjacency, routes, distances, turns needed."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from models.errors import ProvenNo, SpecError
from models.game.board import Board

if TYPE_CHECKING:
    import networkx as nx


def _networkx() -> Any:
    """networkx, imported on first use: it costs a tenth of a second, and only routes and
    adjacency need it, not every command that reads a board or a state."""
    import networkx

    return networkx

_GRAPHS: dict[int, tuple[Board, RegionGraph]] = {}


class NoRoute(ProvenNo):
    """The board has no route between two regions."""


@dataclass(frozen=True)
class Route:
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


def graph_of(board: Board) -> RegionGraph:
    """The board's region graph, built once per board (the referee asks for it per action)."""
    cached = _GRAPHS.get(id(board))
    if cached is None or cached[0] is not board:
        cached = (board, RegionGraph(board))
        _GRAPHS[id(board)] = cached
    return cached[1]


class RegionGraph:
    """Regions as nodes; borders and dotted links as edges (both count as adjacent)."""

    def __init__(self, board: Board):
        self.board = board

    @cached_property
    def graph(self) -> nx.Graph:
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
        return b in self.links.get(a, ())

    def neighbours(self, region: str) -> list[str]:
        self._known(region)
        return sorted(self.links[region])

    def distance(self, a: str, b: str) -> int:
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
        moves = self.distance(a, b)
        paths = sorted(tuple(p) for p in _networkx().all_shortest_paths(self.graph, a, b))
        return Route(a, b, moves, tuple(paths))

    def _known(self, region: str) -> None:
        if region not in self.links:
            raise SpecError(f"unknown region '{region}'", token=region)
