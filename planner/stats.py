"""Statistics the tournaments of both games report: the Wilson interval of a win rate, and
intervals by a cluster bootstrap over deals (the designers' report)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (ties count as shared fractions)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


# -- intervals that count clusters (deals), not games ------------------------------------------
#
# A tournament plays each deal from every seat: the games of a deal share its cards, so they
# are not independent (between identical deterministic bots they are the same game, seats
# renamed). A cluster bootstrap resamples whole deals with replacement and recomputes each
# statistic, a ratio of sums (wins over games, points over players), over the deals drawn; the
# 2.5th and 97.5th percentiles of the draws are its 95% interval. Seeded: the same clusters,
# draws and seed give the same intervals.

DRAWS = 2000

Cluster = tuple[tuple[float, ...], tuple[float, ...]]  # per statistic: (numerators, counts)


def ratio(clusters: Sequence[Cluster], k: int) -> float | None:
    """Statistic `k` over all the clusters: its numerators' sum over its counts' (None: no
    count)."""
    count = sum(c[1][k] for c in clusters)
    return sum(c[0][k] for c in clusters) / count if count else None


def _times(n: int, draws: int, rng: random.Random) -> list[list[int]]:
    """Per draw, how many times each of `n` clusters is drawn (n draws with replacement)."""
    out = []
    for _ in range(draws):
        times = [0] * n
        for _ in range(n):
            times[rng.randrange(n)] += 1
        out.append(times)
    return out


def _draws(clusters: Sequence[Cluster], times: Sequence[Sequence[int]]
           ) -> list[list[float | None]]:
    """Per draw, every statistic over the clusters drawn (`times`: per draw, per cluster)."""
    stats = len(clusters[0][0]) if clusters else 0
    out: list[list[float | None]] = []
    for drawn in times:
        picked = [(t, c) for t, c in zip(drawn, clusters, strict=True) if t]
        row: list[float | None] = []
        for k in range(stats):
            count = sum(t * c[1][k] for t, c in picked)
            total = sum(t * c[0][k] for t, c in picked)
            row.append(total / count if count else None)
        out.append(row)
    return out


def percentile_interval(values: Sequence[float | None]) -> tuple[float, float] | None:
    """The 2.5th and 97.5th percentiles (linear between order statistics) of the defined
    values (None: fewer than two)."""
    known = sorted(v for v in values if v is not None)
    if len(known) < 2:
        return None

    def at(q: float) -> float:
        position = q * (len(known) - 1)
        low = math.floor(position)
        high = min(low + 1, len(known) - 1)
        return known[low] + (known[high] - known[low]) * (position - low)

    return (at(0.025), at(0.975))


def cluster_intervals(clusters: Sequence[Cluster], draws: int = DRAWS, seed: int = 1
                      ) -> list[tuple[float, float] | None]:
    """Per statistic, its 95% cluster-bootstrap interval (None: too few clusters with a count
    for it)."""
    rows = _draws(clusters, _times(len(clusters), draws, random.Random(seed)))
    stats = len(clusters[0][0]) if clusters else 0
    return [percentile_interval([row[k] for row in rows]) for k in range(stats)]


def difference_intervals(first: Sequence[Cluster], second: Sequence[Cluster],
                         draws: int = DRAWS, seed: int = 1, paired: bool = False
                         ) -> list[tuple[float, float] | None]:
    """Per statistic, the 95% interval of `second`'s value less `first`'s. `paired`: cluster
    i of each is the same deal (two variants played on the same deals), resampled together;
    otherwise each tournament's clusters are resampled on their own."""
    rng = random.Random(seed)
    if paired and len(first) != len(second):
        raise ValueError("paired clusters come in equal numbers")
    times = _times(len(first), draws, rng)
    a = _draws(first, times)
    b = _draws(second, times if paired else _times(len(second), draws, rng))
    stats = len(first[0][0]) if first else 0
    return [percentile_interval([_less(y[k], x[k]) for x, y in zip(a, b, strict=True)])
            for k in range(stats)]


def _less(value: float | None, other: float | None) -> float | None:
    return None if value is None or other is None else value - other


@dataclass(frozen=True)
class Stat:
    """A statistic's value over all the games, its deal-bootstrap interval, and its sample:
    the weight (games, players or shared wins) and the deals it comes from."""

    value: float | None
    interval: tuple[float, float] | None
    n: float
    deals: int
