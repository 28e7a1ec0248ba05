"""Fitting the chances' models (`planner.turns.win.chances`) and checking their calibration:
plain least squares and a logistic regression by iteratively reweighted least squares, with a
small ridge so that a thin sample still has one answer; deterministic (no random start).

The rows come from `benchmarks/bench_panel.py`'s game lines: each advice call of the advised
seat (what it saw: `seen_at`) with its game's outcome (a shared win counts 1/k). The
calibration is honest: each call's prediction comes from the models fitted without the call's
deal (every game of a deal shares its cards), then the predictions are put in deciles against
what happened.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from planner.turns.win.chances import Asked, Model, linear, logistic

RIDGE = 1e-2  # the penalty on every weight but the constant's (features are about one)


@dataclass(frozen=True)
class Row:
    """One advice call with its game's outcome."""

    deal: int
    game: int  # the game's index in its tournament (one table's file)
    features: tuple[float, ...]
    won: float  # 1, 0, or 1/k for a win shared by k
    margin: int  # the final margin to the best rival


def rows_of(lines: Iterable[dict[str, Any]], rounds: int, bot: str = "advisor",
            table: int = 0) -> list[Row]:
    """The rows of one table's `bench_panel` game lines (a line without calls' records adds
    none), on a board of `rounds` rounds; `table` keeps the games of several tables apart."""
    rows = []
    for line in lines:
        record, seen = line["record"], line["calls"].get("seen_at", [])
        seat = list(record["bots"]).index(bot)
        me = record["players"][seat]
        winners = record["winners"]
        won = 1 / len(winners) if me in winners else 0.0
        totals = record["totals"]
        margin = totals[seat] - max(t for i, t in enumerate(totals) if i != seat)
        for call in seen:
            gain = 0 if call["objective"] is None else max(0, call["objective"] - call["mine"])
            asked = Asked(rounds - int(call["round"]), call["mine"] - call["best_rival"], gain,
                          len(record["players"]))
            rows.append(Row(int(record["deal_seed"]), table * 100_000 + int(record["index"]),
                            asked.features(), won, margin))
    return rows


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """The solution of a x = b (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [[*row, rhs] for row, rhs in zip(a, b, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            raise ValueError("the features do not vary enough to fit")
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def _weighted_normal(xs: Sequence[Sequence[float]], ws: Sequence[float],
                     zs: Sequence[float]) -> list[float]:
    """The ridge-penalised weighted least squares weights of z on x."""
    k = len(xs[0])
    a = [[sum(w * x[i] * x[j] for x, w in zip(xs, ws, strict=True)) for j in range(k)]
         for i in range(k)]
    for i in range(1, k):  # the penalty grows with the weight of the rows, as the fit does
        a[i][i] += RIDGE * sum(ws)
    b = [sum(w * x[i] * z for x, w, z in zip(xs, ws, zs, strict=True)) for i in range(k)]
    return _solve(a, b)


def fit_linear(xs: Sequence[Sequence[float]], ys: Sequence[float]) -> list[float]:
    return _weighted_normal(xs, [1.0] * len(xs), ys)


def fit_logistic(xs: Sequence[Sequence[float]], ys: Sequence[float],
                 rounds: int = 25) -> list[float]:
    """Logistic regression by iteratively reweighted least squares (`ys` in 0..1)."""
    weights = [0.0] * len(xs[0])
    for _ in range(rounds):
        ps = [logistic(weights, x) for x in xs]
        ws = [max(p * (1 - p), 1e-6) for p in ps]
        zs = [sum(w * v for w, v in zip(weights, x, strict=True)) + (y - p) / s
              for x, y, p, s in zip(xs, ys, ps, ws, strict=True)]
        new = _weighted_normal(xs, ws, zs)
        if max(abs(a - b) for a, b in zip(new, weights, strict=True)) < 1e-9:
            return new
        weights = new
    return weights


def fit(rows: Sequence[Row]) -> Model:
    """Both models on `rows`."""
    xs = [r.features for r in rows]
    games = len({r.game for r in rows})
    players = tuple(sorted({Asked.players_of(r.features) for r in rows}))
    return Model(tuple(fit_logistic(xs, [r.won for r in rows])),
                 tuple(fit_linear(xs, [float(r.margin) for r in rows])), len(rows), games,
                 players)


def held_out(rows: Sequence[Row]) -> list[tuple[float, float, float, int]]:
    """Per row: the chance and margin predicted by the models fitted without its deal, then
    what happened (won, margin)."""
    out = []
    for deal in sorted({r.deal for r in rows}):
        model = fit([r for r in rows if r.deal != deal])
        out += predicted_by(model, [r for r in rows if r.deal == deal])
    return out


def predicted_by(model: Model, rows: Sequence[Row]) -> list[tuple[float, float, float, int]]:
    """Per row, as `held_out`: the chance and margin `model` predicts, then what happened. On
    games the model was not fitted on (the advice's games since its fit), this says whether
    the chances it shows still hold."""
    return [(logistic(model.win, r.features), linear(model.margin, r.features), r.won,
             r.margin) for r in rows]


@dataclass(frozen=True)
class Decile:
    """Predictions from `low` to `high`: how many, their mean, and the wins they saw."""

    low: float
    high: float
    count: int
    predicted: float
    happened: float


def reliability(pairs: Sequence[tuple[float, float]], bins: int = 10) -> list[Decile]:
    """(predicted chance, outcome) pairs in `bins` equal ranges of the chance."""
    table = []
    for k in range(bins):
        low, high = k / bins, (k + 1) / bins
        inside = [(p, y) for p, y in pairs if low <= p < high or (k == bins - 1 and p == 1)]
        if inside:
            table.append(Decile(low, high, len(inside), sum(p for p, _ in inside) / len(inside),
                                sum(y for _, y in inside) / len(inside)))
        else:
            table.append(Decile(low, high, 0, 0.0, 0.0))
    return table


def brier(pairs: Sequence[tuple[float, float]]) -> float:
    """The mean squared difference of the predicted chance and the outcome."""
    return sum((p - y) ** 2 for p, y in pairs) / len(pairs)
