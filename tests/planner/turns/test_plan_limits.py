"""The turn planner holds its time limit on the whole bag at rank 150 (issue 22, item 3): the
model, the lean goal and the replay's exact festival towers (seconds each on such a team) all
stop at the request's deadline; the answer is a replay-checked plan or none (unknown), never
one past the limit."""

from __future__ import annotations

import time
from pathlib import Path

from models.game.consistency import load_state
from planner.stopping import time_limited
from planner.tower.result import Status
from planner.turns.horizon import Goal
from planner.turns.plan import plan_turns
from tests.fuzz.test_limits import rank150  # noqa: F401  (the state builder, a fixture)
from tests.planner.turns.game_states import BOARD
from tests.planner.turns.test_plan import assert_replayed

LIMIT = 5.0


def test_a_plan_on_the_whole_bag_at_rank_150_holds_its_limit(rank150: Path) -> None:  # noqa: F811
    state = load_state(rank150, BOARD)
    started = time.monotonic()
    with time_limited(LIMIT):  # as `service.castell.plans.plan` runs it
        plan = plan_turns(state, BOARD, state.turn.player, rules=state.game_rules,
                          turns=None, goal=Goal("festival"), time_limit=LIMIT)
    assert time.monotonic() - started < LIMIT * 1.1 + 1.0
    if plan.found:
        assert_replayed(plan)
    else:
        assert plan.status is Status.UNKNOWN and plan.clock_hit
