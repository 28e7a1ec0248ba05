"""`castell board` and `castell route`: the map and how to get around it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cli import options
from cli.castell import complete
from cli.edge import at_edge, emit_output, err, out
from models.game import load_board as board_from
from service.castell.maps import board_view, route_view

if TYPE_CHECKING:
    pass


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

    not_an_input(svg, board_file, field="svg")
    options.not_onto_stdout(svg, as_json)
    data = board_from(board_file)
    if svg is not None:
        from service.pictures.svg import board_map, save  # deferred: keeps start-up light

        save(board_map(data), svg)
    if as_json:
        emit_output(board_view(data))
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
    data = board_from(board_file)
    found = route_view(data, start, end)
    if as_json:
        emit_output(found)
        return
    names = {r.id: escape(r.name) for r in data.regions}
    table = Table(title=f"{names[found.from_]} → {names[found.to]}: {found.moves} moves")
    table.add_column("shortest path", overflow="fold")
    for path in found.paths:
        table.add_row(" → ".join(names[p] for p in path))
    out().print(table)
    out().print(f"turns: {found.turns} with one Move a turn; {found.turns_with_special} with a "
                "special-action move every turn")
