"""The region graph against an independent breadth-first search over borders + dotted links."""

from __future__ import annotations

import itertools
import tomllib
from collections import deque
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.errors import SpecError
from models.game.board import Board, board_from_dict, default_board_path, load_board
from models.game.regions import NoRoute, RegionGraph, Route

DEFAULT = load_board()


def raw_board() -> dict[str, Any]:
    return tomllib.loads(default_board_path().read_text(encoding="utf-8"))


def board_with(borders: list[tuple[str, str]], dotted: list[tuple[str, str]]) -> Board:
    """The default board with these links, not validated: a board file whose map is cut is
    refused (test below), but the graph must still answer for any links it is given."""
    return DEFAULT.model_copy(update={"borders": borders, "dotted_links": dotted})


def test_a_board_file_whose_map_is_cut_is_refused() -> None:
    data = raw_board()
    data["borders"] = [list(p) for p in DEFAULT.borders if "terres-de-lebre" not in p]
    with pytest.raises(SpecError, match=r"no route reaches terres-de-lebre.*connected"):
        board_from_dict(data)
    data["dotted_links"] = [["terres-de-lebre", "girona"]]  # a dotted link joins it again
    assert board_from_dict(data).region_ids == DEFAULT.region_ids


# --- the reference: plain BFS written here ------------------------------------------------------


def adjacency(board: Board) -> dict[str, set[str]]:
    adj: dict[str, set[str]] = {r: set() for r in board.region_ids}
    for a, b in [*board.borders, *board.dotted_links]:
        adj[a].add(b)
        adj[b].add(a)
    return adj


def bfs_distances(adj: dict[str, set[str]], start: str) -> dict[str, int]:
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in sorted(adj[here]):
            if there not in dist:
                dist[there] = dist[here] + 1
                queue.append(there)
    return dist


def bfs_shortest_paths(adj: dict[str, set[str]], start: str, end: str
                       ) -> set[tuple[str, ...]] | None:
    """Every shortest path start..end: walk only edges that go one BFS layer further out."""
    dist = bfs_distances(adj, start)
    if end not in dist:
        return None
    paths: set[tuple[str, ...]] = set()

    def walk(path: tuple[str, ...]) -> None:
        last = path[-1]
        if last == end:
            paths.add(path)
            return
        for there in adj[last]:
            if dist.get(there) == dist[last] + 1 and dist[there] <= dist[end]:
                walk((*path, there))

    walk((start,))
    return {p for p in paths if len(p) - 1 == dist[end]}


def assert_graph_agrees(board: Board) -> None:
    graph = RegionGraph(board)
    adj = adjacency(board)
    for a in board.region_ids:
        assert graph.neighbours(a) == sorted(adj[a])
        dist = bfs_distances(adj, a)
        for moves in range(4):
            assert graph.within(a, moves) == {r for r, d in dist.items() if d <= moves}
        for b in board.region_ids:
            assert graph.adjacent(a, b) == (b in adj[a])
            expected = bfs_shortest_paths(adj, a, b)
            if expected is None:
                with pytest.raises(NoRoute, match="no route"):
                    graph.route(a, b)
                with pytest.raises(NoRoute, match="no route"):
                    graph.distance(a, b)
                continue
            route = graph.route(a, b)
            assert (route.start, route.end) == (a, b)
            assert route.moves == dist[b] == graph.distance(a, b)
            assert set(route.paths) == expected
            assert len(route.paths) == len(expected)  # no path listed twice
            for path in route.paths:
                assert path[0] == a and path[-1] == b
                assert all(graph.adjacent(x, y) for x, y in itertools.pairwise(path))
            # one Move a turn; with a special-action move added, two moves a turn
            assert route.turns == dist[b]
            assert 2 * route.turns_with_special >= dist[b]
            assert 2 * (route.turns_with_special - 1) < dist[b]


# --- the default board --------------------------------------------------------------------------


def test_default_board_routes_agree_with_bfs() -> None:
    assert_graph_agrees(DEFAULT)


def test_default_board_is_connected_and_has_no_dotted_links() -> None:
    adj = adjacency(DEFAULT)
    assert DEFAULT.dotted_links == []
    assert set(bfs_distances(adj, "lleida")) == set(DEFAULT.region_ids)


def test_hand_checked_routes_on_the_default_board() -> None:
    graph = RegionGraph(DEFAULT)
    # Terres de l'Ebre borders only Lleida and Camp de Tarragona; Girona borders Alt Pirineu,
    # Comarques Centrals and Barcelona. So 3 moves, by four routes (read off the border list):
    route = graph.route("terres-de-lebre", "girona")
    assert route.moves == 3
    assert set(route.paths) == {
        ("terres-de-lebre", "lleida", "alt-pirineu-aran", "girona"),
        ("terres-de-lebre", "lleida", "comarques-centrals", "girona"),
        ("terres-de-lebre", "camp-de-tarragona", "comarques-centrals", "girona"),
        ("terres-de-lebre", "camp-de-tarragona", "barcelona", "girona"),
    }
    assert route.turns == 3
    assert route.turns_with_special == 2  # move + special move, then one more move
    # Alt Pirineu to Barcelona: via Comarques Centrals or Girona, 2 moves, 1 turn with special.
    route = graph.route("alt-pirineu-aran", "barcelona")
    assert (route.moves, route.turns, route.turns_with_special) == (2, 2, 1)
    assert len(route.paths) == 2
    # Staying put is a route of no moves.
    assert graph.route("girona", "girona") == Route("girona", "girona", 0, (("girona",),))
    assert graph.route("girona", "girona").turns_with_special == 0


def test_unknown_region_is_a_spec_error() -> None:
    graph = RegionGraph(DEFAULT)
    with pytest.raises(SpecError, match="valencia"):
        graph.route("lleida", "valencia")
    with pytest.raises(SpecError, match="valencia"):
        graph.neighbours("valencia")
    with pytest.raises(SpecError, match="valencia"):
        graph.within("valencia", 2)


# --- custom boards with dotted links ------------------------------------------------------------


def test_a_dotted_link_counts_as_adjacent() -> None:
    board = board_with(list(DEFAULT.borders), [("terres-de-lebre", "barcelona")])
    graph = RegionGraph(board)
    assert graph.adjacent("terres-de-lebre", "barcelona")
    assert graph.adjacent("barcelona", "terres-de-lebre")
    assert graph.graph.edges["terres-de-lebre", "barcelona"]["kind"] == "dotted"
    # Of Terres de l'Ebre's neighbours (Lleida, Camp de Tarragona, now Barcelona) only
    # Barcelona borders Girona: one 2-move route.
    route = graph.route("terres-de-lebre", "girona")
    assert route.moves == 2
    assert route.paths == (("terres-de-lebre", "barcelona", "girona"),)
    assert route.turns_with_special == 1
    assert_graph_agrees(board)


def test_a_region_joined_only_by_a_dotted_link() -> None:
    borders = [(a, b) for a, b in DEFAULT.borders if "terres-de-lebre" not in (a, b)]
    board = board_with(borders, [("terres-de-lebre", "girona")])
    graph = RegionGraph(board)
    assert graph.neighbours("terres-de-lebre") == ["girona"]
    assert_graph_agrees(board)


def test_a_cut_off_region_has_no_route() -> None:
    borders = [(a, b) for a, b in DEFAULT.borders if "terres-de-lebre" not in (a, b)]
    board = board_with(borders, [])
    graph = RegionGraph(board)
    assert graph.neighbours("terres-de-lebre") == []
    with pytest.raises(NoRoute, match="no route"):
        graph.route("lleida", "terres-de-lebre")
    assert_graph_agrees(board)


PAIRS = list(itertools.combinations(DEFAULT.region_ids, 2))
edge_lists = st.lists(st.sampled_from(PAIRS), max_size=len(PAIRS), unique=True).flatmap(
    lambda pairs: st.permutations(pairs).map(
        lambda ps: [p if i % 2 else (p[1], p[0]) for i, p in enumerate(ps)]))


@settings(max_examples=40)
@given(borders=edge_lists, dotted=st.lists(st.sampled_from(PAIRS), max_size=4, unique=True))
def test_random_boards_agree_with_bfs(borders: list[tuple[str, str]],
                                      dotted: list[tuple[str, str]]) -> None:
    assert_graph_agrees(board_with(borders, dotted))


def test_move_targets_follow_the_special_move_reading() -> None:
    from dataclasses import replace

    from models.game.regions import graph_of, move_targets
    from models.tower import STANDARD

    board = load_board()
    anywhere = replace(STANDARD, special_move="any")
    near = graph_of(board).neighbours("girona")
    assert move_targets(board, STANDARD, "girona", special=False) == near
    assert move_targets(board, STANDARD, "girona", special=True) == near
    assert move_targets(board, anywhere, "girona", special=False) == near  # a Move stays near
    far = move_targets(board, anywhere, "girona", special=True)
    assert set(far) == set(board.region_ids) - {"girona"} and set(far) > set(near)
    for rules in (STANDARD, anywhere):  # off the board: the first move goes anywhere
        assert move_targets(board, rules, None, special=False) == list(board.region_ids)
