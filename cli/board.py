"""`castell board` and `castell route`: the map and how to get around it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cli import complete, options
from cli.edge import at_edge, emit_json, err, out
from cli.game_inputs import board_from
from models.game import Board

if TYPE_CHECKING:
    from models.game import Route


def board_json(board: Board) -> dict[str, Any]:
    from models.game import RegionGraph  # deferred: keeps start-up light

    return {
        "name": board.name,
        "provisional": board.provisional,
        "regions": [{"id": r.id, "name": r.name, "x": r.x, "y": r.y,
                     "neighbours": RegionGraph(board).neighbours(r.id),
                     "festival_towns": [f.name for f in board.festival_locations
                                        if f.region == r.id]}
                    for r in board.regions],
        "borders": [list(pair) for pair in board.borders],
        "dotted_links": [list(pair) for pair in board.dotted_links],
        "festival_locations": [f.model_dump() for f in board.festival_locations],
    }


@at_edge
def board(
    board_file: options.BoardFile = None,
    svg: Annotated[str | None, typer.Option(
        "--svg", metavar="FILE", help="Also draw the map as an SVG picture.")] = None,
    as_json: options.Json = False,
) -> None:
    """The board: regions, borders, dotted links and festival towns.

    Examples:

      castell board

      castell board --svg map.svg --board examples/boards/islands.toml
    """
    from models.files import not_an_input
    from models.game import RegionGraph  # deferred: keeps start-up light

    not_an_input(svg, board_file, option="--svg")
    data = board_from(board_file)
    if svg is not None:
        from cli.svg import board_map, save  # deferred: keeps start-up light

        save(board_map(data), svg)
    if as_json:
        emit_json(board_json(data))
        return
    graph = RegionGraph(data)
    table = Table(title=escape(data.name) + ("  [dim](provisional data)[/]" if data.provisional
                                          else ""))
    table.add_column("region (id)", overflow="fold")
    table.add_column("adjacent to", overflow="fold")
    table.add_column("festival towns (type)", overflow="fold")
    dotted = {frozenset(p) for p in data.dotted_links}
    names = {r.id: escape(r.name) for r in data.regions}
    for region in data.regions:
        near = [names[n] + (" (dotted)" if frozenset((region.id, n)) in dotted else "")
                for n in graph.neighbours(region.id)]
        towns = [f"{escape(f.name)} ({f.type})" for f in data.festival_locations
                 if f.region == region.id]
        table.add_row(f"[bold]{escape(region.name)}[/]\n[dim]{escape(region.id)}[/]",
                      "\n".join(near), "\n".join(towns))
    out().print(table)
    if svg is not None:
        err().print(Text(f"map written to {Path(svg)}"))


def route_json(found: Route) -> dict[str, Any]:
    return {"from": found.start, "to": found.end, "moves": found.moves,
            "paths": [list(p) for p in found.paths], "turns": found.turns,
            "turns_with_special": found.turns_with_special}


@at_edge
def route(
    start: Annotated[str, typer.Argument(
        metavar="FROM", help="Region name or id.", autocompletion=complete.regions)],
    end: Annotated[str, typer.Argument(
        metavar="TO", help="Region name or id.", autocompletion=complete.regions)],
    board_file: options.BoardFile = None,
    as_json: options.Json = False,
) -> None:
    """Shortest routes between two regions, and the turns they take.

    One Move a turn; a special action can add one more move a turn (turns_with_special).
    Region names match without case or accents: "terres de l'ebre" works.

    Examples:

      castell route Lleida Girona

      castell route "terres de l'ebre" barcelona --json
    """
    from models.game import RegionGraph  # deferred: keeps start-up light

    data = board_from(board_file)
    found = RegionGraph(data).route(data.find_region(start).id, data.find_region(end).id)
    if as_json:
        emit_json(route_json(found))
        return
    names = {r.id: escape(r.name) for r in data.regions}
    table = Table(title=f"{names[found.start]} → {names[found.end]}: {found.moves} moves")
    table.add_column("shortest path", overflow="fold")
    for path in found.paths:
        table.add_row(" → ".join(names[p] for p in path))
    out().print(table)
    out().print(f"turns: {found.turns} with one Move a turn; {found.turns_with_special} with a "
                "special-action move every turn")
