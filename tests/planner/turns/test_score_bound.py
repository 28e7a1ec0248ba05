"""The score goal's bound is sound (issue 23, item 3): on random small states no play of the
horizon ends with more points than `score_caps.score_cap`, neither the plan's (replayed through
the referee, with a generous limit) nor random legal action sequences (claims favoured, so
that tiles, tokens and regions are earned), and the model's own bound is never below it."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from models.game.actions import Action, EndTurn, Special
from models.game.referee import apply, legal_actions
from models.game.state import GameState
from models.tower import Rules, Tile, Tower
from models.tower.pool import Pool
from models.tower.skills import SkillRanks
from planner.tower.api import solve
from planner.tower.questions import TileCheck
from planner.tower.result import Status
from planner.turns.budget import DEFAULT_BUDGET
from planner.turns.full.model import build_plan_model
from planner.turns.horizon import Goal, build_horizon
from planner.turns.replay import advance_to, cached_finder, replay, visible
from planner.turns.score.caps import score_cap, score_caps
from planner.turns.score.stages import points_now
from tests.planner.turns.game_states import BOARD, plan_roomy, played
from tests.planner.turns.test_plan import assert_replayed

SEQUENCES = 12  # random action sequences a state
# (seed, players, round, turns): early and mid-game states, 1 and 2 turns
CASES = [(3, 2, 2, 1), (8, 3, 4, 2), (15, 4, 3, 2), (22, 2, 6, 1)]
# the plans: 1 turn, proven well within the generous limit (2-turn plans took 12-17 s)
PLANNED = [(3, 2, 2, 1), (22, 2, 6, 1), (15, 4, 3, 1)]


def tile_finder(team: Pool, ranks: SkillRanks, spec: Tile, rules: Rules) -> Tower | None:
    """A tower for a tile, as the tower solver finds it (the claims random play may make)."""
    found = solve(TileCheck(spec), team, ranks, rules, time_limit=2.0)
    return found.tower if found.status in (Status.OPTIMAL, Status.FEASIBLE) else None


def random_turn(state: GameState, rng: random.Random) -> list[Action]:
    """One turn of random legal actions of the player to move, claims and special actions
    favoured; without the EndTurn."""
    rules, actions = state.game_rules, []
    for _ in range(8):
        choices = legal_actions(state, BOARD, rules, tile_finder)
        claims = [a for a in choices if isinstance(a, Special) and a.kind == "claim"]
        specials = [a for a in choices if isinstance(a, Special)]
        if claims and rng.random() < 0.8:
            action: Action = rng.choice(claims)
        elif specials and rng.random() < 0.3:
            action = rng.choice(specials)
        else:
            action = rng.choice(choices)
        if isinstance(action, EndTurn):
            break
        state = apply(state, BOARD, action, rules, cached_finder())
        actions.append(action)
    if state.turn.free_special:  # the free special action is owed: take one
        actions.append(next(a for a in legal_actions(state, BOARD, rules) if
                            isinstance(a, Special)))
    return actions


def random_play(start: GameState, player: str, turns: int, rng: random.Random) -> int:
    """The points of `turns` random turns of `player` replayed through the referee."""
    rules = start.game_rules
    plays: list[list[Action]] = []
    state = start
    for _ in range(turns):
        if state.game_over:
            break
        plays.append(random_turn(state, rng))
        state = replay(start, BOARD, player, plays, rules).state
        state = advance_to(state, BOARD, player, rules)
    return points_now(replay(start, BOARD, player, plays, rules).state, BOARD, player)


def start_of(seed: int, players: int, round_: int) -> tuple[GameState, str]:
    state = played(seed, players, round_)
    player = state.turn.player
    state.current.special_tokens = max(2, state.current.special_tokens)
    return advance_to(visible(state), BOARD, player, state.game_rules), player


@pytest.mark.parametrize(("seed", "players", "round_", "turns"), CASES)
def test_no_random_play_beats_the_cap(seed: int, players: int, round_: int, turns: int) -> None:
    start, player = start_of(seed, players, round_)
    horizon = build_horizon(start, BOARD, player, turns, start.game_rules)
    cap = score_cap(build_plan_model(horizon))
    rng = random.Random(seed)
    played_points = [random_play(start, player, turns, rng) for _ in range(SEQUENCES)]
    assert max(played_points) <= cap
    assert cap >= points_now(start, BOARD, player)


@pytest.mark.parametrize(("seed", "players", "round_", "turns"), PLANNED)
def test_the_plan_and_its_bound_respect_the_cap(seed: int, players: int, round_: int,
                                                turns: int) -> None:
    start, player = start_of(seed, players, round_)
    plan = plan_roomy(start, BOARD, player, rules=start.game_rules, turns=turns,
                      goal=Goal("score"), time_limit=30.0)
    assert_replayed(plan)
    horizon = build_horizon(start, BOARD, player, turns, start.game_rules)
    cap = score_cap(build_plan_model(horizon))
    assert plan.objective is not None and plan.bound is not None
    assert plan.objective <= plan.bound <= cap


def test_the_caps_parts_are_the_cap() -> None:
    """The cap is the parts' sum (the joint cap of tiles, tokens and variety in place of
    theirs when lower), and a horizon with more turns never has a lower cap."""
    start, player = start_of(8, 3, 4)
    caps = [score_caps(build_plan_model(build_horizon(start, BOARD, player, n,
                                                      start.game_rules))) for n in (1, 2)]
    for c in caps:
        assert c.total == (c.held + c.best + c.prizes + c.size_tokens
                           + min(c.variety + c.tiles + c.tokens, c.local_and_variety))
        assert len(c.reach) == len(c.claimable)
    assert caps[1].total >= caps[0].total


def test_the_joint_cap_with_no_budget_is_the_parts_caps() -> None:
    """When the joint relaxation of tiles, tokens and variety ends before any assignment, its
    cap is the parts' caps together, never below the joint cap it would have proven (it was
    the variety's alone, which forbade every tile)."""
    start, player = start_of(8, 3, 4)
    caps = score_caps(build_plan_model(build_horizon(start, BOARD, player, 2,
                                                     start.game_rules)))
    assert caps.tiles  # the scenario: tiles in reach
    starved = score_caps(build_plan_model(build_horizon(start, BOARD, player, 2,
                                                        start.game_rules),
                                          budget=replace(DEFAULT_BUDGET, relaxed_work=1e-9)))
    assert starved.local_and_variety == starved.tiles + starved.tokens + starved.variety
    assert starved.local_and_variety >= caps.local_and_variety
