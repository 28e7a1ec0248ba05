"""SVG pictures, drawn with drawsvg."""

from __future__ import annotations

from collections.abc import Sequence

import drawsvg as draw

from models.game import Board

_SCALE = 8
# a background-coloured outline behind text keeps names readable where border lines cross them
_HALO = {"stroke": "#f7f3ea", "stroke_width": 4, "paint_order": "stroke"}


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
                               font_weight="bold", **_HALO))
        towns = [f"{f.name} ({f.type})" for f in board.festival_locations
                 if f.region == region.id]
        for line, town in enumerate(towns):
            group.append(draw.Text(town, 13, x, y + 76 + 16 * line, text_anchor="middle",
                                   fill="#444", **_HALO))
        drawing.append(group)
    return drawing


_FIGURE_W = 34
_GAP = 6


def _figure(x: float, y: float, size: int, fill: str) -> draw.Group:
    """One casteller standing on the line y: taller for a larger size, number on the shirt."""
    body = 18 + 5 * size
    group = draw.Group(class_="casteller", data_size=str(size))
    group.append(draw.Rectangle(x + 4, y - body, _FIGURE_W - 8, body - 10, rx=6, fill=fill,
                                stroke="#333", stroke_width=1.5))
    group.append(draw.Circle(x + _FIGURE_W / 2, y - body - 7, 8, fill="#f1c27d",
                             stroke="#333", stroke_width=1.5))
    group.append(draw.Text(str(size), 14, x + _FIGURE_W / 2, y - body / 2 - 1,
                           text_anchor="middle", fill="white", font_weight="bold"))
    return group


def _row_height(sizes: Sequence[int]) -> float:
    return 18 + 5 * max(sizes) + 18 + _GAP


def tower_svg(levels: Sequence[Sequence[int]], caption: str | None = None) -> draw.Drawing:
    """Levels (bottom first) as rows of numbered figures, widest at the bottom."""
    widest = max((len(level) for level in levels), default=1)
    width = widest * _FIGURE_W + 2 * _GAP
    rows = [_row_height(level) for level in levels]
    height = sum(rows) + (28 if caption else 0) + _GAP
    drawing = draw.Drawing(width, height, font_family="sans-serif")
    y = height - (28 if caption else 0) - _GAP
    for number, level in enumerate(levels):
        x = (width - len(level) * _FIGURE_W) / 2
        row = draw.Group(class_="level", data_level=str(number + 1))
        for size in sorted(level, reverse=True):
            shade = _SHIRTS[min(max(size, 1), 10) - 1]
            row.append(_figure(x, y, size, shade))
            x += _FIGURE_W
        drawing.append(row)
        y -= rows[number]
    if caption:
        drawing.append(draw.Text(caption, 14, width / 2, height - 10, text_anchor="middle"))
    return drawing


def pool_svg(sizes: Sequence[int]) -> draw.Drawing:
    """A pool drawn as one row of figures, largest first."""
    ordered = sorted(sizes, reverse=True)
    width = max(1, len(ordered)) * _FIGURE_W + 2 * _GAP
    height = _row_height(ordered or [1]) + _GAP
    drawing = draw.Drawing(width, height, font_family="sans-serif")
    for index, size in enumerate(ordered):
        drawing.append(_figure(_GAP + index * _FIGURE_W, height - _GAP, size,
                               _SHIRTS[min(max(size, 1), 10) - 1]))
    return drawing


_SHIRTS = ["#d9a441", "#d18b35", "#c8742c", "#bd5e27", "#b04a25", "#a13a25", "#902d26",
           "#7d2327", "#6a1c27", "#561726"]


def save(drawing: draw.Drawing, path: str) -> None:
    from models.files import write_atomic

    write_atomic(path, drawing.as_svg())
