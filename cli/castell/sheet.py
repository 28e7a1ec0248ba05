"""Printable puzzle sheets: an HTML page of puzzles and a separate answer key (jinja2); the
files are written by the use case (`service.castell.puzzles.sheet`)."""

from __future__ import annotations

from typing import Any

import drawsvg as draw
from jinja2 import Environment, PackageLoader, select_autoescape

from models.puzzle import Puzzle
from models.tower import SKILL_ORDER
from service.pictures.svg import pool_svg, tower_svg

_ENV = Environment(loader=PackageLoader("cli", "templates"),
                   autoescape=select_autoescape(["html", "j2"]), keep_trailing_newline=True)


def _inline(drawing: draw.Drawing) -> str:
    """SVG markup to embed in HTML: no XML declaration."""
    return str(drawing.as_svg(header=""))


def grid_svg(rows: int, columns: int) -> str:
    """An empty grid of casteller-sized boxes to draw a tower in."""
    cell_w, cell_h = 36, 44
    drawing = draw.Drawing(columns * cell_w + 2, rows * cell_h + 2)
    for row in range(rows):
        for column in range(columns):
            drawing.append(draw.Rectangle(1 + column * cell_w, 1 + row * cell_h, cell_w,
                                          cell_h, fill="white", stroke="#bbb"))
    return _inline(drawing)


def _view(puzzle: Puzzle) -> dict[str, Any]:
    ranks = puzzle.ranks
    solution = puzzle.tower
    widest = max(level.count for level in solution.levels)
    return {
        "id": puzzle.id, "kind": puzzle.kind, "rules": puzzle.rules,
        "level": puzzle.difficulty.get("level", "?"),
        "target": puzzle.target_text()[0].upper() + puzzle.target_text()[1:] + ".",
        "badges": [f"{s.value} {ranks[s]}" for s in SKILL_ORDER if ranks[s]],
        "pool_svg": _inline(pool_svg(list(puzzle.team))),
        "grid_svg": grid_svg(max(solution.height + 1, 5), max(widest + 1, 5)),
        "solution_svg": _inline(tower_svg(solution.as_lists(), str(solution))),
        "result": _result_text(puzzle),
    }


def _result_text(puzzle: Puzzle) -> str:
    tower = puzzle.tower
    if puzzle.kind == "tallest":
        return f"{tower.height} levels, {tower.castellers} castellers"
    if puzzle.kind == "festival":
        return f"festival score {puzzle.objective}"
    return f"{tower.height} levels"


def render_sheet(puzzles: list[Puzzle], title: str, answers: bool) -> str:
    template = _ENV.get_template("sheet.html.j2")
    return str(template.render(title=title, answers=answers,
                               puzzles=[_view(p) for p in puzzles]))
