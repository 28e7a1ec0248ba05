"""SVG pictures, drawn with drawsvg."""

from __future__ import annotations

import drawsvg as draw

from models.board import Board

_SCALE = 8


def board_map(board: Board) -> draw.Drawing:
    """Regions at their map coordinates, borders as lines, dotted links dashed, with towns."""
    drawing = draw.Drawing(100 * _SCALE, 100 * _SCALE, font_family="sans-serif")
    drawing.append(draw.Rectangle(0, 0, 100 * _SCALE, 100 * _SCALE, fill="#f7f3ea"))
    where = {r.id: (r.x * _SCALE, r.y * _SCALE) for r in board.regions}
    for a, b in board.borders:
        drawing.append(draw.Line(*where[a], *where[b], stroke="#8a6d3b", stroke_width=4))
    for a, b in board.dotted_links:
        drawing.append(draw.Line(*where[a], *where[b], stroke="#8a6d3b", stroke_width=3,
                                 stroke_dasharray="8,8"))
    for region in board.regions:
        x, y = where[region.id]
        group = draw.Group(id=region.id)
        group.append(draw.Circle(x, y, 34, fill="#c8102e", stroke="#fcdd09", stroke_width=5))
        group.append(draw.Text(region.name, 18, x, y + 56, text_anchor="middle",
                               font_weight="bold"))
        towns = [f"{f.name} ({f.type})" for f in board.festival_locations
                 if f.region == region.id]
        for line, town in enumerate(towns):
            group.append(draw.Text(town, 13, x, y + 76 + 16 * line, text_anchor="middle",
                                   fill="#444"))
        drawing.append(group)
    return drawing
