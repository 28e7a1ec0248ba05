"""Hand-built planning cases: each needs one particular idea to be found."""

from __future__ import annotations

from models.game.actions import Recruit, Special, Train
from models.game.regions import RegionGraph
from models.game.setup import new_game
from models.game.state import FestivalSpace, GameState
from models.tower.festival import Festival
from models.tower.pool import Pool
from models.tower.rules import STANDARD
from models.tower.skills import Skill, SkillRanks
from planner.tower.api import solve
from planner.tower.questions import FestivalTower
from planner.tower.result import Status
from planner.turns.horizon import Goal
from tests.planner.turns.game_states import BOARD, plan_roomy
from tests.planner.turns.test_plan import assert_replayed

GRAPH = RegionGraph(BOARD)


def bare_state(pawn: str, team: str, skills: str, tokens: int, rotation: int,
               festival: tuple[int, str, list[int]] | None = None, round_: int = 4
               ) -> GameState:
    """Anna's turn on an emptied board: no castellers to recruit, no tiles, one festival."""
    state = new_game(BOARD, 2, seed=1)
    state.round = round_
    state.wheel_rotation = rotation
    state.wheel_side = "advanced"
    state.bag = "none"
    for region in state.regions.values():
        region.castellers = "none"
        region.performance_tiles = []
    me = state.current
    me.pawn, me.pool, me.skills, me.special_tokens = pawn, team, skills, tokens
    state.players[1].pawn = "girona"
    state.festivals = []
    if festival is not None:
        at_round, region, tokens_ = festival
        state.festivals = [FestivalSpace(round=at_round, location="Test", region=region,
                                         type="I", size_tokens=tokens_)]
    return state


def best_score(team: str, skills: str, tokens: list[int]) -> int | None:
    result = solve(FestivalTower(Festival(tuple(tokens))), Pool.parse(team),
                   SkillRanks.parse(skills), STANDARD)
    return result.objective


def test_a_festival_two_regions_away_needs_the_special_move() -> None:
    # rotation 4, advanced side: no region within one move of Alt Pirineu offers a special
    # tile, so only a paid special move reaches Barcelona (two moves away) this turn
    start, target = "alt-pirineu-aran", "barcelona"
    assert GRAPH.distance(start, target) == 2
    team, skills = "9x4,7x3,5x2,3", "width=1"
    expected = best_score(team, skills, [7])
    assert expected
    with_token = bare_state(start, team, skills, 1, 4, (4, target, [7]))
    plan = plan_roomy(with_token, BOARD, "Anna", rules=STANDARD, turns=1, time_limit=30)
    assert_replayed(plan)
    assert plan.status is Status.OPTIMAL and plan.objective == expected
    assert any(isinstance(a, Special) and a.kind == "move" for a in plan.turns[0].actions)

    no_token = bare_state(start, team, skills, 0, 4, (4, target, [7]))
    plan = plan_roomy(no_token, BOARD, "Anna", rules=STANDARD, turns=1, time_limit=30)
    assert plan.status is Status.OPTIMAL and plan.objective == 0


def test_a_skill_offered_two_regions_away_next_round_is_fetched() -> None:
    # rotation 3, advanced side: Mix faces the All Regions slot this round (no one may train
    # it) and Comarques Centrals next round, two moves from Terres de l'Ebre
    start, target = "terres-de-lebre", "comarques-centrals"
    assert GRAPH.distance(start, target) == 2
    team, skills = "9x3,8,7x3,5x2,3", "width=1"
    # one training left in the two turns: of the skills, only Mix makes a 4-level tower
    # with the 8 (9,9,9,8/7,7,7/5,5/3)
    for other in ("balance", "base", "strength", "width"):
        assert best_score(team, f"{skills},{other}=1".replace("width=1,width=1", "width=2"),
                          [8]) is None
    expected = best_score(team, "width=1,mix=1", [8])
    assert expected
    state = bare_state(start, team, skills, 0, 3, (5, target, [8]))
    state.turn.trained = True
    plan = plan_roomy(state, BOARD, "Anna", rules=STANDARD, turns=2, time_limit=30)
    assert_replayed(plan)
    assert plan.status is Status.OPTIMAL and plan.objective == expected
    assert Train(skill=Skill.MIX.value) in plan.turns[1].actions
    assert plan.end is not None and plan.end.player("Anna").ranks.mix == 1


def test_a_tile_that_needs_one_more_recruit() -> None:
    start = "lleida"
    state = bare_state(start, "9x3,7x2", "none", 1, 0)
    state.regions[start].performance_tiles = ["LP01"]  # shape:3-2-1
    assert BOARD.tile("LP01").tile == "shape:3-2-1"
    state.regions[start].castellers = "5"
    plan = plan_roomy(state, BOARD, "Anna", rules=STANDARD,
                      turns=1, goal=Goal("tile", "LP01"), time_limit=30)
    assert_replayed(plan)
    assert plan.status is Status.OPTIMAL and plan.objective == state.round
    actions = list(plan.turns[0].actions)
    recruit = next(i for i, a in enumerate(actions) if isinstance(a, (Recruit, Special))
                   and (getattr(a, "sizes", None) == [5] or getattr(a, "size", None) == 5))
    claim = next(i for i, a in enumerate(actions) if isinstance(a, Special) and a.tile)
    assert recruit < claim
    assert plan.end is not None and "LP01" in plan.end.player("Anna").claimed_tiles

    state.regions[start].castellers = "none"
    plan = plan_roomy(state, BOARD, "Anna", rules=STANDARD,
                      turns=1, goal=Goal("tile", "LP01"), time_limit=30)
    assert plan.status is Status.INFEASIBLE and not plan.turns
