"""The turn planner: the best actions for a player's next turns, proven by CP-SAT and replayed
through the referee before anyone sees them."""

from __future__ import annotations

import time
from dataclasses import dataclass

from models.errors import SpecError
from models.game import Action, Board, Entry, GameState, Special
from models.tower import STANDARD, Rules
from planner.tower import DETERMINISTIC_PER_SECOND, Status
from planner.turns.extract import turn_actions
from planner.turns.goals import goal_stages, points_without_prizes
from planner.turns.horizon import Goal, build_horizon
from planner.turns.model import build_plan_model, hint_idle
from planner.turns.replay import Refill, Replay, advance_to, replay, visible
from planner.turns.stages import solve_stages

DEFAULT_PLAN_TIME_LIMIT = 10.0
LONG_HORIZON = 3  # turns; longer models spend most of a short time limit in full presolve
STAGES_SHARE = 0.8  # of the time limit's deterministic worth, for the solve's stages


@dataclass(frozen=True)
class PlannedTurn:
    round: int
    actions: tuple[Action, ...]


@dataclass(frozen=True)
class PlannedFestival:
    """A festival of the horizon as the referee resolved it in the replay."""

    round: int
    location: str
    region: str
    entry: Entry  # the player's


@dataclass(frozen=True)
class TieBreak:
    name: str
    value: int | None
    proven: bool


@dataclass(frozen=True)
class Plan:
    goal: Goal
    player: str
    status: Status
    objective: int | None  # the goal's value in the replayed plan (see `goal_value`)
    model_objective: int | None  # the value the solver claims (equal when proven)
    bound: float | None  # no plan does better than this (the solver's proof)
    turns: tuple[PlannedTurn, ...]
    festivals: tuple[PlannedFestival, ...]
    assumptions: tuple[str, ...]
    tie_breaks: tuple[TieBreak, ...]
    wall_time_s: float
    goal_time_s: float  # of which the solve for the goal itself (before the tie-breaks)
    branches: int
    start: GameState  # the state the plan starts from (the player's turn), bag hidden
    end: GameState | None  # the replayed state after the plan
    refills: tuple[Refill, ...] = ()  # refills in or before the plan: unknown, not counted on
    clock_hit: bool = False  # the wall clock stopped a solve: this answer may not repeat

    @property
    def found(self) -> bool:
        return self.end is not None


def plan_turns(state: GameState, board: Board, player: str, *, turns: int = 3,
               goal: Goal | None = None, rules: Rules = STANDARD, cautious: bool = False,
               time_limit: float = DEFAULT_PLAN_TIME_LIMIT, workers: int = 1, seed: int = 0
               ) -> Plan:
    """Plan `turns` turns of `player` from `state` (the opponents' turns before theirs are
    ended first, with no actions), for `goal`."""
    started = time.perf_counter()
    goal = goal or Goal()
    state.player(player)  # an unknown name is a SpecError here
    # information discipline: the plan sees no refill beyond this moment, the bag stays hidden
    before: list[Refill] = []
    start = advance_to(visible(state), board, player, rules, refills=before)
    if state.game_over:
        raise SpecError("the game is over: there are no turns left to plan")
    if start.game_over:
        raise SpecError(f"the game ends before {player}'s next turn")
    horizon = build_horizon(start, board, player, turns, rules, cautious)
    model = build_plan_model(horizon, {goal.tile or ""} if goal.kind == "tile" else None)
    if goal.kind != "tile":  # doing nothing meets the other goals (badly)
        hint_idle(model)
    stages = goal_stages(model, goal)
    # the same plan on any machine: the stages get a deterministic budget (a share of the time
    # limit's worth, the rest is for building the model and the replay), and the wall clock
    # left is only a safety net (keeping a little time for the replay after the solve)
    remaining = max(0.1, 0.9 * time_limit - (time.perf_counter() - started))
    work = STAGES_SHARE * DETERMINISTIC_PER_SECOND * time_limit
    # measured in benchmarks/bench_plan.py: the LP relaxation of the plan model is weak, and
    # without it the search proves plans about twice as fast
    result, solver = solve_stages(model.model, stages, time_limit=remaining, workers=workers,
                                  seed=seed, linearization=0,
                                  light_presolve=len(horizon.turns) > LONG_HORIZON, work=work,
                                  hinted=goal.kind != "tile")
    assumptions = horizon.assumptions
    if before:
        assumptions = (*assumptions, "castellers the bag adds at the end of round "
                       f"{before[0].round}, before {player}'s turn, are unknown now and not "
                       "counted on")
    if not result.values:
        return Plan(goal, player, result.status, None, None, result.first_bound, (), (),
                    assumptions, (), time.perf_counter() - started, result.first_time_s,
                    result.branches, start, None, tuple(before), result.clock_hit)
    actions = [turn_actions(model, solver, t) for t in range(len(horizon.turns))]
    if goal.kind == "tile":  # the plan ends with the claim: later turns would be filler
        claimed = next(t for t, turn in enumerate(actions)
                       if any(isinstance(a, Special) and a.tile == goal.tile for a in turn))
        actions = actions[:claimed + 1]
    chosen = None
    if goal.kind == "score":  # the plan's towers aim at size tokens: build exactly those
        chosen = {(f.space.location, player): f.layout.tower(solver)
                  if solver.boolean_value(f.eligible) else None for f in model.festivals}
    replayed = replay(start, board, player, actions, rules, chosen=chosen)
    planned = tuple(PlannedTurn(slot.round, tuple(a))
                    for slot, a in zip(horizon.turns[:len(actions)], actions, strict=True))
    festivals = _festivals(replayed, player)
    value = goal_value(goal, board, replayed, player, planned)
    bound = _user_bound(goal, result.first_bound, start.round)
    if goal.kind == "festival" and bound is not None:
        # without the LP, CP-SAT's own bound ignores that only one festival counts
        bound = min(bound, model.best_cap())
    model_value = result.values[0]
    if goal.kind == "tile" and model_value is not None:
        model_value += start.round
    tie_breaks = tuple(TieBreak(s.name, v, p) for s, v, p in zip(
        stages[1:], result.values[1:], result.proven[1:], strict=True))
    return Plan(goal, player, result.status, value, model_value, bound, planned, festivals,
                assumptions, tie_breaks, time.perf_counter() - started, result.first_time_s,
                result.branches, start, replayed.state, (*before, *replayed.refills),
                result.clock_hit)


def _user_bound(goal: Goal, bound: float | None, first_round: int) -> float | None:
    if bound is None:
        return None
    return bound + first_round if goal.kind == "tile" else bound


def _festivals(replayed: Replay, player: str) -> tuple[PlannedFestival, ...]:
    return tuple(PlannedFestival(o.space.round, o.space.location, o.space.region,
                                 o.entry(player)) for o in replayed.outcomes)


def goal_value(goal: Goal, board: Board, replayed: Replay, player: str,
               planned: tuple[PlannedTurn, ...]) -> int | None:
    """The goal's value as the referee sees the replayed plan: the best festival score in
    the horizon, the round the tile is claimed in, or the points of `planner.turns.goals`."""
    if goal.kind == "festival":
        return max((f.entry.score or 0 for f in _festivals(replayed, player)), default=0)
    if goal.kind == "tile":
        if goal.tile not in replayed.state.player(player).claimed_tiles:
            return None
        return next(turn.round for turn in planned
                    if any(isinstance(a, Special) and a.tile == goal.tile for a in turn.actions))
    return points_without_prizes(replayed.state, board, player)
