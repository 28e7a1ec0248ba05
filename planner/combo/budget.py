"""Every tuning value of the Castle Combo bots and advisor in one frozen object, passed down,
never patched.

A `ComboBudget` says how much work the advisor bot spends on a move (counts, not a clock, so
that its games are reproducible) and how many position values a bot keeps. The arrangement
solver's own budget is its `planner.combo.arrange.Limits` (deterministic units and a wall
backstop), given with each question. Tests and benchmarks pass budgets of their own
(`dataclasses.replace(ComboBudget(), ...)`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

# what a sampled completion is worth: the player's final score ("score", what `advise`
# reports), or that score minus the best opponent's ("margin", what wins a game)
Value = Literal["score", "margin"]


@dataclass(frozen=True)
class ComboBudget:
    """The Castle Combo solvers' tuning (the measurements behind each value beside it)."""

    # the advisor bot's budget, calibrated so that a move costs at most about 1 s of CPU on
    # average (benchmarks/bench_combo.py): rollouts per action, the greedy shortlist's length,
    # what a rollout is worth, and a shortlist spread over different cards and ways of taking
    bot_samples: int = 10
    bot_candidates: int = 5
    bot_value: Value = "margin"
    bot_spread: bool = True
    # the position values a bot's cache (`planner.combo.bots.Values`) keeps before it starts
    # again: rollouts of the same turn revisit the same tableaux many times
    max_cached: int = 200_000

    def __post_init__(self) -> None:
        for each in fields(self):
            value = getattr(self, each.name)
            if isinstance(value, int) and not isinstance(value, bool) and value < 0:
                raise ValueError(f"ComboBudget.{each.name} must not be negative, not {value}")


DEFAULT_COMBO = ComboBudget()
