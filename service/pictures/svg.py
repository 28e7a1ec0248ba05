"""SVG pictures, drawn with drawsvg."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import drawsvg as draw

from models.game import Board
from service.results.castell_view import CastellView, PlayerView, skill_words

_SCALE = 8
# a background-coloured outline behind text keeps names readable near lines and pawns
_HALO = {"stroke": "#f7f3ea", "stroke_width": 4, "paint_order": "stroke"}
_RADIUS = 34  # a region's circle
_PAD = 4

Box = tuple[float, float, float, float]  # x0, y0, x1, y1
Segment = tuple[tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class Line:
    """One line of a label: its text, font size, and how it is drawn."""

    text: str
    size: int = 13
    bold: bool = False
    fill: str = "#444"


def text_width(text: str, size: float, bold: bool = False) -> float:
    """A generous estimate of a sans-serif text's width (no font metrics in an SVG writer)."""
    return len(text) * size * (0.64 if bold else 0.58)


def _block_size(lines: Sequence[Line]) -> tuple[float, float]:
    width = max(text_width(line.text, line.size, line.bold) for line in lines)
    return width + 2 * _PAD, sum(line.size + 4 for line in lines) + 2 * _PAD


def _crosses(segment: Segment, box: Box) -> bool:
    """Does the segment pass through the box? (Liang-Barsky clipping.)"""
    (x1, y1), (x2, y2) = segment
    dx, dy = x2 - x1, y2 - y1
    low, high = 0.0, 1.0
    for p, q in ((-dx, x1 - box[0]), (dx, box[2] - x1), (-dy, y1 - box[1]), (dy, box[3] - y1)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _touches_circle(box: Box, x: float, y: float, radius: float) -> bool:
    nearest_x, nearest_y = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    return (nearest_x - x) ** 2 + (nearest_y - y) ** 2 < radius ** 2


# what a border line under a label costs, in pixels of distance from the circle: a label
# rather moves this much further out than sit on a line (it stays readable either way: its
# plate is drawn over the lines)
_CROSSING = 110


def _candidates(cx: float, cy: float, w: float, h: float) -> list[tuple[float, Box]]:
    """Places for a w x h label around a circle at (cx, cy), nearest first: 16 directions,
    the box's side facing the circle at growing distances."""
    places = []
    for gap in (6, 20, 40, 65, 95, 130, 170):
        distance = _RADIUS + gap
        for step in range(16):
            angle = math.pi / 2 + step * math.pi / 8  # straight below first
            cos, sin = math.cos(angle), math.sin(angle)
            x0 = cx + distance * cos - w / 2 + w / 2 * cos
            y0 = cy + distance * sin - h / 2 + h / 2 * sin
            places.append((distance + step * 0.01, (x0, y0, x0 + w, y0 + h)))
    return places


def place_labels(blocks: dict[str, tuple[float, float]], where: dict[str, tuple[float, float]],
                 segments: Sequence[Segment], canvas: Box) -> dict[str, Box]:
    """A box for each region's label near its circle, crossed by no border line and clear of
    every circle, other label and the canvas edge when a candidate place is (greedy; labels
    that found no clear place go first in the next of a few passes). A label that cannot
    keep clear of lines sits on its plate over them: no line is ever drawn across its text."""
    first: list[str] = []
    placed: dict[str, Box] = {}
    for _ in range(4):
        order = first + sorted((k for k in blocks if k not in first),
                               key=lambda k: -blocks[k][0] * blocks[k][1])
        placed, clashing = {}, []
        for key in order:
            best: tuple[float, Box] | None = None
            for distance, box in _candidates(*where[key], *blocks[key]):
                crossed = sum(_crosses(s, box) for s in segments)
                clashes = sum(_touches_circle(box, *c, _RADIUS + 2) for c in where.values())
                clashes += sum(_overlaps(box, other) for other in placed.values())
                inside = canvas[0] <= box[0] and box[2] <= canvas[2] and \
                    canvas[1] <= box[1] and box[3] <= canvas[3]
                cost = (clashes + (0 if inside else 10)) * 1000 + crossed * _CROSSING + distance
                if best is None or cost < best[0]:
                    best = (cost, box)
            assert best is not None
            placed[key] = best[1]
            if best[0] >= _CROSSING:
                clashing.append(key)
        if not clashing:
            break
        first = clashing + [k for k in first if k not in clashing]
    return placed


def _draw_block(group: draw.Group, box: Box, lines: Sequence[Line]) -> None:
    """The label on an opaque plate, drawn after (over) every border line."""
    group.append(draw.Rectangle(box[0], box[1], box[2] - box[0], box[3] - box[1], rx=6,
                                fill="#f7f3ea", stroke="#e2d6bd", stroke_width=1,
                                class_="label"))
    x = (box[0] + box[2]) / 2
    y = box[1] + _PAD
    for line in lines:
        y += line.size
        group.append(draw.Text(line.text, line.size, x, y, text_anchor="middle",
                               font_weight="bold" if line.bold else "normal",
                               fill="black" if line.bold else line.fill, **_HALO))
        y += 4


def _map(board: Board, scale: float, labels: dict[str, list[Line]], size: tuple[float, float],
         top: float = 0) -> tuple[draw.Drawing, dict[str, tuple[float, float]]]:
    """The board: borders as lines, dotted links dashed, each region a circle with its label
    in a group (id = region id) placed where no border crosses it."""
    width, height = size
    drawing = draw.Drawing(width, height, font_family="sans-serif")
    drawing.append(draw.Rectangle(0, 0, width, height, fill="#f7f3ea"))
    where = {r.id: (r.x * scale, r.y * scale + top) for r in board.regions}
    segments: list[Segment] = []
    for a, b in board.borders:
        drawing.append(draw.Line(*where[a], *where[b], stroke="#8a6d3b", stroke_width=4))
        segments.append((where[a], where[b]))
    for a, b in board.dotted_links:
        drawing.append(draw.Line(*where[a], *where[b], stroke="#8a6d3b", stroke_width=3,
                                 stroke_dasharray="8,8"))
        segments.append((where[a], where[b]))
    boxes = place_labels({k: _block_size(v) for k, v in labels.items()}, where, segments,
                         (0, top, width, top + 100 * scale))
    for region in board.regions:
        x, y = where[region.id]
        group = draw.Group(id=region.id)
        group.append(draw.Circle(x, y, _RADIUS, fill="#c8102e", stroke="#fcdd09",
                                 stroke_width=5))
        _draw_block(group, boxes[region.id], labels[region.id])
        drawing.append(group)
    return drawing, where


def board_map(board: Board) -> draw.Drawing:
    """Regions at their map coordinates, borders as lines, dotted links dashed, with towns."""
    labels = {region.id: [Line(region.name, 18, bold=True)]
              + [Line(f"{f.name} ({f.type})") for f in board.festival_locations
                 if f.region == region.id]
              for region in board.regions}
    drawing, _ = _map(board, _SCALE, labels, (100 * _SCALE, 100 * _SCALE))
    return drawing


_PAWNS = ["#1f5fbf", "#2e8b3a", "#7b3fa6", "#e07b00"]


def game_map(board: Board, view: CastellView) -> draw.Drawing:
    """The game's view drawn on the board: pawns, each region's castellers, local performance
    tiles and tokens in its row, festival locations with their round and size tokens, and a
    legend of the players. The board gives the map; everything on it comes from the view."""
    scale, top = 10, 50
    labels: dict[str, list[Line]] = {}
    for region in view.regions:
        lines = [Line(region.name, 18, bold=True), Line(f"castellers {region.castellers}")]
        lines += [Line(f"{t.id} {t.tile}", 12) for t in region.tiles]
        if region.special_tokens:
            lines.append(Line(f"{region.special_tokens} special token(s) in the row", 12))
        for space in view.festivals:
            if space.region == region.id:
                held = " (held)" if space.held else ""
                lines.append(Line(f"{space.location}: round {space.round}, size "
                                  f"{','.join(map(str, space.size_tokens))}{held}", 12,
                                  fill="#888" if space.held else "#9a3412"))
        labels[region.id] = lines
    legend = [_legend_line(p) for p in view.players]
    legend_height = 24 * len(legend) + 20
    width = max(100 * scale, *(text_width(t, 14) + 60 for t in legend))
    height = top + 100 * scale + legend_height
    drawing, where = _map(board, scale, labels, (width, height), top)
    status = "game over" if view.game_over else f"round {view.round}, " + (
        f"{view.to_play} to play" if view.to_play else "refills due")
    drawing.append(draw.Text(f"{status} ({view.rules} rules)", 20, width / 2, 32,
                             text_anchor="middle", font_weight="bold"))
    drawing.append(_pawns(view, where))
    y = top + 100 * scale + 20
    for index, text in enumerate(legend):
        drawing.append(draw.Circle(24, y + 24 * index - 5, 9, fill=_PAWNS[index % 4]))
        drawing.append(draw.Text(text, 14, 40, y + 24 * index, fill="#222"))
    return drawing


def _legend_line(p: PlayerView) -> str:
    text = (f"{p.name}: team {p.team}; skills {skill_words(p.skills)}; {p.special_tokens} "
            f"tokens; best tower {p.best_tower}")
    won = [f"{n} {prize}" for prize, n in p.prizes.items()]
    won += [f"size token {','.join(map(str, p.size_tokens))}"] if p.size_tokens else []
    won += [f"tiles {','.join(p.claimed_tiles)}"] if p.claimed_tiles else []
    return text + (f"; {'; '.join(won)}" if won else "")


def _pawns(view: CastellView, where: dict[str, tuple[float, float]]) -> draw.Group:
    """Each player's pawn: a coloured disc with the player's initial, up to four a region."""
    pawns = draw.Group(id="pawns")
    standing: dict[str, list[int]] = {}
    for index, player in enumerate(view.players):
        if player.pawn is not None:
            standing.setdefault(player.pawn, []).append(index)
    offsets = [(-12, -12), (12, -12), (-12, 12), (12, 12)]
    for region_id, indexes in standing.items():
        x, y = where[region_id]
        for slot, index in enumerate(indexes):
            dx, dy = offsets[slot % 4]
            pawns.append(draw.Circle(x + dx, y + dy, 11, fill=_PAWNS[index % 4],
                                     stroke="white", stroke_width=2,
                                     data_player=view.players[index].name))
            pawns.append(draw.Text(view.players[index].name[:1], 13, x + dx, y + dy + 5,
                                   text_anchor="middle", fill="white", font_weight="bold"))
    return pawns


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
    width: float = widest * _FIGURE_W + 2 * _GAP
    if caption:  # never cut the caption: the picture is at least as wide as its text
        width = max(width, text_width(caption, 14) + 2 * _GAP)
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
