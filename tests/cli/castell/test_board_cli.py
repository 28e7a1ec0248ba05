"""`castell board` and `castell route`: JSON shape, the SVG map, custom boards, clean errors.

Routes are checked against a breadth-first search written here from the board's own borders and
dotted links (rules page section 5: both count as adjacent), not against the project's graph code.
"""

from __future__ import annotations

import copy
import json
import math
import re
import tomllib
import xml.etree.ElementTree as ET
from collections import deque
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from tests.cli.helpers import assert_bad_input, no_crash, one_json, run

REPO = Path(__file__).resolve().parents[3]
ISLANDS = str(REPO / "examples" / "boards" / "islands.toml")
DEFAULT_TOML = REPO / "models" / "game" / "data" / "board.toml"
SVG = "{http://www.w3.org/2000/svg}"

BOARD_KEYS = {"name", "provisional", "regions", "borders", "dotted_links", "festival_locations"}
REGION_KEYS = {"id", "name", "x", "y", "neighbours", "festival_towns"}
ROUTE_KEYS = {"from", "to", "moves", "paths", "turns", "turns_with_special"}


def _raw(path: Path | str) -> dict[str, Any]:
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def _board_json(*extra: str) -> dict[str, Any]:
    result = run("board", *extra, "--json")
    assert result.exit_code == 0, result.stderr
    return one_json(result)


def _adjacency(borders: list[list[str]], dotted: list[list[str]]) -> dict[str, set[str]]:
    near: dict[str, set[str]] = {}
    for a, b in [*borders, *dotted]:
        near.setdefault(a, set()).add(b)
        near.setdefault(b, set()).add(a)
    return near


def _bfs_routes(near: dict[str, set[str]], start: str, end: str) -> tuple[int, list[list[str]]]:
    """Distance and every shortest path from start to end (plain BFS + back-tracking)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in near.get(here, ()):
            if there not in dist:
                dist[there] = dist[here] + 1
                queue.append(there)
    assert end in dist, f"{end} unreachable from {start}"

    def back(node: str) -> list[list[str]]:
        if node == start:
            return [[start]]
        return [[*p, node] for prev in near[node] if dist.get(prev) == dist[node] - 1
                for p in back(prev)]

    return dist[end], sorted(back(end))


# --- castell board: human output ---------------------------------------------------------------

def test_board_human_lists_every_region() -> None:
    result = run("board")
    no_crash(result)
    assert result.exit_code == 0
    assert result.stderr == ""
    raw = _raw(DEFAULT_TOML)
    for region in raw["regions"]:
        assert region["name"] in result.stdout, region["name"]
        assert region["id"] in result.stdout, region["id"]
    for town in raw["festival_locations"]:
        assert town["name"] in result.stdout


def test_board_human_islands_shows_the_dotted_link() -> None:
    result = run("board", "--board", ISLANDS)
    no_crash(result)
    assert result.exit_code == 0
    out = result.stdout
    assert "Islands (example)" in out
    for name in ("Costa", "Muntanya", "Plana", "Illa"):
        assert name in out
    # costa-illa is the only dotted link: both ends show it, and nothing else is marked dotted
    assert "Illa (dotted)" in out
    assert "Costa (dotted)" in out
    assert out.count("(dotted)") == 2


# --- castell board --json ----------------------------------------------------------------------

@pytest.mark.parametrize("board_args", [[], ["--board", ISLANDS]], ids=["default", "islands"])
def test_board_json_shape_and_neighbours(board_args: list[str]) -> None:
    data = _board_json(*board_args)
    raw = _raw(board_args[1] if board_args else DEFAULT_TOML)
    assert set(data) == BOARD_KEYS
    assert data["name"] == raw["name"]
    assert data["provisional"] == raw.get("provisional", [])
    assert data["borders"] == raw["borders"]
    assert data["dotted_links"] == raw.get("dotted_links", [])
    assert data["festival_locations"] == raw["festival_locations"]

    regions = data["regions"]
    assert [r["id"] for r in regions] == [r["id"] for r in raw["regions"]]
    near = _adjacency(data["borders"], data["dotted_links"])
    for region, source in zip(regions, raw["regions"], strict=True):
        assert set(region) == REGION_KEYS
        assert region["name"] == source["name"]
        assert region["x"] == source["x"] and region["y"] == source["y"]
        assert isinstance(region["neighbours"], list)
        assert len(region["neighbours"]) == len(set(region["neighbours"]))
        assert set(region["neighbours"]) == near.get(region["id"], set())
        towns = [f["name"] for f in raw["festival_locations"] if f["region"] == region["id"]]
        assert region["festival_towns"] == towns
    # adjacency is symmetric
    by_id = {r["id"]: set(r["neighbours"]) for r in regions}
    for a, others in by_id.items():
        for b in others:
            assert a in by_id[b]


def test_board_json_islands_dotted_link_is_adjacent() -> None:
    data = _board_json("--board", ISLANDS)
    assert data["dotted_links"] == [["costa", "illa"]]
    by_id = {r["id"]: r for r in data["regions"]}
    assert by_id["illa"]["neighbours"] == ["costa"]
    assert "illa" in by_id["costa"]["neighbours"]
    assert by_id["illa"]["festival_towns"] == ["Far"]


# --- castell board --svg -----------------------------------------------------------------------

def _segment(element: ET.Element) -> tuple[tuple[float, float], tuple[float, float]]:
    if element.tag == SVG + "line":
        return ((float(element.get("x1", 0)), float(element.get("y1", 0))),
                (float(element.get("x2", 0)), float(element.get("y2", 0))))
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", element.get("d", ""))]
    assert len(numbers) == 4, element.get("d")
    return (numbers[0], numbers[1]), (numbers[2], numbers[3])


def _svg_checks(path: Path, board: dict[str, Any]) -> None:
    root = ET.parse(path).getroot()  # parses as XML
    assert root.tag == SVG + "svg"
    ids = [r["id"] for r in board["regions"]]
    groups = [g for g in root.iter(SVG + "g") if g.get("id") in ids]
    assert sorted(str(g.get("id")) for g in groups) == sorted(ids)  # one group per region
    centre: dict[tuple[float, float], str] = {}
    for group in groups:
        circle = group.find(SVG + "circle")
        assert circle is not None
        centre[(float(circle.get("cx", 0)), float(circle.get("cy", 0)))] = str(group.get("id"))
        # the region's name is written in its group
        name = next(r["name"] for r in board["regions"] if r["id"] == group.get("id"))
        assert name in "".join(group.itertext())
    assert len(centre) == len(ids)

    lines = [e for e in root.iter() if e.tag in (SVG + "line", SVG + "path")]
    assert len(lines) == len(board["borders"]) + len(board["dotted_links"])
    solid: list[frozenset[str]] = []
    dashed: list[frozenset[str]] = []
    for line in lines:
        a, b = _segment(line)
        pair = frozenset((centre[a], centre[b]))  # each line joins two region centres
        (dashed if line.get("stroke-dasharray") else solid).append(pair)
    assert sorted(map(sorted, solid)) == sorted(map(sorted, board["borders"]))
    assert sorted(map(sorted, dashed)) == sorted(map(sorted, board["dotted_links"]))


@pytest.mark.parametrize("board_args", [[], ["--board", ISLANDS]], ids=["default", "islands"])
def test_board_svg_file(tmp_path: Path, board_args: list[str]) -> None:
    target = tmp_path / "map.svg"
    result = run("board", *board_args, "--svg", str(target))
    no_crash(result)
    assert result.exit_code == 0
    assert target.is_file()
    assert "map written to" in result.stderr  # diagnostics go to stderr
    _svg_checks(target, _board_json(*board_args))


def test_board_svg_with_json_prints_only_the_json(tmp_path: Path) -> None:
    target = tmp_path / "islands.svg"
    result = run("board", "--board", ISLANDS, "--svg", str(target), "--json")
    assert result.exit_code == 0
    data = one_json(result)
    assert data["dotted_links"] == [["costa", "illa"]]
    _svg_checks(target, data)
    dashed = [e for e in ET.parse(target).getroot().iter() if e.get("stroke-dasharray")]
    assert len(dashed) == 1


def test_board_svg_unwritable_is_bad_input(tmp_path: Path) -> None:
    target = tmp_path / "no-such-dir" / "map.svg"
    assert_bad_input(run("board", "--svg", str(target)), "cannot write", "map.svg")


# --- bad board files ---------------------------------------------------------------------------

def _write_variant(tmp_path: Path, name: str, change: Any) -> str:
    data = copy.deepcopy(_raw(ISLANDS))
    change(data)
    path = tmp_path / name
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return str(path)


BAD_BOARDS: list[tuple[str, Any, tuple[str, ...]]] = [
    ("unknown-border", lambda d: d["borders"].__setitem__(1, ["costa", "atlantis"]),
     ("borders.1", "atlantis")),
    ("unknown-dotted", lambda d: d["dotted_links"].__setitem__(0, ["costa", "nowhere"]),
     ("dotted_links.0", "nowhere")),
    ("self-border", lambda d: d["borders"].append(["plana", "plana"]), ("borders.3", "plana")),
    ("bad-x", lambda d: d["regions"][0].__setitem__("x", "far"), ("regions.0.x",)),
    ("unknown-town-region", lambda d: d["festival_locations"][1].__setitem__("region", "mars"),
     ("festival_locations.1.region", "mars")),
    ("unknown-wheel-tile", lambda d: d["wheel"].__setitem__("tiles", [
        "balance", "width", "mix", "strength", "flying"]), ("wheel.tiles", "flying")),
    ("extra-field", lambda d: d["regions"][1].__setitem__("colour", "red"),
     ("regions.1.colour",)),
    ("missing-scoring", lambda d: d.pop("scoring"), ("scoring",)),
]


@pytest.mark.parametrize(("name", "change", "fragments"), BAD_BOARDS,
                         ids=[b[0] for b in BAD_BOARDS])
@pytest.mark.parametrize("command", [["board"], ["board", "--json"], ["route", "costa", "illa"]])
def test_bad_board_file_names_the_field(tmp_path: Path, name: str, change: Any,
                                        fragments: tuple[str, ...], command: list[str]) -> None:
    path = _write_variant(tmp_path, f"{name}.toml", change)
    assert_bad_input(run(*command, "--board", path), f"{name}.toml", *fragments)


def test_broken_toml_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('name = "x"\nborders = [[', encoding="utf-8")
    assert_bad_input(run("board", "--board", str(path)), "broken.toml", "TOML")
    assert_bad_input(run("board", "--board", str(path), "--json"), "broken.toml", "TOML")


def test_missing_board_file_is_bad_input(tmp_path: Path) -> None:
    assert_bad_input(run("board", "--board", str(tmp_path / "nope.toml")), "nope.toml")


# --- castell route -----------------------------------------------------------------------------

def _route(start: str, end: str, *extra: str) -> dict[str, Any]:
    result = run("route", start, end, *extra, "--json")
    assert result.exit_code == 0, result.stderr
    data = one_json(result)
    assert set(data) == ROUTE_KEYS
    return data


def _check_route(data: dict[str, Any], near: dict[str, set[str]], start: str, end: str) -> None:
    moves, paths = _bfs_routes(near, start, end)
    assert data["from"] == start and data["to"] == end
    assert data["moves"] == moves
    assert sorted(data["paths"]) == paths
    assert data["turns"] == moves  # one Move a turn
    assert data["turns_with_special"] == math.ceil(moves / 2)  # Move + special-action move
    for path in data["paths"]:
        assert len(path) == moves + 1
        assert all(b in near.get(a, ()) for a, b in pairwise(path))


@pytest.mark.parametrize("board_args", [[], ["--board", ISLANDS]], ids=["default", "islands"])
def test_route_all_pairs_agree_with_bfs(board_args: list[str]) -> None:
    board = _board_json(*board_args)
    near = _adjacency(board["borders"], board["dotted_links"])
    ids = [r["id"] for r in board["regions"]]
    for start in ids:
        for end in ids:
            _check_route(_route(start, end, *board_args), near, start, end)


@pytest.mark.parametrize(("start", "end", "moves"), [
    ("terres-de-lebre", "girona", 3),
    ("lleida", "barcelona", 2),
    ("alt-pirineu-aran", "terres-de-lebre", 2),
    ("girona", "terres-de-lebre", 3),
    ("barcelona", "comarques-centrals", 1),
])
def test_route_known_distances_default_board(start: str, end: str, moves: int) -> None:
    data = _route(start, end)
    assert data["moves"] == moves
    board = _board_json()
    _check_route(data, _adjacency(board["borders"], board["dotted_links"]), start, end)


def test_route_across_the_dotted_link() -> None:
    data = _route("illa", "muntanya", "--board", ISLANDS)
    assert data["moves"] == 2
    assert data["paths"] == [["illa", "costa", "muntanya"]]
    assert data["turns"] == 2 and data["turns_with_special"] == 1
    data = _route("Plana", "ILLA", "--board", ISLANDS)
    assert (data["from"], data["to"], data["moves"]) == ("plana", "illa", 2)


@pytest.mark.parametrize(("text", "region"), [
    ("terres de l'ebre", "terres-de-lebre"),
    ("TERRES DE L'ÈBRE", "terres-de-lebre"),
    ("Terres de l\u2019Ebre", "terres-de-lebre"),  # typographic apostrophe
    ("ALT PIRINEU I ARAN", "alt-pirineu-aran"),
    ("alt pirineu i aran", "alt-pirineu-aran"),
    ("Camp de Tarragona", "camp-de-tarragona"),
    ("camp-de-tarragona", "camp-de-tarragona"),
    ("BARCELONA", "barcelona"),
])
def test_route_names_ignore_case_and_accents(text: str, region: str) -> None:
    data = _route(text, "girona")
    assert data["from"] == region
    data = _route("girona", text)
    assert data["to"] == region


def test_route_same_region_is_zero_moves() -> None:
    data = _route("Lleida", "lleida")
    assert data["moves"] == 0
    assert data["paths"] == [["lleida"]]
    assert data["turns"] == 0 and data["turns_with_special"] == 0


def test_route_human_output() -> None:
    result = run("route", "terres de l'ebre", "girona")
    no_crash(result)
    assert result.exit_code == 0
    assert "Terres de l'Ebre" in result.stdout and "Girona" in result.stdout
    assert "3 moves" in result.stdout
    assert "turns: 3" in result.stdout


@pytest.mark.parametrize(("start", "end", "typo", "suggestion"), [
    ("Lleidaa", "girona", "Lleidaa", "Lleida"),
    ("girona", "Barcelna", "Barcelna", "Barcelona"),
    ("Terres de l'Ebro", "girona", "Terres de l'Ebro", "Terres de l'Ebre"),
])
def test_route_unknown_name_suggests(start: str, end: str, typo: str, suggestion: str) -> None:
    for extra in ([], ["--json"]):
        assert_bad_input(run("route", start, end, *extra), "did you mean", typo, suggestion)


def test_route_unknown_name_on_custom_board() -> None:
    assert_bad_input(run("route", "Ila", "costa", "--board", ISLANDS), "did you mean", "Illa")


def test_a_board_whose_map_is_cut_is_bad_input(tmp_path: Path) -> None:
    # a board where the island has lost its ferry: a map must be connected (issue 13)
    path = _write_variant(tmp_path, "cut.toml", lambda d: d.__setitem__("dotted_links", []))
    result = run("route", "illa", "costa", "--board", path, "--json")
    assert_bad_input(result, "no route reaches", "connected")


def test_svg_onto_the_json_stream_is_refused() -> None:
    """`--svg /dev/stdout --json` interleaved the picture with the JSON object."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "cli", "board", "--svg", "/dev/stdout",
                           "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2  # the error alone on stdout, as every --json error
    assert json.loads(done.stdout)["error"]["exit"] == 2
    assert "standard output, where --json writes" in done.stderr
    alone = subprocess.run([sys.executable, "-m", "cli", "board", "--svg", "/dev/stdout"],
                           capture_output=True, text=True, timeout=60)
    assert alone.returncode == 0 and alone.stdout.startswith("<?xml")
