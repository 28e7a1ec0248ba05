"""The stored route table (`models/game/data/routes.json`): `castell route` answers from it on
the default board without importing networkx, so it must be networkx's answer for that board's
graph, and it must never answer for another graph."""

from __future__ import annotations

import json

from models.game import RegionGraph, load_board
from models.game.regions import ROUTE_TABLE, route_table, stored_routes


def test_the_stored_table_is_networkx_on_the_default_board() -> None:
    board = load_board(None)
    assert json.loads(ROUTE_TABLE.read_text(encoding="utf-8")) == route_table(board), (
        "the default board's map changed: regenerate the table with python -c \"from "
        "models.game import load_board; from models.game.regions import write_route_table; "
        "write_route_table(load_board(None))\"")


def test_route_from_the_table_equals_the_computed_route() -> None:
    board = load_board(None)
    graph = RegionGraph(board)
    assert stored_routes(board) is not None
    for a in graph.links:
        for b in graph.links:
            assert graph.route(a, b) == graph.computed_route(a, b)


def test_another_graph_is_computed_not_read() -> None:
    board = load_board("examples/boards/islands.toml")
    assert stored_routes(board) is None
    graph = RegionGraph(board)
    for a in graph.links:
        for b in graph.links:
            assert graph.route(a, b) == graph.computed_route(a, b)
