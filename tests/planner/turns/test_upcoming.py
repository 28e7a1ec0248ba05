"""The festivals ahead (`planner.turns.upcoming`) and the default horizon that goes past one the
plan shows out of reach (`planner.turns.ahead`), on hand-built states and a sample of the
benchmark's (every state: `benchmarks/bench_table.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.game import FestivalSpace, GameState, load_state
from models.tower import STANDARD
from planner.tower import Status
from planner.turns.replay import advance_to, visible
from planner.turns.upcoming import aimed_festival, first_within_reach, most_promising, outlook
from service.castell import Game
from tests.planner.turns.game_states import BOARD, ahead_roomy, plan_roomy
from tests.planner.turns.plan_checks import explanation_problems, named_festival_problems

ROUND3 = Path(__file__).parents[3] / "examples" / "game" / "round3.json"
STATES = Path(__file__).parents[3] / "benchmarks" / "plan_states"
FAR, GIRONA = "terres-de-lebre", "girona"  # three moves apart on the default board


def _carla(pawn: str, tokens: int, festivals: list[FestivalSpace]) -> GameState:
    """Round 3 of the README's game, Carla to move, her pawn at `pawn` with `tokens` special
    tokens, and only `festivals` ahead."""
    state = load_state(ROUND3, BOARD).without_history()
    players = [p.model_copy(update={"pawn": pawn, "special_tokens": tokens})
               if p.name == "Carla" else p for p in state.players]
    return state.model_copy(update={"players": players, "festivals": festivals})


def test_a_festival_the_pawn_cannot_get_to_is_too_far_and_not_aimed_at() -> None:
    # this round's festival three moves away with one turn and no token: out of reach; the
    # next round's, with two turns, is not (a Move each turn and a special tile's free move)
    near = FestivalSpace(round=3, location="Girona", region=GIRONA, type="I", size_tokens=[7])
    later = FestivalSpace(round=4, location="Figueres", region=GIRONA, type="I",
                          size_tokens=[4])
    state = _carla(FAR, 0, [near, later])
    ahead = outlook(state, BOARD, "Carla", STANDARD)
    assert [a.out_of_reach for a in ahead] == ["too_far", None]
    within = first_within_reach(ahead)
    assert within is not None and within.space == later
    assert aimed_festival(state, BOARD, "Carla", STANDARD) == later
    # the plan agrees: no 1-turn plan stands in Girona
    plan = plan_roomy(state, BOARD, "Carla", rules=STANDARD, turns=1, time_limit=20)
    assert plan.status is Status.OPTIMAL and plan.end is not None
    assert plan.end.player("Carla").pawn != GIRONA


def test_a_team_too_small_for_any_festival_has_none_within_reach() -> None:
    # one casteller at the start of the last round, nobody to recruit: no tower of 4 levels
    state = load_state(STATES / "p3-s31-r10.json", BOARD).without_history()
    me = state.turn.player
    players = [p.model_copy(update={"pool": "1"}) if p.name == me else p
               for p in state.players]
    empty = {g: r.model_copy(update={"castellers": "none"}) for g, r in state.regions.items()}
    state = state.model_copy(update={"players": players, "regions": empty})
    start = advance_to(visible(state), BOARD, me, STANDARD)
    ahead = outlook(start, BOARD, me, STANDARD)
    assert ahead and not any(a.within_reach for a in ahead)
    assert most_promising(ahead) is not None
    found = ahead_roomy(state, BOARD, me, rules=STANDARD, time_limit=20)
    assert found.next_festival is None  # never named as one they could compete in
    assert found.plan.target is not None  # the plan still builds toward one
    assert named_festival_problems(found) == []


# states where the first horizon alone ends at best score 0 naming its own festival (on main
# before item 1: too far for the pawn, or no tower by the plan), and some where it does not
SAMPLE = ["p2-s21-r03.json", "p2-s22-r03.json", "p4-s42-r03.json", "example-round3.json",
          "p3-s32-r09.json"]


@pytest.mark.parametrize("name", SAMPLE)
def test_the_default_plan_names_only_a_festival_it_could_compete_in(name: str) -> None:
    game = Game.load(STATES / name)
    state, me = game.position(), game.state.turn.player
    found = ahead_roomy(state, game.board, me, rules=game.rules)
    plan = found.plan
    assert named_festival_problems(found) == []
    assert explanation_problems(plan, game.board) == []
    later = first_within_reach(found.ahead)
    if later is not None and plan.status is Status.OPTIMAL and found.untried is None:
        assert plan.objective  # a festival is within reach: the default plan competes at one
    if any(a.out_of_reach == "plan_proves_none" for a in found.ahead):
        # it went past a festival a shorter plan proved out of reach: the plan it gives is
        # the one `--turns` of its horizon gives (the same question, the same budget)
        same = plan_roomy(state, game.board, me, rules=game.rules, turns=plan.horizon)
        assert same.objective == plan.objective
