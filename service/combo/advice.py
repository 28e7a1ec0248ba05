"""`combo advise`: every legal action of the player to move, ranked by the final score it leads
to (the advisor in `planner.combo`; the game's own state, never its hidden deck order)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from planner.stopping import time_limited
from service.results.base import output_of
from service.results.combo import ComboAdviceOutput

if TYPE_CHECKING:
    from planner.combo import LastTurn, Value
    from service.combo.asked import AskedComboGame

# planner.combo.MAX_SAMPLES, kept here so that reading the command's options loads no solver
# (a test holds them equal)
MAX_SAMPLES = 10_000


def advise(game: AskedComboGame, player: str | None = None, *, samples: int = 16, seed: int = 0,
           time_limit: float | None = None, last_turn: LastTurn = "own_turn",
           value: Value = "score") -> ComboAdviceOutput:
    """The ranking (`complete` False when the time limit came before every planned sample).
    `player`, as typed at the table, must be the player to move."""
    from planner.combo import advise as rank  # the solvers load with the question

    name = None if player is None else game.player(player).name
    with time_limited(math.inf if time_limit is None else time_limit):
        advice = rank(game.state, name, samples=samples, seed=seed, time_limit=time_limit,
                      last_turn=last_turn, value=value)
    return output_of(ComboAdviceOutput, advice.as_dict())
