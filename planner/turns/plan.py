"""The turn planner: the best actions for a player's next turns, proven by CP-SAT and replayed
through the referee before anyone sees them."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ortools.sat.python import cp_model

from models.errors import SpecError
from models.game import (
    Action,
    Board,
    Choices,
    EndTurn,
    Entry,
    FestivalSpace,
    GameState,
    PlayerState,
    Special,
    apply,
)
from models.tower import Rules
from planner.stopping import grace, time_left, time_limited
from planner.tower import DETERMINISTIC_PER_SECOND, BestTower, Status, solve
from planner.turns.explain import Step, Target, explain
from planner.turns.extract import turn_actions
from planner.turns.goals import (
    TALLEST,
    goal_stages,
    points_now,
    progress_stages,
)
from planner.turns.horizon import Goal, build_horizon
from planner.turns.lean import LeanGoal, LeanResult
from planner.turns.lean_stage import (
    LEAN_TIE_BREAK_WORK,
    goal_on_lean,
    with_lean,
    with_lean_bound,
    with_lean_score,
)
from planner.turns.model import (
    PlanStopped,
    build_plan_model,
    hint_idle,
    tightened_bound,
)
from planner.turns.reach import fewest_turns_for_tile, tile_reasons
from planner.turns.replay import (
    Refill,
    Replay,
    ReplayOutOfTime,
    advance_to,
    cached_finder,
    replay,
    visible,
)
from planner.turns.score_caps import score_cap
from planner.turns.score_start import score_start
from planner.turns.stages import (
    TIE_BREAK_WORK,
    Stage,
    StagedResult,
    solve_stages,
)
from planner.turns.upcoming import Ahead, aimed_in, outlook

DEFAULT_PLAN_TIME_LIMIT = 10.0
LONG_HORIZON = 3  # turns; longer models spend most of a short time limit in full presolve
STAGES_SHARE = 0.8  # of the time limit's deterministic worth, for the solve's stages
# of the stages' budget, the most a long horizon's goal stage may take (docs: Design notes)
LONG_GOAL_SHARE = 0.6
# the wall clock's safety net: the stages' share of what is left after building the model,
# less the time reading the plan back, the replay and the explanations take (Design notes)
STAGES_WALL = 0.85
AFTER_SOLVE = 0.2
AFTER_SOLVE_PER_TURN = 0.03
# wall seconds the replay of a plan found may take past the command's deadline: the referee's
# festival towers take milliseconds on a real team (0.02-0.04 s a 3-turn replay), and with the
# deadline passed they were stopped at once, which turned the plan found into no plan
REPLAY_GRACE = 1.0
# the progress stage's units when no festival is in reach on a short horizon (Design notes)
PROGRESS_WORK = 0.4
LIGHT_TIE_BREAKS = True
# after a lean goal, the tie-breaks keep the lean plan's route (Design notes)
ROUTE_HELD = True
# the score goal's first stage on the lean score model up to `LONG_HORIZON` turns (its
# budgets: `planner.turns.score_start`); the full model's stages keep at least this many units
# (0.4 until 2026-12-02: the ordered lean model's units prove more; Design notes)
LEAN_SCORE = True
SCORE_LEAST_WORK = 0.2
# ... from this many turns: at 1 turn too (2026-12-02, the benchmark's 91 states: 91 proven
# against 90, median 1.21 s of CPU against 2.64, worst 3.01 s against 8.54; Design notes)
LEAN_SCORE_TURNS = 1
DEFAULT_TURNS = 3  # when no festival is left to plan toward
MAX_TURNS = 10


@dataclass(frozen=True)
class PlannedTurn:
    """A planned turn: its round, actions, the steps explained and where the pawn ends."""
    round: int
    actions: tuple[Action, ...]


# why the player does not compete at a festival, as a code (the entry's reason says it in
# words): their pawn is elsewhere, they chose not to, or no tower of their team can compete
Absence = Literal["away", "declined", "no_tower"]


@dataclass(frozen=True)
class PlannedFestival:
    """A festival of the horizon as the referee resolved it in the replay."""

    round: int
    location: str
    region: str
    entry: Entry  # the player's
    pawn: str | None = None  # where the player's pawn stood (None: off the board)
    absent: Absence | None = None  # why the player does not compete (None: they compete)


@dataclass(frozen=True)
class TieBreak:
    """A tie-break stage of a plan: its name, value and whether it is proven."""
    name: str
    value: int | None
    proven: bool


@dataclass(frozen=True)
class Plan:
    """A plan: the goal, the turns, the replayed festivals, status, bound and tie-breaks."""
    goal: Goal
    player: str
    status: Status
    objective: int | None  # the goal's value in the replayed plan (see `goal_value`)
    model_objective: int | None  # the value the solver claims (equal when proven)
    bound: int | None  # no plan does better than this (the solver's proof)
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
    horizon: int = 0  # the turns planned for (before a tile plan is cut at its claim)
    next_festival: FestivalSpace | None = None  # the next festival the player could compete in
    ahead: tuple[Ahead, ...] = ()  # the festivals ahead of `start` (`upcoming.outlook`)
    target: Target | None = None  # the festival the plan builds toward
    steps: tuple[tuple[Step, ...], ...] = ()  # each turn's actions, explained
    why_not: tuple[str, ...] = ()  # why the goal cannot be met (a proven no)
    fewest_turns: int | None = None  # a tile out of reach: the fewest turns that claim it
    fixed: tuple[Action, ...] = ()  # the what-if's fixed first actions
    unfixed: Plan | None = None  # the plan without them (for the difference in value)
    goal_cpu_s: float = 0.0  # the goal's solve in CPU time (a shared machine's measure)

    @property
    def found(self) -> bool:
        """Whether a plan was found."""
        return self.end is not None


def plan_turns(state: GameState, board: Board, player: str, *, rules: Rules,
               turns: int | None = 3, goal: Goal | None = None, cautious: bool = False,
               time_limit: float = DEFAULT_PLAN_TIME_LIMIT, workers: int = 1, seed: int = 0,
               fixed: Sequence[Action] = ()) -> Plan:
    """Plan `turns` turns of `player` from `state` (the opponents' turns before theirs are
    ended first, with no actions), for `goal`, under the readings `rules` (the game's own).
    `turns` None: through the next festival the player could compete in (`auto_turns`).
    `fixed`: the first actions of the first turn, as given (a what-if; an action the referee
    refuses is its `IllegalAction`); the plan without them is solved too, for the difference
    in value, as the very plan the same call without `fixed` gives (the same horizon, goal
    and budget): each of the two solves gets `time_limit`."""
    started = time.perf_counter()
    goal = goal or Goal()
    player = state.player(player).name  # as stored ("anna" is Anna); unknown: a SpecError
    # information discipline: the plan sees no refill beyond this moment, the bag stays hidden
    before: list[Refill] = []
    start = advance_to(visible(state), board, player, rules, refills=before)
    if state.game_over:
        raise SpecError("the game is over: there are no turns left to plan")
    if start.game_over:
        raise SpecError(f"the game ends before {player}'s next turn")
    begin = _apply_fixed(start, board, fixed, rules)  # refused before any solve
    unfixed = None
    if fixed:  # the what-if: the plain plan's own question, on its own budget (on half of
        # it, as before, it was another question: less search, and for the festival goal no
        # lean stage, below `LEAN_LEAST_WORK`; "without it" fell far below the plain plan's
        # value, 12 against 30 points on tests/service/test_plans.py's state)
        with time_limited(time_limit):  # its own limit, within the command's (`plan`)
            unfixed = plan_turns(state, board, player, rules=rules, turns=turns, goal=goal,
                                 cautious=cautious, time_limit=time_limit, workers=workers,
                                 seed=seed)
    deadline = time.perf_counter() + time_left(time_limit)  # the command's, when sooner
    ahead = outlook(start, board, player, rules, cautious)
    upcoming = aimed_in(ahead, start.round, turns)
    count = auto_turns(start, board, upcoming) if turns is None else turns
    work = STAGES_SHARE * DETERMINISTIC_PER_SECOND * time_limit
    horizon = build_horizon(begin, board, player, count, rules, cautious)
    try:
        model = build_plan_model(horizon, {goal.tile or ""} if goal.kind == "tile" else None)
    except PlanStopped:  # a cancel, or the time limit, before any search: no plan, unknown
        return Plan(goal, player, Status.UNKNOWN, None, None, None, (), (), horizon.assumptions,
                    (), time.perf_counter() - started, 0.0, 0, start, None, tuple(before), True,
                    next_festival=upcoming, ahead=ahead, fixed=tuple(fixed), unfixed=unfixed,
                    horizon=len(horizon.turns))
    if goal.kind != "tile":  # doing nothing meets the other goals (badly)
        hint_idle(model)
    long = len(horizon.turns) > LONG_HORIZON
    stages = goal_stages(model, goal, spare_tokens=long)
    target = upcoming
    then = None
    route: tuple[tuple[cp_model.IntVar, int], ...] = ()  # held in the tie-breaks (below)
    if goal.kind == "festival":  # out of reach: plan toward the next festival instead
        def then(value: int) -> list[Stage]:
            if value:
                return []
            return [replace(s, held=s.held + route) for s in progress_stages(model, target)]
    # the same plan on any machine: the stages get a deterministic budget (a share of the time
    # limit's worth, the rest is for building the model and the replay), and the wall clock
    # left is only a safety net (keeping a little time for the replay after the solve)
    after_solve = AFTER_SOLVE + AFTER_SOLVE_PER_TURN * len(horizon.turns)

    def wall_left() -> float:
        return max(0.1, STAGES_WALL * (deadline - time.perf_counter()) - after_solve)

    original = list(stages)

    lean: LeanGoal | None = None
    long_lean: LeanResult | None = None
    if goal.kind == "festival":
        lean, long_lean, work = goal_on_lean(model, stages, work, wall_left, seed, workers,
                                             long)
    if lean is not None and ROUTE_HELD:  # the tie-breaks search the lean plan's route only
        places = {var.index for stop in model.at for var in stop.values()}
        route = tuple((var, value) for var, value in lean.holds if var.index in places)
        stages[1:] = [replace(s, held=s.held + route) for s in stages[1:]]
    scored = None
    if goal.kind == "score":  # the lean score model's bound, and where the search starts
        scored = score_start(model, stages[0], work=work,
                             lean=LEAN_SCORE and LEAN_SCORE_TURNS <= len(horizon.turns)
                             <= LONG_HORIZON,
                             wall_left=wall_left, seed=seed, workers=workers)
        if scored.proven_on_route:  # the lean plan is the best: only its route is searched
            route = scored.route
            stages = [replace(s, held=s.held + route) for s in stages]
        # no lean plan (its budget ended first): the full model's search gets its own budget
        # (on 30 states two 3-turn plans left at 0.4 units scored 0 and 6 against 44 and 35)
        work = max(SCORE_LEAST_WORK, work - scored.spent) if scored.route else work
    # no festival in reach on a short horizon (the lean model has none): the goal is 0 at
    # once, and the progress stage on the whole model is all the search (Design notes)
    unreachable = goal.kind == "festival" and not long and not model.festivals
    # the score goal proven on the lean route: the tie-breaks search that route only, as
    # after a lean festival goal (1-1.5 s of CPU less on 3-turn plans; light tie-breaks
    # after every lean score plan left 5 of the benchmark's 91 3-turn calls with no plan
    # when the wall clock met them, against none)
    on_lean_route = scored is not None and scored.proven_on_route
    remaining = wall_left()
    # measured in benchmarks/bench_plan.py: the LP relaxation of the plan model is weak, and
    # without it the search proves plans about twice as fast
    result, solver = solve_stages(model.model, stages, time_limit=remaining, workers=workers,
                                  seed=seed, linearization=0,
                                  light_presolve=long, work=work,
                                  light_tie_breaks=LIGHT_TIE_BREAKS and (lean is not None
                                                                         or unreachable
                                                                         or on_lean_route),
                                  tie_break_work=(LEAN_TIE_BREAK_WORK if lean is not None
                                                  or on_lean_route
                                                  else PROGRESS_WORK if unreachable
                                                  else TIE_BREAK_WORK),
                                  goal_share=LONG_GOAL_SHARE if long else 1.0,
                                  hinted=goal.kind != "tile",
                                  hint_complete=scored is not None and scored.found,
                                  then=then)
    if lean is not None and result.values and result.values[0] == lean.result.value:
        result = with_lean(result, lean.result)
    elif lean is not None and result.values:  # the clock stopped the held stage before it
        # found the lean plan (the idle plan came back): not proven, the lean model's bound
        result = with_lean_bound(result, lean.result)
    elif long_lean is not None and result.values:
        result = with_lean_bound(result, long_lean)
    elif lean is not None and not result.clock_hit:  # the lean plan did not fit the full
        # model: solve as before (not when the clock ended the stages: no time is left)
        route = ()
        result, solver = solve_stages(model.model, original, time_limit=wall_left(),
                                      workers=workers, seed=seed, linearization=0, work=work,
                                      hinted=True, then=then)
    if route:  # proven on the lean plan's route only: not a proof over every plan
        result = replace(result, proven=(*result.proven[:1], *(False,) * len(result.proven[1:])))
    if scored is not None and scored.lean is not None:
        result = with_lean_score(result, scored.lean, held=bool(route))
    clock_hit = result.clock_hit
    assumptions = horizon.assumptions
    if before:
        assumptions = (*assumptions, "castellers the bag adds at the end of round "
                       f"{before[0].round}, before {player}'s turn, are unknown now and not "
                       "counted on")
    common = {"next_festival": target, "ahead": ahead, "fixed": tuple(fixed),
              "unfixed": unfixed,
              "horizon": len(horizon.turns), "goal_cpu_s": result.first_cpu_s}
    if not result.values:
        why: tuple[str, ...] = ()
        fewest = None
        if goal.kind == "tile" and result.status is Status.INFEASIBLE:
            why = tile_reasons(model, goal.tile or "")
            fewest = fewest_turns_for_tile(begin, board, player, goal.tile or "", rules,
                                           cautious, len(horizon.turns), deadline)
        return Plan(goal, player, result.status, None, None, result.first_bound, (), (),
                    assumptions, (), time.perf_counter() - started, result.first_time_s,
                    result.branches, start, None, tuple(before), clock_hit,
                    why_not=why, fewest_turns=fewest, **common)  # type: ignore[arg-type]
    actions = [turn_actions(model, solver, t) for t in range(len(horizon.turns))]
    actions[0] = [*fixed, *actions[0]]
    if goal.kind == "tile":  # the plan ends with the claim: later turns would be filler
        claimed = next(t for t, turn in enumerate(actions)
                       if any(isinstance(a, Special) and a.tile == goal.tile for a in turn))
        actions = actions[:claimed + 1]
    chosen = None
    if goal.kind == "score":  # the plan's towers aim at size tokens: build exactly those
        # where the plan does not compete the referee's finder decides: "chose not to
        # compete" only ever when the player could have
        chosen = {(f.space.location, player): f.layout.tower(solver)
                  for f in model.festivals if solver.boolean_value(f.eligible)}
    try:  # a plan in hand is checked even when the search took the whole limit
        with grace(REPLAY_GRACE):
            replayed = replay(start, board, player, actions, rules, chosen=chosen)
    except ReplayOutOfTime:  # the plan found cannot be checked in time: no plan, unknown
        return Plan(goal, player, Status.UNKNOWN, None, None, None, (), (), assumptions, (),
                    time.perf_counter() - started, result.first_time_s, result.branches,
                    start, None, tuple(before), True, **common)  # type: ignore[arg-type]
    planned = tuple(PlannedTurn(slot.round, tuple(a))
                    for slot, a in zip(horizon.turns[:len(actions)], actions, strict=True))
    festivals = _festivals(replayed, player, chosen)
    value = goal_value(goal, board, replayed, player, planned)
    bound = _user_bound(goal, result.first_bound, start.round)
    if goal.kind == "festival" and bound is not None:
        # without the LP, CP-SAT's own bound ignores that only one festival counts
        cap, stopped = model.best_cap(), False
        if result.status is not Status.OPTIMAL:
            cap, stopped = tightened_bound(model, value or 0, deadline=deadline - after_solve)
        bound = min(bound, cap)
        clock_hit = clock_hit or stopped  # a pre-check left out: the bound may not repeat
    status = result.status
    if goal.kind == "score" and bound is not None:
        bound = min(bound, score_cap(model))
        if (status is Status.FEASIBLE and value is not None and value >= bound
                and value == result.values[0]):
            # the replayed points reach a sound bound on every plan (`score_caps.score_caps`):
            # proven, though the search stopped before it could say so
            status, bound = Status.OPTIMAL, value
    model_value = result.values[0]
    if goal.kind == "tile" and model_value is not None:
        model_value += start.round
    tie_breaks = _tie_breaks(result, solver, replayed.state.player(player), rules)
    aim = _target(festivals, target, board)
    steps = explain(start, board, player, [t.actions for t in planned], rules, aim,
                    replayed.state.player(player).ranks, horizon.at_risk)
    return Plan(goal, player, status, value, model_value, bound, planned, festivals,
                assumptions, tie_breaks, time.perf_counter() - started, result.first_time_s,
                result.branches, start, replayed.state, (*before, *replayed.refills),
                clock_hit, steps=steps, target=aim, **common)  # type: ignore[arg-type]


def _tie_breaks(result: StagedResult, solver: cp_model.CpSolver, end: PlayerState,
                rules: Rules) -> tuple[TieBreak, ...]:
    """Each tie-break's value in the plan kept; a folded stage reports its parts apart. The
    tallest tower at the end is the tower solver's, on the replayed team (the model's layout
    may not have been pushed to it when the budget ended first)."""
    found = []
    for stage, value, proven in zip(result.stages[1:], result.values[1:], result.proven[1:],
                                    strict=True):
        parts = stage.parts or ((stage.name, stage.expr),)
        for name, expr in parts:
            got = round(solver.value(expr)) if stage.parts else value
            if name == TALLEST:  # stopped at the request's deadline: the model's value stands
                tallest = solve(BestTower(), end.team, end.ranks, rules, stoppable=True)
                if tallest.status is not Status.UNKNOWN:
                    got = tallest.tower.height if tallest.tower is not None else 0
            found.append(TieBreak(name, got, proven))
    return tuple(found)


def auto_turns(start: GameState, board: Board, festival: FestivalSpace | None) -> int:
    """Through `festival` (the one the plan builds toward, `upcoming.aimed_in`: the first the
    player could compete in, else the most promising; at most `MAX_TURNS`, and the game's
    end); `DEFAULT_TURNS` when no festival is left."""
    wanted = DEFAULT_TURNS if festival is None else festival.round - start.round + 1
    return max(1, min(wanted, MAX_TURNS, board.rounds - start.round + 1))


def _apply_fixed(start: GameState, board: Board, fixed: Sequence[Action], rules: Rules
                 ) -> GameState:
    """The state after the fixed actions; one the referee refuses is its `IllegalAction`
    (a refusal, as `castell play` gives it)."""
    state = start
    for action in fixed:
        if isinstance(action, EndTurn):
            raise SpecError("the fixed actions are the first turn's: no end of turn")
        state = apply(state, board, action, rules, cached_finder())
    return state


def _target(festivals: tuple[PlannedFestival, ...], upcoming: FestivalSpace | None,
            board: Board) -> Target | None:
    """The festival the plan builds toward: the best one it competes in, else the next one."""
    best = max((f for f in festivals if f.entry.tower is not None),
               key=lambda f: f.entry.score or 0, default=None)
    if best is not None:
        return Target(best.round, best.location, best.region, best.entry.tower)
    if upcoming is None:
        return None
    return Target(upcoming.round, upcoming.location, upcoming.region, None)


def _user_bound(goal: Goal, bound: int | None, first_round: int) -> int | None:
    if bound is None:
        return None
    return bound + first_round if goal.kind == "tile" else bound


def _festivals(replayed: Replay, player: str, chosen: Choices | None = None
               ) -> tuple[PlannedFestival, ...]:
    festivals = []
    for outcome in replayed.outcomes:
        space, entry = outcome.space, outcome.entry(player)
        pawn = replayed.pawns.get(space.round)
        absent: Absence | None = None
        if entry.tower is None:
            key = (space.location, player)
            absent = ("away" if pawn != space.region else "declined"
                      if chosen is not None and key in chosen and chosen[key] is None
                      else "no_tower")
        festivals.append(PlannedFestival(space.round, space.location, space.region, entry,
                                         pawn, absent))
    return tuple(festivals)


def goal_value(goal: Goal, board: Board, replayed: Replay, player: str,
               planned: tuple[PlannedTurn, ...]) -> int | None:
    """The goal's value as the referee sees the replayed plan: the best festival score in
    the horizon, the round the tile is claimed in, or the points (`planner.turns.goals`)."""
    if goal.kind == "festival":
        return max((f.entry.score or 0 for f in _festivals(replayed, player)), default=0)
    if goal.kind == "tile":
        if goal.tile not in replayed.state.player(player).claimed_tiles:
            return None
        return next(turn.round for turn in planned
                    if any(isinstance(a, Special) and a.tile == goal.tile for a in turn.actions))
    return points_now(replayed.state, board, player)
