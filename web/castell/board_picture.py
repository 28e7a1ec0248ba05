"""The Castell board as the table page draws it (an inline SVG, `castell.html`): each region a
circle at the board's coordinates with the pawns standing there inside it (a disc of the
player's colour with their initial), and beside it a label on its own plate: the region's
short name, this round's festivals there (a star, the town and its size tokens) and the
castellers in its row, drawn as tiles by size. The region the player to move may move to is
a tap target (at least 44 px on a 360 px phone, none overlapping another). Labels are placed
where they touch no circle (so no pawn is ever under a label), no other label and not the
edge of the map; a border line may run under a label's plate, never across a circle."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

WIDTH = 360.0  # the map's width in its own units; a 360 px phone draws it about 344 px wide
MARGIN = 36.0  # between the outermost circles and the edge
MOST_HEIGHT = 330.0  # the board's own part; the labels may add a little below
TARGET = 27.0  # a reachable region's tap circle (54 units: 50 px at the phone's width)
SPOT = 22.0  # the circle drawn for a region (its pawns inside)
CLEAR = TARGET + 3  # no label comes nearer to a region's centre than this
NAME_SIZE = 13.0  # the name's font; 12.4 px on the phone, never under 12
LINE = 17.0  # a line of a label
LETTER = 0.62  # a letter's width, in font sizes (generous: no font metrics here)
PAD = 3.0
TILE_H = 19.0  # the tallest casteller tile (size 10); a size 1 tile is 14.5
GAP = 2.0
PAWN = 10.0
CLASH = 1000.0  # what touching a circle, another label or the edge costs a place
CROSSING = 40.0  # what a border line under a label costs (the plate keeps it readable)

Box = tuple[float, float, float, float]  # x0, y0, x1, y1
Point = tuple[float, float]


@dataclass
class Label:
    """One region's label: its lines and the casteller tiles under them, and its place."""

    name: str
    festivals: list[str]
    pool: list[int]
    box: Box = (0.0, 0.0, 0.0, 0.0)

    @property
    def size(self) -> tuple[float, float]:
        texts = [(self.name, True), *((f, False) for f in self.festivals)]
        width = max([text_width(t, bold) for t, bold in texts] + [pool_width(self.pool)])
        height = LINE * len(texts) + (TILE_H + GAP if self.pool else 0)
        return width + 2 * PAD, height + 2 * PAD

    def lines(self) -> list[tuple[str, float, float, bool]]:
        """Each line's text, its baseline (x centred) and whether it is the name."""
        x = (self.box[0] + self.box[2]) / 2
        texts = [(self.name, True), *((f, False) for f in self.festivals)]
        return [(text, x, self.box[1] + PAD + LINE * (i + 1) - 4, bold)
                for i, (text, bold) in enumerate(texts)]

    def tiles(self) -> list[tuple[int, float, float, float, float]]:
        """Each casteller tile: its size, x, y (bottom-aligned on the label's last line),
        width and height."""
        x = (self.box[0] + self.box[2]) / 2 - pool_width(self.pool) / 2
        bottom = self.box[3] - PAD
        drawn = []
        for size in self.pool:
            width, height = tile_size(size)
            drawn.append((size, round(x, 1), round(bottom - height, 1), width, height))
            x += width + GAP
        return drawn


@dataclass
class Spot:
    """One region on the map: where, its label, the pawns in it, the move there (if any)."""

    id: str
    name: str
    x: float
    y: float
    label: Label
    move: str | None = None
    festival: bool = False
    pawns: list[tuple[str, str, float, float]] = field(default_factory=list)

    def leader(self) -> tuple[float, float, float, float]:
        """A line from the circle's edge to the nearest point of its label: which label is
        whose, where two regions' labels sit near each other."""
        box = self.label.box
        near_x, near_y = min(max(self.x, box[0]), box[2]), min(max(self.y, box[1]), box[3])
        far = max(math.dist((self.x, self.y), (near_x, near_y)), 1.0)
        start = (self.x + (near_x - self.x) * SPOT / far, self.y + (near_y - self.y) * SPOT / far)
        return round(start[0], 1), round(start[1], 1), round(near_x, 1), round(near_y, 1)


def text_width(text: str, bold: bool = False) -> float:
    return len(text) * NAME_SIZE * (LETTER + (0.04 if bold else 0))


def tile_size(size: int) -> tuple[float, float]:
    """A casteller's tile: wider for two digits, taller for a taller casteller."""
    return (24.0 if size >= 10 else 17.0), 14.0 + 0.5 * max(min(size, 10), 1)


def pool_width(pool: Sequence[int]) -> float:
    return sum(tile_size(s)[0] for s in pool) + GAP * max(len(pool) - 1, 0)


def placed(points: dict[str, Point]) -> tuple[dict[str, Point], float]:
    """The regions' board coordinates scaled to the map's width (the height as the board's
    shape asks, at most MOST_HEIGHT), centred; and the map's height."""
    xs = [x for x, _ in points.values()]
    ys = [y for _, y in points.values()]
    span_x, span_y = max(max(xs) - min(xs), 1.0), max(max(ys) - min(ys), 1.0)
    scale = min((WIDTH - 2 * MARGIN) / span_x, (MOST_HEIGHT - 2 * MARGIN) / span_y)
    left = (WIDTH - span_x * scale) / 2
    return ({key: (round(left + (x - min(xs)) * scale, 1),
                   round(MARGIN + (y - min(ys)) * scale, 1))
             for key, (x, y) in points.items()},
            span_y * scale + 2 * MARGIN)


def pawn_places(x: float, y: float, count: int) -> list[Point]:
    """Where up to four pawns stand inside a region's circle, none over another."""
    offsets: list[list[Point]] = [[], [(0, 0)], [(-10.5, 0), (10.5, 0)],
                                  [(-10.5, -6), (10.5, -6), (0, 11)],
                                  [(-10.5, -10.5), (10.5, -10.5), (-10.5, 10.5), (10.5, 10.5)]]
    ring = offsets[min(count, 4)]
    if count > 4:  # more than the rules' four: around a ring just wide enough
        radius = PAWN / math.sin(math.pi / count)
        ring = [(radius * math.cos(2 * math.pi * i / count),
                 radius * math.sin(2 * math.pi * i / count)) for i in range(count)]
    return [(round(x + dx, 1), round(y + dy, 1)) for dx, dy in ring]


def _crosses(a: Point, b: Point, box: Box) -> bool:
    """Does the segment a-b pass through the box? (Liang-Barsky.)"""
    (x1, y1), (x2, y2) = a, b
    low, high = 0.0, 1.0
    for p, q in ((x1 - x2, x1 - box[0]), (x2 - x1, box[2] - x1),
                 (y1 - y2, y1 - box[1]), (y2 - y1, box[3] - y1)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        low, high = (max(low, t), high) if p < 0 else (low, min(high, t))
        if low > high:
            return False
    return True


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def touches(box: Box, centre: Point, radius: float) -> bool:
    nearest_x = min(max(centre[0], box[0]), box[2])
    nearest_y = min(max(centre[1], box[1]), box[3])
    return (nearest_x - centre[0]) ** 2 + (nearest_y - centre[1]) ** 2 < radius ** 2


def candidates(centre: Point, size: tuple[float, float]) -> list[Box]:
    """Places for a label around its circle, nearest first: below, above, beside and at the
    corners, each kept inside the map's width."""
    (x, y), (w, h) = centre, size
    found: list[Box] = []
    for gap in (0.0, 10.0, 24.0, 42.0):
        near = CLEAR + gap
        corner = near * 0.7
        for x0, y0 in ((x - w / 2, y + near), (x - w / 2, y - near - h),
                       (x + near, y - h / 2), (x - near - w, y - h / 2),
                       (x + corner, y + corner), (x - corner - w, y + corner),
                       (x + corner, y - corner - h), (x - corner - w, y - corner - h),
                       (x - w * 0.15, y + near), (x - w * 0.85, y + near),
                       (x - w * 0.15, y - near - h), (x - w * 0.85, y - near - h)):
            x0 = min(max(x0, 1.0), WIDTH - 1.0 - w)
            found.append((round(x0, 1), round(y0, 1), round(x0 + w, 1), round(y0 + h, 1)))
    return found


def _crossings(box: Box, lines: Sequence[tuple[Point, Point]]) -> int:
    """The border lines under the box (a line whose own bounding box misses it cannot)."""
    return sum(_crosses(a, b, box) for a, b in lines
               if min(a[0], b[0]) <= box[2] and max(a[0], b[0]) >= box[0]
               and min(a[1], b[1]) <= box[3] and max(a[1], b[1]) >= box[1])


# a label's places, each with what it costs whatever the other labels do: the circles it
# touches, the border lines under it and its rank (nearest first)
Places = list[tuple[float, Box]]


def places(spots: Sequence[Spot], lines: Sequence[tuple[Point, Point]]) -> dict[str, Places]:
    """Each label's places and their fixed costs, worked out once for every pass and every
    size of the map (the page draws the board on every step: this was most of its time)."""
    centres = [(s.x, s.y) for s in spots]
    found: dict[str, Places] = {}
    for spot in spots:
        found[spot.id] = [(sum(touches(box, c, CLEAR) for c in centres) * CLASH
                           + _crossings(box, lines) * CROSSING + rank, box)
                          for rank, box in enumerate(candidates((spot.x, spot.y),
                                                                spot.label.size))]
    return found


def _cheapest(ranked: Places, others: Sequence[Box], top: float, bottom: float
              ) -> tuple[float, Box]:
    """The least (cost, box) of the places, given the labels already placed and the map's
    edges (a place whose fixed cost alone is more than the best so far is not looked at)."""
    best: tuple[float, Box] | None = None
    for fixed, box in ranked:
        if best is not None and fixed > best[0]:
            continue
        clashes = sum(overlaps(box, o) for o in others) + (box[1] < top + 1
                                                            or box[3] > bottom - 1)
        found = (fixed + clashes * CLASH, box)
        best = found if best is None or found < best else best
    assert best is not None  # candidates() always gives places
    return best


def place_labels(spots: Sequence[Spot], ranked: dict[str, Places], top: float,
                 bottom: float) -> bool:
    """Each label at its cheapest place, the largest first (greedy; a label that clashed goes
    first in the next of a few passes), the map spanning `top` to `bottom`; whether every
    label found a place without a clash."""
    widths = {s.id: s.label.size[0] for s in spots}
    first: list[str] = []
    for _ in range(4):
        order = sorted(spots, key=lambda s: (s.id not in first, -widths[s.id]))
        boxes: list[Box] = []
        clashing: list[str] = []
        for spot in order:
            cost, box = _cheapest(ranked[spot.id], boxes, top, bottom)
            spot.label.box = box
            boxes.append(box)
            if cost >= CLASH:
                clashing.append(spot.id)
        if not clashing:
            return True
        first = clashing + [k for k in first if k not in clashing]
    return False


# the room a map may gain for its labels, above and below, least first (below before above)
ROOM = sorted(((up, down) for up in (0.0, 30.0, 60.0, 90.0) for down in (0.0, 30.0, 60.0, 90.0)),
              key=lambda room: (room[0] + room[1], room[0]))


def layout(spots: list[Spot], links: Sequence[tuple[str, str]], height: float
           ) -> tuple[float, float]:
    """The labels placed; the map made taller (below, then above: a region at the top may
    need its label over it) while a label finds no clear place. The map's top (0 or less,
    where its picture starts) and its height. The same board with the same labels is laid
    out once (every screen of a table draws the same map after a step)."""
    key = (tuple((s.id, s.x, s.y, s.label.name, tuple(s.label.festivals), tuple(s.label.pool))
                 for s in spots), tuple(links), height)
    boxes, frame = _laid_out(key)
    for spot in spots:
        spot.label.box = boxes[spot.id]
    return frame


@functools.lru_cache(maxsize=64)
def _laid_out(key: tuple[Any, ...]) -> tuple[dict[str, Box], tuple[float, float]]:
    regions, links, height = key
    spots = [Spot(id_, "", x, y, Label(name, list(festivals), list(pool)))
             for id_, x, y, name, festivals, pool in regions]
    where = {s.id: (s.x, s.y) for s in spots}
    ranked = places(spots, [(where[a], where[b]) for a, b in links])
    for up, down in ROOM:  # none clear: the most room, as placed there
        if place_labels(spots, ranked, -up, height + down):
            break
    return {s.id: s.label.box for s in spots}, (-up, height + up + down)
