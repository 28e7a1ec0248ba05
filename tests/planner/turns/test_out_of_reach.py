"""Plans that still advise when the goal is out of reach, and explain themselves."""

from __future__ import annotations

from pathlib import Path

from models.game.actions import Move, Recruit, Special
from models.game.consistency import load_state
from models.game.setup import new_game
from models.tower import STANDARD
from planner.tower.result import Status
from planner.turns.horizon import Goal
from tests.planner.turns.game_states import BOARD, ahead_roomy, plan_roomy
from tests.planner.turns.test_plan import assert_replayed

ROUND3 = Path(__file__).parents[3] / "examples" / "game" / "round3.json"


def test_a_fresh_game_gets_a_plan_toward_the_first_festival() -> None:
    state = new_game(BOARD, 3, seed=4)
    first = min(f.round for f in state.festivals)
    assert first > 1  # no festival in a 1-turn horizon: the goal itself is out of reach
    plan = plan_roomy(state, BOARD, state.turn.player, rules=STANDARD, turns=1, time_limit=30)
    assert_replayed(plan)
    assert plan.status is Status.OPTIMAL and plan.objective == 0
    assert plan.target is not None and plan.target.round == first
    # the answer around the plan names that festival as the next one (`PlanResult`)
    found = ahead_roomy(state, BOARD, state.turn.player, rules=STANDARD, turns=1, time_limit=30)
    assert found.next_festival is not None and found.next_festival.round == first
    # the free recruits are in the plan: the team grows, and each step says why
    assert plan.end is not None
    assert plan.end.player(plan.player).team.total > state.current.team.total
    actions = plan.turns[0].actions
    assert any(isinstance(a, Recruit) for a in actions)
    assert [s.action for s in plan.steps[0]] == list(actions)
    assert all(s.reason for s in plan.steps[0])
    assert all(s.cost == "free" for s in plan.steps[0] if isinstance(s.action, Recruit))
    names = [t.name for t in plan.tie_breaks]
    assert "tallest valid tower at the end" in names
    assert names[-1] == "castellers in the team"


def test_an_unreachable_tile_says_why_and_the_fewest_turns() -> None:
    # round 3, Anna in Camp de Tarragona: LP13 (shape:4-3-2-1-1) lies in Terres de l'Ebre
    state = load_state(ROUND3, BOARD)
    plan = plan_roomy(state, BOARD, "Anna", rules=STANDARD, turns=1, goal=Goal("tile", "LP13"),
                      time_limit=30)
    assert plan.status is Status.INFEASIBLE and not plan.turns
    assert plan.why_not and "Terres de l'Ebre" in plan.why_not[0]
    assert plan.fewest_turns is not None and plan.fewest_turns > 1
    # the fewest: that many turns do claim it (and fewer do not, by the search's order)
    longer = plan_roomy(state, BOARD, "Anna", rules=STANDARD, turns=plan.fewest_turns,
                        goal=Goal("tile", "LP13"), time_limit=30)
    assert_replayed(longer)
    assert longer.found and longer.end is not None
    assert "LP13" in longer.end.player("Anna").claimed_tiles


def test_a_what_if_fixes_the_first_action_and_reports_the_difference() -> None:
    # round 4 (Anna's next turn): the festival is in Comarques Centrals, next to Anna's Camp
    # de Tarragona; the what-if moves her the other way first
    state = load_state(ROUND3, BOARD)
    away = Move(to="terres-de-lebre")
    plan = plan_roomy(state, BOARD, "Anna", rules=STANDARD, turns=1, time_limit=20, fixed=[away])
    assert_replayed(plan)
    free = plan.unfixed
    assert free is not None and free.status is Status.OPTIMAL and free.objective
    assert plan.turns[0].actions[0] == away != free.turns[0].actions[0]
    # both proven: a fixed first move can only cost (here the paid special move makes up for it)
    assert plan.objective is not None and plan.objective <= free.objective
    for steps in plan.steps:  # only a special action is ever paid
        for step in steps:
            special = isinstance(step.action, Special)
            assert step.cost in (("paid", "free special") if special else ("free",))
