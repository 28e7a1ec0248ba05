"""What a designer asks of a tournament's games, from the records alone: how a final rank in
each skill goes with winning, and which scoring categories the winners win.

- `skill_values`: per skill and final rank, the players who ended the game at that rank, their
  win rate (a shared win counts 1/k) and their mean score. A correlation, not a cause: a
  player who won festivals trained with the tokens they brought.
- `category_wins`: per category, the winners' mean points, the other players' mean, and how
  often a winner had the most of it in their game (a tie for the most counts).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from models.game import CATEGORIES

if TYPE_CHECKING:
    from planner.castell.record import GameRecord


def skill_values(records: Sequence[GameRecord], skills: Sequence[str]
                 ) -> dict[str, list[dict[str, Any]]]:
    wins: dict[tuple[int, int], float] = defaultdict(float)
    scores: dict[tuple[int, int], list[int]] = defaultdict(list)
    for record in records:
        share = 1 / len(record.winners)
        for seat, ranks in enumerate(record.skills):
            won = share if record.players[seat] in record.winners else 0.0
            for k, rank in enumerate(ranks):
                wins[(k, rank)] += won
                scores[(k, rank)].append(record.totals[seat])
    return {name: [{"rank": rank, "players": len(scores[(k, rank)]),
                    "win_rate": round(wins[(k, rank)] / len(scores[(k, rank)]), 4),
                    "mean_score": round(statistics.fmean(scores[(k, rank)]), 3)}
                   for rank in sorted(r for kk, r in scores if kk == k)]
            for k, name in enumerate(skills)}


def category_wins(records: Sequence[GameRecord]) -> dict[str, dict[str, float]]:
    winners: list[list[int]] = [[] for _ in CATEGORIES]
    others: list[list[int]] = [[] for _ in CATEGORIES]
    tops = [0.0] * len(CATEGORIES)
    for record in records:
        share = 1 / len(record.winners)
        for k in range(len(CATEGORIES)):
            most = max(c[k] for c in record.categories)
            for seat, name in enumerate(record.players):
                points = record.categories[seat][k]
                if name in record.winners:
                    winners[k].append(points)
                    tops[k] += share if points == most else 0.0
                else:
                    others[k].append(points)
    return {name: {"winners_mean": _mean(winners[k]), "others_mean": _mean(others[k]),
                   "winner_has_most": round(tops[k] / len(records), 4) if records else 0.0}
            for k, name in enumerate(CATEGORIES)}


def _mean(values: list[int]) -> float:
    return round(statistics.fmean(values), 3) if values else 0.0
