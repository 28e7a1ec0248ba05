"""The designers' report's plots (drawsvg, as the project's other pictures): one row per place
in the turn order (or per category), each value a dot on a common axis with its 95% interval
as a bar through it, the value and the interval written at the right, the sample under the
title. `seat_plot`: the win rate per place, against the even share; `category_plot`: the
winners' and the others' points per category; `compare_plot`: two tournaments' win rates per
place, the difference written beside them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import drawsvg as draw

from planner.stats import Stat

_LEFT, _RIGHT, _TOP, _ROW, _LANE = 130, 210, 62, 58, 16
_WIDTH = 760
_COLOURS = ("#1f77b4", "#d62728", "#7f7f7f")
PLACES = ("first", "second", "third", "fourth")

Dot = tuple[float | None, "tuple[float, float] | None", str, str]  # value, interval, colour, text


class _Plot:
    """A picture of rows of dots with intervals on one axis from `low` to `high`."""

    def __init__(self, title: str, note: str, rows: int, low: float, high: float,
                 legend: Sequence[tuple[str, str]] = ()) -> None:
        self.low, self.high = low, high
        self.height = _TOP + _ROW * rows + 56
        self.picture = draw.Drawing(_WIDTH, self.height, font_family="sans-serif")
        self.picture.append(draw.Rectangle(0, 0, _WIDTH, self.height, fill="white"))
        self.picture.append(draw.Text(title, 15, 12, 22, font_weight="bold"))
        self.picture.append(draw.Text(note, 11, 12, 40, fill="#555"))
        x = _LEFT
        for text, colour in legend:
            self.picture.append(draw.Circle(x, 52, 4, fill=colour))
            self.picture.append(draw.Text(text, 11, x + 8, 56))
            x += 9 * len(text) + 30
        self.span = _WIDTH - _LEFT - _RIGHT

    def x(self, value: float) -> float:
        return _LEFT + self.span * (value - self.low) / (self.high - self.low)

    def row(self, n: int, label: str, dots: Sequence[Dot]) -> None:
        top = _TOP + _ROW * n
        self.picture.append(draw.Text(label, 13, 12, top + _ROW / 2 + 4))
        self.picture.append(draw.Line(_LEFT, top + _ROW, _LEFT + self.span, top + _ROW,
                                      stroke="#eee"))
        for lane, (value, interval, colour, text) in enumerate(dots):
            y = top + _ROW / 2 + (lane - (len(dots) - 1) / 2) * _LANE
            if interval is not None:
                self.picture.append(draw.Line(self.x(interval[0]), y, self.x(interval[1]), y,
                                              stroke=colour, stroke_width=3,
                                              stroke_opacity=0.5))
            if value is not None:
                self.picture.append(draw.Circle(self.x(value), y, 5, fill=colour))
            self.picture.append(draw.Text(text, 11, _LEFT + self.span + 12, y + 4,
                                          fill=colour))

    def mark(self, value: float, text: str) -> None:
        """A dashed line across the rows (the even share)."""
        bottom = self.height - 56
        self.picture.append(draw.Line(self.x(value), _TOP, self.x(value), bottom,
                                      stroke="#444", stroke_dasharray="4,3"))
        self.picture.append(draw.Text(text, 10, self.x(value) + 3, _TOP + 10, fill="#444"))

    def axis(self, ticks: Sequence[float], shown: Callable[[float], str], name: str) -> str:
        y = self.height - 50
        self.picture.append(draw.Line(_LEFT, y, _LEFT + self.span, y, stroke="black"))
        for tick in ticks:
            self.picture.append(draw.Line(self.x(tick), y, self.x(tick), y + 5,
                                          stroke="black"))
            self.picture.append(draw.Text(shown(tick), 11, self.x(tick), y + 18,
                                          text_anchor="middle"))
        self.picture.append(draw.Text(name, 12, _LEFT + self.span / 2, y + 36,
                                      text_anchor="middle"))
        return str(self.picture.as_svg())


def _pct(value: float | None, interval: tuple[float, float] | None) -> str:
    if value is None:
        return "-"
    if interval is None:
        return f"{value:.1%}"
    return f"{value:.1%} ({interval[0]:.0%}-{interval[1]:.0%})"


def _place(seat: int) -> str:
    return PLACES[seat] if seat < len(PLACES) else f"seat {seat + 1}"


def seat_plot(title: str, wins: Sequence[Stat], games: int, deals: int) -> str:
    """The win rate of each place in the turn order with its interval, against the even
    share (1 / players)."""
    plot = _Plot(f"{title}: who wins, by place in the turn order",
                 f"{games} games, {deals} deals; 95% intervals resampling the deals; a shared "
                 "win counts 1/k", len(wins), 0.0, 1.0)
    plot.mark(1 / len(wins), f"even share {1 / len(wins):.0%}")
    for seat, stat in enumerate(wins):
        plot.row(seat, f"{_place(seat)} ({stat.n:g} games)",
                 [(stat.value, stat.interval, _COLOURS[0], _pct(stat.value, stat.interval))])
    return plot.axis([i / 10 for i in range(11)], lambda v: f"{v:.0%}", "win rate")


def category_plot(title: str, rows: Sequence[tuple[str, Stat, Stat]]) -> str:
    """Per category the winners' and the others' mean points, with their intervals."""
    top = max([s.interval[1] for _, a, b in rows for s in (a, b) if s.interval is not None]
              + [s.value for _, a, b in rows for s in (a, b) if s.value is not None] + [10.0])
    high = float(-(-int(top + 1) // 5) * 5)
    won = rows[0][1] if rows else None
    note = ("points per player; " + (f"winners {won.n:g} (shared wins weighted 1/k), "
                                     f"others {rows[0][2].n:g}, {won.deals} deals; "
                                     if won is not None else "")
            + "95% intervals resampling the deals")
    plot = _Plot(f"{title}: what the winners score", note, len(rows), 0.0, high,
                 [("the winners", _COLOURS[0]), ("the others", _COLOURS[2])])
    for n, (name, winners, others) in enumerate(rows):
        plot.row(n, name, [
            (winners.value, winners.interval, _COLOURS[0], _points(winners)),
            (others.value, others.interval, _COLOURS[2], _points(others))])
    step = 5 if high <= 40 else 10
    return plot.axis([float(t) for t in range(0, int(high) + 1, step)], lambda v: f"{v:g}",
                     "mean points in the category")


def _points(stat: Stat) -> str:
    if stat.value is None:
        return "-"
    if stat.interval is None:
        return f"{stat.value:.1f}"
    return f"{stat.value:.1f} ({stat.interval[0]:.1f}-{stat.interval[1]:.1f})"


def compare_plot(labels: tuple[str, str],
                 rows: Sequence[tuple[Stat, Stat, float | None, tuple[float, float] | None]],
                 games: int, other_games: int) -> str:
    """Two tournaments' win rates per place in the turn order, each with its interval, and
    the difference (the second's less the first's) with its interval."""
    plot = _Plot(f"{labels[1]} against {labels[0]}: who wins, by place in the turn order",
                 f"{games} and {other_games} games; 95% intervals resampling the deals; "
                 "a shared win counts 1/k", len(rows), 0.0, 1.0,
                 [(labels[0], _COLOURS[0]), (labels[1], _COLOURS[1])])
    plot.mark(1 / len(rows), f"even share {1 / len(rows):.0%}")
    for seat, (first, second, difference, interval) in enumerate(rows):
        change = ("" if difference is None else f"{difference:+.1%}" + (
            "" if interval is None else f" ({interval[0]:+.0%} to {interval[1]:+.0%})"))
        plot.row(seat, _place(seat), [
            (first.value, first.interval, _COLOURS[0], _pct(first.value, first.interval)),
            (second.value, second.interval, _COLOURS[1], _pct(second.value, second.interval)),
            (None, None, "#000", f"difference {change}")])
    return plot.axis([i / 10 for i in range(11)], lambda v: f"{v:.0%}", "win rate")
