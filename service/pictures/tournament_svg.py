"""The score distributions of a tournament of either game as SVG (drawsvg): one row per bot, each
game's final score a dot on a common points axis (dots of equal scores stacked, packed closer
when a stack is tall: every game drawn), the mean marked, and the win rate written beside the
row."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Protocol

import drawsvg as draw

_LEFT, _RIGHT, _TOP, _ROW, _DOT = 150, 120, 40, 90, 4.0
_WIDTH = 760
_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


def score_distributions(scores: Mapping[str, Sequence[int]], win_rates: Mapping[str, float],
                        title: str) -> str:
    """The picture: `scores` per bot (every game's final score), `win_rates` per bot."""
    bots = list(scores)
    height = _TOP + _ROW * len(bots) + 50
    picture = draw.Drawing(_WIDTH, height, font_family="sans-serif")
    picture.append(draw.Rectangle(0, 0, _WIDTH, height, fill="white"))
    picture.append(draw.Text(title, 15, 12, 24, font_weight="bold"))
    every = [s for row in scores.values() for s in row]
    low, high = _axis(min(every, default=0), max(every, default=10))
    span = _WIDTH - _LEFT - _RIGHT

    def x_of(points: float) -> float:
        return _LEFT + span * (points - low) / (high - low)

    for n, bot in enumerate(bots):
        base = _TOP + _ROW * (n + 1) - 15
        colour = _PALETTE[n % len(_PALETTE)]
        picture.append(draw.Text(bot, 14, 12, base - 10))
        picture.append(draw.Line(_LEFT, base, _LEFT + span, base, stroke="#bbb"))
        stacked: Counter[int] = Counter()
        # a tall stack is packed closer, never cut: every game is a dot in its row
        tallest = max(Counter(scores[bot]).values(), default=1)
        step = min(2 * _DOT * 0.9, (_ROW - 20 - 2 * _DOT) / max(tallest - 1, 1))
        for points in sorted(scores[bot]):
            stacked[points] += 1
            y = base - _DOT - step * (stacked[points] - 1)
            picture.append(draw.Circle(x_of(points), y, _DOT, fill=colour, fill_opacity=0.6))
        if scores[bot]:
            mean = sum(scores[bot]) / len(scores[bot])
            picture.append(draw.Line(x_of(mean), base + 4, x_of(mean), base - _ROW + 25,
                                     stroke="black", stroke_width=2))
            picture.append(draw.Text(f"mean {mean:.1f}", 11, x_of(mean) + 4, base - _ROW + 30))
        picture.append(draw.Text(f"wins {win_rates.get(bot, 0.0):.0%}", 13,
                                 _LEFT + span + 12, base - 10))
        picture.append(draw.Text(f"{len(scores[bot])} games", 11, _LEFT + span + 12, base + 4,
                                 fill="#555"))
    axis_y = _TOP + _ROW * len(bots) + 10
    picture.append(draw.Line(_LEFT, axis_y, _LEFT + span, axis_y, stroke="black"))
    step = _tick(high - low)
    tick = low
    while tick <= high:
        picture.append(draw.Line(x_of(tick), axis_y, x_of(tick), axis_y + 5, stroke="black"))
        picture.append(draw.Text(str(tick), 11, x_of(tick), axis_y + 18, text_anchor="middle"))
        tick += step
    picture.append(draw.Text("final score (points)", 12, _LEFT + span / 2, axis_y + 34,
                             text_anchor="middle"))
    return str(picture.as_svg())


def _axis(low: int, high: int) -> tuple[int, int]:
    """Round ends of the points axis, never empty."""
    step = _tick(max(high - low, 10))
    low = (min(low, 0) // step) * step
    high = -(-max(high, low + 10) // step) * step
    return low, high


def _tick(span: int) -> int:
    """A tick step that gives 5 to 12 ticks."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500):
        if span / step <= 12:
            return step
    return 1000


class _Played(Protocol):
    @property
    def bots(self) -> tuple[str, ...]: ...

    @property
    def totals(self) -> tuple[int, ...]: ...


def tournament_scores(records: Sequence[_Played], win_rates: Mapping[str, float],
                      games: int) -> str:
    """A tournament of either game drawn: every game's final score per bot (the bots of
    `win_rates`, in its order), and the bot's win rate."""
    scores: dict[str, list[int]] = {bot: [] for bot in win_rates}
    for record in records:
        for bot, total in zip(record.bots, record.totals, strict=True):
            scores[bot].append(total)
    seats = len(records[0].bots) if records else 0
    title = f"{games} games of {seats} players: final scores per bot"
    return score_distributions(scores, win_rates, title)
