"""Information discipline: a plan uses only what the player can see, never a future draw."""

from __future__ import annotations

from pathlib import Path

from models.game import legal_actions, score_player
from models.game.consistency import load_state
from models.game.state import GameState
from models.tower import STANDARD
from models.tower.pool import Pool
from planner.turns.horizon import Goal
from planner.turns.plan import Plan
from planner.turns.replay import advance_to, visible
from tests.planner.turns.game_states import BOARD, plan_roomy, played

ROUND3 = Path(__file__).parents[3] / "examples" / "game" / "round3.json"


def _advice(plan: Plan) -> tuple[object, ...]:
    return (plan.status, plan.objective, plan.turns,
            [(f.round, f.location, f.entry) for f in plan.festivals], plan.assumptions,
            plan.refills)


def test_the_plan_is_the_same_whatever_the_bag_holds() -> None:
    # round 3, Carla to play: Anna's first planned turn comes after the end-of-round-3
    # refill, which tops up Camp de Tarragona (empty now) from the bag
    state = load_state(ROUND3, BOARD)
    assert 3 in BOARD.refill_rounds and state.regions["camp-de-tarragona"].supply.total == 0
    planted = []
    for bag, seed in ((state.bag, state.seed), ("10x12,9x12", 7), ("1x12,2x12", 8), (None, 0)):
        other = state.model_copy(deep=True)
        other.bag, other.seed = bag, seed
        planted.append(other)
    # the draws differ, so a plan that drew them could differ: the refills are not alike
    drawn = {str(advance_to(s, BOARD, "Anna", STANDARD).regions["camp-de-tarragona"].supply)
             for s in planted[:3]}
    assert len(drawn) == 3
    plans = [plan_roomy(s, BOARD, "Anna", rules=STANDARD,
                        turns=2, goal=Goal("tile", "LP02"), time_limit=30)
             for s in planted]
    assert plans[0].found
    assert all(_advice(p) == _advice(plans[0]) for p in plans[1:])
    # and no plan recruits a casteller nobody can see now
    for plan in plans:
        assert _recruits_seen(plan, state)
    assert plans[0].refills and plans[0].refills[0].round == 3
    assert "camp-de-tarragona" in plans[0].refills[0].regions


def _recruits_seen(plan: Plan, state: GameState) -> bool:
    assert plan.end is not None
    visible = Pool.of([size for r in state.regions.values() for size in r.supply])
    me = state.player(plan.player)
    gained = plan.end.player(plan.player).team.counts()
    return all(n - me.team.count(size) <= visible.count(size) for size, n in gained.items())


def test_the_searches_see_the_festivals_held_without_their_results() -> None:
    state = played(6, 3, 7)  # the festivals of rounds 3 to 6 held
    held = [s.location for s in state.festivals if s.result is not None]
    assert len(held) >= 4
    seen = visible(state)
    assert seen.bag is None and seen.seed == 0
    assert all(s.result is None for s in seen.festivals)  # the record's, not the searches'
    assert [s.resolved for s in seen.festivals] == [s.resolved for s in state.festivals]
    assert [s.location for s in state.festivals if s.result is not None] == held  # untouched
    # nothing a player scores or may do reads them
    assert [score_player(p, BOARD) for p in seen.players] == \
        [score_player(p, BOARD) for p in state.players]
    assert legal_actions(seen, BOARD, STANDARD) == legal_actions(state, BOARD, STANDARD)
