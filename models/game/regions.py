"""The region graph of a board (networkx): adjacency, routes, distances, turns needed."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import networkx as nx

from models.errors import ProvenNo, SpecError
from models.game.board import Board

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
        graph = nx.Graph()
        for region in self.board.regions:
            graph.add_node(region.id, name=region.name)
        graph.add_edges_from(self.board.borders, kind="border")
        graph.add_edges_from(self.board.dotted_links, kind="dotted")
        return graph

    def adjacent(self, a: str, b: str) -> bool:
        return bool(self.graph.has_edge(a, b))

    def neighbours(self, region: str) -> list[str]:
        self._known(region)
        return sorted(self.graph.neighbors(region))

    def distance(self, a: str, b: str) -> int:
        self._known(a)
        self._known(b)
        try:
            return int(nx.shortest_path_length(self.graph, a, b))
        except nx.NetworkXNoPath:
            raise NoRoute(f"no route from '{a}' to '{b}' on this board") from None

    def within(self, region: str, moves: int) -> set[str]:
        """Regions at most `moves` moves from `region`."""
        self._known(region)
        return set(nx.single_source_shortest_path_length(self.graph, region, cutoff=moves))

    def route(self, a: str, b: str) -> Route:
        moves = self.distance(a, b)
        paths = sorted(tuple(p) for p in nx.all_shortest_paths(self.graph, a, b))
        return Route(a, b, moves, tuple(paths))

    def _known(self, region: str) -> None:
        if region not in self.graph:
            raise SpecError(f"unknown region '{region}'", token=region)
