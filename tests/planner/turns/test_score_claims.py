"""The score goal never misses a claim worth points that the player can make this turn
(issue 23, item 3): a benchmark state edited so that the player stands in a tile's region
with a team that stands its tower and a special token to claim it."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.game.actions import Special
from models.game.consistency import load_state
from models.game.state import GameState
from models.tower.pool import Pool
from planner.tower.api import solve
from planner.tower.questions import TileCheck
from planner.tower.result import Status
from planner.turns.horizon import Goal
from planner.turns.replay import advance_to, replay, visible
from planner.turns.score.stages import points_now
from tests.planner.turns.game_states import BOARD, plan_roomy
from tests.planner.turns.test_plan import assert_replayed

STATES = Path(__file__).resolve().parents[3] / "benchmarks" / "plan_states"
# what the player gets on top of their team: two castellers of every size
EXTRA = Pool.parse("10x2,9x2,8x2,7x2,6x2,5x2,4x2,3x2,2x2,1x2")


def planted(name: str) -> tuple[GameState, Special]:
    """The benchmark state `name` with the player to move given `EXTRA`, a special token, and
    their pawn in the region of the best tile (most points) whose tower the team then stands;
    and the claim of that tile, with the tower the tower solver finds for it."""
    state = load_state(STATES / f"{name}.json", BOARD)
    me = state.current
    team = Pool.from_counts({z: me.team.count(z) + EXTRA.count(z) for z in EXTRA.sizes})
    rows = [(BOARD.tile(t), region) for region, row in state.regions.items()
            for t in row.performance_tiles]
    for tile, region in sorted(rows, key=lambda r: (-r[0].points, r[0].id)):
        found = solve(TileCheck(tile.spec), team, me.ranks, state.game_rules)
        if found.status is Status.OPTIMAL and found.tower is not None:
            me.pool, me.pawn = str(team), region
            me.special_tokens = max(1, me.special_tokens)
            return state, Special(kind="claim", tile=tile.id, tower=str(found.tower))
    raise AssertionError(f"no tile of {name} is in reach of the planted team")


# before the claim-at-once hint, this state's plan found 16 points against 20 for the claim
@pytest.mark.parametrize("name", ["p4-s43-r08"])
def test_the_score_plan_takes_a_claim_it_can_make_at_once(name: str) -> None:
    state, claim = planted(name)
    player = state.turn.player
    start = advance_to(visible(state), BOARD, player, state.game_rules)
    at_once = replay(start, BOARD, player, [[claim]], state.game_rules).state
    claimed = points_now(at_once, BOARD, player)
    assert claimed > points_now(start, BOARD, player)  # the claim is worth points
    plan = plan_roomy(state, BOARD, player, rules=state.game_rules, turns=1,
                      goal=Goal("score"))
    assert_replayed(plan)
    assert plan.objective is not None and plan.objective >= claimed
