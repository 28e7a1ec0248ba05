"""The player's chance to win and expected final margin from where they ask (issue 51).

Two models over what the player sees when they ask for advice: the rounds left after this one,
their margin now to the best rival, the points the advised plan adds by its horizon's end, and
the number of players. The chance is a logistic model, the margin a linear one. Both are
fitted by `benchmarks/fit_chances.py` on whole games that followed the default advice against
the panel of rival styles (`benchmarks/bench_panel.py`, every deal played from every seat).
The fit checks its predictions against the outcomes: the reliability table in deciles and the
Brier score, each prediction made by a model fitted without its own deal.

The coefficients are data (`chances.json`), written by the fit with the games behind them. A
model fitted on fewer than `LEAST_PREDICTIONS` calls is not shown: too few games to trust the
number, so the advice says nothing of its chances rather than a guess.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from models.game import Board, GameState, score_player
from planner.turns.request import Chances

MODEL = Path(__file__).with_name("chances.json")
# the fewest advice calls (each with its game's outcome) a shown model is fitted on: its
# deciles then hold 50 predictions each
LEAST_PREDICTIONS = 500


@dataclass(frozen=True)
class Asked:
    """What the models read, all of it what the player sees when they ask."""

    rounds_left: int  # rounds after this one
    margin_now: int  # the player's points less the best rival's
    gain: int  # the points the plan adds by its horizon's end
    players: int

    def features(self) -> tuple[float, ...]:
        """The models' inputs, scaled to about one (the first is the constant)."""
        left = self.rounds_left / 10
        return (1.0, left, self.margin_now / 10, self.gain / 10, self.players - 3.0,
                left * self.margin_now / 10)

    @staticmethod
    def players_of(features: Sequence[float]) -> int:
        """The number of players `features` were made for (the inverse of its part of
        `features`)."""
        return round(features[4]) + 3


@dataclass(frozen=True)
class Model:
    """The fitted coefficients (in `Asked.features` order) and the calls behind them."""

    win: tuple[float, ...]
    margin: tuple[float, ...]
    predictions: int
    games: int
    # the numbers of players of the games it was fitted on (empty: not recorded, any): a
    # game of another number gets no chances, which would be a guess
    players: tuple[int, ...] = ()

    def shows(self, players: int) -> bool:
        """Whether it gives chances in a game of `players` players."""
        return not self.players or players in self.players

    @staticmethod
    def of(data: dict[str, Any]) -> Model:
        return Model(tuple(float(x) for x in data["win"]),
                     tuple(float(x) for x in data["margin"]), int(data["predictions"]),
                     int(data["games"]), tuple(int(n) for n in data.get("players", ())))


def logistic(weights: Sequence[float], features: Sequence[float]) -> float:
    """The logistic model's probability."""
    z = sum(w * x for w, x in zip(weights, features, strict=True))
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def linear(weights: Sequence[float], features: Sequence[float]) -> float:
    return sum(w * x for w, x in zip(weights, features, strict=True))


@cache
def fitted(path: Path = MODEL) -> Model | None:
    """The fitted model (None: none fitted yet, or on too few calls to show)."""
    try:
        model = Model.of(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return model if model.predictions >= LEAST_PREDICTIONS else None


def asked(state: GameState, board: Board, player: str, points_at_end: int | None) -> Asked:
    """What the models read for `player` asking in `state`, their plan ending with
    `points_at_end` points (None: no plan, no gain)."""
    points = {p.name: score_player(p, board).total for p in state.players}
    mine = points[player]
    best = max(v for k, v in points.items() if k != player)
    gain = 0 if points_at_end is None else max(0, points_at_end - mine)
    return Asked(board.rounds - state.round, mine - best, gain, len(state.players))


def chances(state: GameState, board: Board, player: str, points_at_end: int | None,
            model: Model | None = None) -> Chances | None:
    """The player's chances from here (None: no model fitted on enough games, or on none of
    this game's number of players)."""
    model = model or fitted()
    if model is None or not model.shows(len(state.players)):
        return None
    features = asked(state, board, player, points_at_end).features()
    return Chances(logistic(model.win, features), linear(model.margin, features), model.games)
