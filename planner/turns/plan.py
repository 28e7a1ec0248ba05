"""The turn planner: the best actions for a player's next turns, proven by CP-SAT and replayed
through the referee before anyone sees them.

One pipeline for every goal: the start (the opponents' turns before the player's ended, the bag
hidden), the horizon, the full plan model, the goal's own solve (`planner.turns.goals.GOALS`:
a `GoalStrategy` per goal, within its allotment of the budget), the replay through the
referee, the explanations.
"""

from __future__ import annotations

from collections.abc import Sequence

from ortools.sat.python import cp_model

from models.errors import SpecError
from models.game import (
    Action,
    Board,
    EndTurn,
    FestivalSpace,
    GameState,
    PlayerState,
    apply,
)
from models.tower import Rules
from planner.clock import now
from planner.stopping import grace, time_limited
from planner.tower import BestTower, Status, solve
from planner.turns.budget import DEFAULT_BUDGET, MAX_TURNS, PlanBudget
from planner.turns.explain import Target, explain
from planner.turns.extract import turn_actions
from planner.turns.festival.stages import TALLEST
from planner.turns.full.model import PlanModel, PlanStopped, build_plan_model
from planner.turns.full.stages import Stage, StagedResult
from planner.turns.goals import goal_strategy
from planner.turns.horizon import Goal, build_horizon
from planner.turns.replay import (
    Refill,
    Replay,
    ReplayOutOfTime,
    advance_to,
    cached_finder,
    replay,
    visible,
)
from planner.turns.result import (
    Asked,
    Effort,
    Plan,
    PlannedFestival,
    PlannedTurn,
    TieBreak,
    planned_festivals,
)
from planner.turns.strategy import GoalStrategy, PlanContext, Solved, StageWall
from planner.turns.upcoming import aimed_in, outlook

DEFAULT_PLAN_TIME_LIMIT = 10.0



class NoModel(ValueError):
    """A goal the turn planner has no model of its own for (the win goal plans the score
    goal's: ask `planner.turns.plan`)."""


def model_of(goal: Goal) -> GoalStrategy:
    """The strategy that models `goal` in the turn planner (`NoModel`: none does)."""
    strategy = goal_strategy(goal)
    if not strategy.modelled:
        raise NoModel(f"the turn planner has no model for the {goal.kind} goal")
    return strategy


def goal_stages(plan: PlanModel, goal: Goal, spare_tokens: bool = False) -> list[Stage]:
    """The goal's stages on `plan`, in order (`GoalStrategy.stages`)."""
    return model_of(goal).stages(plan, goal, spare_tokens)


def goal_value(goal: Goal, board: Board, replayed: Replay, player: str,
               planned: tuple[PlannedTurn, ...]) -> int | None:
    """The goal's value as the referee sees the replayed plan: the best festival score in
    the horizon, the round the tile is claimed in, or the points."""
    return model_of(goal).value(goal, board, replayed, player, planned)


def plan_turns(state: GameState, board: Board, player: str, *, rules: Rules,
               turns: int | None = 3, goal: Goal | None = None, cautious: bool = False,
               time_limit: float = DEFAULT_PLAN_TIME_LIMIT, workers: int = 1, seed: int = 0,
               fixed: Sequence[Action] = (), budget: PlanBudget = DEFAULT_BUDGET,
               compare: bool = True, least_turns: int = 1, value_only: bool = False) -> Plan:
    """Plan `turns` turns of `player` from `state` (the opponents' turns before theirs are
    ended first, with no actions), for `goal`, under the readings `rules` (the game's own).
    `turns` None: through the next festival the player could compete in (`auto_turns`), and
    at least `least_turns` turns (up to the game's end).
    `fixed`: the first actions of the first turn, as given (a what-if; an action the referee
    refuses is its `IllegalAction`); the plan without them is solved too, for the difference
    in value, as the very plan the same call without `fixed` gives (the same horizon, goal
    and budget): each of the two solves gets `time_limit` (`compare` False: the fixed plan
    alone, for a caller that has the plain one). `budget`: the planner's tuning,
    which splits `time_limit` into its allotments (`PlanBudget.allot`). `value_only`: the
    goal's stage alone, unexplained (`PlanRequest.value_only`)."""
    started = now()
    goal = goal or Goal()
    strategy = model_of(goal)
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
    if fixed and compare:  # the what-if: the plain plan's own question, on its own budget (on
        # half of it, as before, it was another question: less search, and for the festival goal no
        # lean stage; "without it" fell far below the plain plan's value, 12 against 30
        # points on tests/service/castell/test_plans.py's state)
        with time_limited(budget.wall(time_limit)):  # its own limit, within the command's
            unfixed = plan_turns(state, board, player, rules=rules, turns=turns, goal=goal,
                                 cautious=cautious, time_limit=time_limit, workers=workers,
                                 seed=seed, budget=budget, least_turns=least_turns)
    # the command's, when sooner
    clock = budget.plan_clock(time_limit)
    ahead = outlook(start, board, player, rules, cautious)
    upcoming = aimed_in(ahead, start.round, turns)
    count = (auto_turns(start, board, upcoming, budget.default_turns, least_turns)
             if turns is None else turns)
    horizon = build_horizon(begin, board, player, count, rules, cautious)
    asked = Asked(goal, player, start, tuple(before),
                  _assumptions(horizon.assumptions, before, player), len(horizon.turns), ahead,
                  tuple(fixed), unfixed, started)
    try:
        model = build_plan_model(horizon, strategy.tiles(goal), budget)
    except PlanStopped:  # a cancel, or the time limit, before any search: no plan, unknown
        return Plan.unfound(asked, Status.UNKNOWN, assumptions=horizon.assumptions,
                            clock_hit=True)
    # the same plan on any machine: the goal's solves get deterministic allotments of the
    # time limit's worth, and the wall clock left is only a safety net (keeping a little
    # time for reading the plan back, the replay and the explanations after the solve)
    wall = StageWall(clock, budget.stages_wall,
                     budget.after_solve + budget.after_solve_per_turn * len(horizon.turns))
    ctx = PlanContext(model, goal, budget, budget.allot(time_limit), wall, seed, workers,
                      start, begin, board, player, rules, cautious, upcoming, value_only)
    solved = strategy.solve(ctx)
    if not solved.result.values:
        why, fewest = strategy.why_not(ctx, solved.result)
        return Plan.unfound(asked, solved.result.status, _effort(solved.result),
                            bound=solved.result.first_bound,
                            clock_hit=solved.result.clock_hit, why_not=why,
                            fewest_turns=fewest)
    return _replayed(ctx, strategy, solved, asked)


def _effort(result: StagedResult) -> Effort:
    return Effort(result.first_time_s, result.first_cpu_s, result.branches)


def _assumptions(assumptions: tuple[str, ...], before: list[Refill], player: str
                 ) -> tuple[str, ...]:
    """The horizon's assumptions, and the refills before the player's turn, unknown now."""
    if not before:
        return assumptions
    return (*assumptions, "castellers the bag adds at the end of round "
            f"{before[0].round}, before {player}'s turn, are unknown now and not counted on")


def _replayed(ctx: PlanContext, strategy: GoalStrategy, solved: Solved, asked: Asked
              ) -> Plan:
    """The plan the goal's solve found, replayed through the referee, judged by its goal and
    explained step by step (a plan in hand is checked even when the search took the whole
    limit, within the budget's grace)."""
    result, solver, model = solved.result, solved.solver, ctx.model
    slots = model.horizon.turns
    actions = [turn_actions(model, solver, t) for t in range(len(slots))]
    actions[0] = [*asked.fixed, *actions[0]]
    actions = strategy.trim(ctx.goal, actions)
    chosen = strategy.towers(ctx, solver)
    try:
        with grace(ctx.budget.wall(ctx.budget.replay_grace)):
            replayed = replay(ctx.start, ctx.board, ctx.player, actions, ctx.rules,
                              chosen=chosen, coming=model.horizon.coming)
    except ReplayOutOfTime:  # the plan found cannot be checked in time: no plan, unknown
        return Plan.unfound(asked, Status.UNKNOWN, _effort(result), clock_hit=True)
    planned = tuple(PlannedTurn(slot.round, tuple(a))
                    for slot, a in zip(slots[:len(actions)], actions, strict=True))
    festivals = planned_festivals(replayed, ctx.player, chosen)
    value = strategy.value(ctx.goal, ctx.board, replayed, ctx.player, planned)
    verdict = strategy.judge(ctx, result, value)
    end = replayed.state.player(ctx.player)
    tie_breaks = _tie_breaks(result, solver, end, ctx.rules)
    aim = _target(festivals, ctx.target, ctx.board)
    steps = () if ctx.value_only else explain(
        ctx.start, ctx.board, ctx.player, [t.actions for t in planned], ctx.rules, aim,
        end.ranks, model.horizon.at_risk)
    return Plan.replayed(asked, verdict.status, _effort(result), objective=value,
                         model_objective=strategy.user_value(ctx, result.values[0]),
                         bound=verdict.bound, turns=planned, festivals=festivals,
                         tie_breaks=tie_breaks, end=replayed.state,
                         refills=(*asked.before, *replayed.refills),
                         clock_hit=verdict.clock_hit, steps=steps, target=aim)


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


def auto_turns(start: GameState, board: Board, festival: FestivalSpace | None,
               default_turns: int = PlanBudget.default_turns, least_turns: int = 1) -> int:
    """Through `festival` (the one the plan builds toward, `upcoming.aimed_in`: the first the
    player could compete in, else the most promising), and at least `least_turns`; at most
    `MAX_TURNS`, and the game's end; `default_turns` when no festival is left."""
    wanted = default_turns if festival is None else festival.round - start.round + 1
    return max(1, min(max(wanted, least_turns), MAX_TURNS, board.rounds - start.round + 1))


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
