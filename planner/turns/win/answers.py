"""The win goal's answer: the score goal's plan, its first turn chosen by what it leaves after the
rivals' answers, not as if they stood still.

The score goal counts every point over its horizon, but it plans the player's turns back to
back: the rivals who move in between take the castellers and the tiles it counted on (from the
second and third seats the score goal won 12 of 20 games against two greedy bots, from the
first 18). So two first turns are tried: the cautious score plan's (no recruit where a rival
could recruit first, and every rival who could stand in a festival's region when it is held
competing there with their best tower now) and the greedy bot's. Each is played on what the
player sees, every rival answers with the greedy bot's turn (the model of a rival, the
request's `Rivals`: a reasonable player who knows no more than the player does), and the
player's own turns are planned from where the rivals left the game (the cautious score goal). A
first turn is worth the points that plan ends with less the best rival's points at that moment;
the better is advised (a tie: the plan's), and the plan shown is the score goal's plan through
that first turn. Two first turns that leave the same position are one. The plain plan looks at
least `PlanBudget.win_least_turns` turns ahead (through the next round's festival too, where
the one it builds toward closes this round); the plans after the answers, which only weigh the
two first turns, and the plan through the greedy bot's turn keep the default horizon. (Four
other ways of choosing or planning the first turn, tried in whole games and not kept, are in
the Design notes under `win_answer_share_unproven`.)

Only what the player sees is used: the bag and its seed are hidden (`visible`), so a refill in
the rivals' answers adds nothing (no casteller is counted on that the player cannot see). The
plans are the score goal's, deterministic (each on its share of the time limit's allotments,
`PlanBudget.win_*_share`); the whole call runs within the limit's wall clock, and a plan that
meets it leaves the advice to the cautious plan (a clock decides nothing else).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from models.game import Action, Board, EndTurn, GameState, score_player
from planner.clock import Clock
from planner.stopping import in_processes, in_threads, time_limited
from planner.tower import Status
from planner.turns.horizon import Goal
from planner.turns.known import SCORE, cut_short, known_plan
from planner.turns.replay import ReplayOutOfTime, visible
from planner.turns.request import (
    Answered,
    FirstTurnSource,
    PlanRequest,
    PlanResult,
    Rivals,
    RivalTurn,
    RivalUnfinished,
    WeighedTurn,
    models_of,
)
from planner.turns.strategy import Pipeline

WIN = Goal("win")


class NoRivals(ValueError):
    """The win goal was asked with no model of the rivals (`PlanRequest.rivals`)."""


@dataclass(frozen=True)
class FirstTurn:
    """The plan's first turn as a bot plays it: its actions, then the end of the turn, and
    the festival towers it names."""

    actions: tuple[Action, ...]
    towers: tuple[tuple[str, str | None], ...] = ()


def plan_to_win(request: PlanRequest, clock: Clock, pipeline: Pipeline) -> PlanResult:
    """The win goal's plan for `request.player` (see the module text), each plan asked of
    `pipeline`; a plan for a player whose turn it is not, or under a what-if's readings, is
    the cautious score plan (the rivals' answers are simulated from the player's own turn,
    under the game's readings). When the wall clock cuts the plain plan's search, or it finds
    no turn, the answer is the floor: the rivals' model's turn in the player's place."""
    if request.rivals is None:
        raise NoRivals("the win goal plans against a model of the rivals: none was given")
    rivals, state, board, player = request.rivals, request.state, request.board, request.player
    budget = request.budget
    own = budget.win_plans()  # the budget every plan below is asked with

    def planned(start: GameState, share: float, fixed: Sequence[Action] = (),
                least_turns: int = 1, beside: int = 1, value_only: bool = False
                ) -> PlanResult:
        limit = clock.seconds * share
        # plans run side by side share the cores: each allows itself the wall clock their
        # shares take one after the other (its work, and so its plan, is the same)
        nets = own if beside == 1 else replace(own, wall_slack=own.wall_slack * beside)
        with time_limited(nets.wall(limit)):
            return pipeline(replace(request, state=start, goal=SCORE, cautious=True,
                                    fixed=tuple(fixed), compare=False, budget=nets,
                                    least_turns=least_turns, value_only=value_only),
                            Clock.start(limit))

    to_move = (state.turn.player == state.player(player).name
               and request.rules == state.game_rules)
    now = visible(state)
    # the floor first: a complete legal turn known before any search (`planner.turns.known`)
    floor = _floor(rivals, now, board) if to_move else None
    # the plain plan looks further than the plans after the answers: it chooses the first
    # turn's actions, they only weigh two first turns against each other
    plain = planned(state, budget.win_plan_share, least_turns=budget.win_least_turns)
    if floor is None:
        return as_win(plain, None)
    if plain.clock_hit or cut_short(plain.plan, state):  # the clock cut the search: the floor
        return floored(request, floor, plain) or as_win(plain, None)
    candidates = [Candidate(PLAN, _turn_of(plain, now), plain),
                  Candidate(GREEDY, floor, None)]
    # an unproven plain plan spent its units (a long horizon, the first rounds): the plans
    # after the answers would spend theirs too, and the call its time limit
    share = (budget.win_answer_share if plain.plan.status is Status.OPTIMAL
             else budget.win_answer_share_unproven)
    beside = max(1, min(budget.win_threads, len(candidates)))
    tried = weighed(candidates, now, board, player, rivals,
                    # a plan after the answers is read for its value alone
                    lambda s: planned(s, share, beside=beside, value_only=True),
                    budget.win_threads,
                    budget.wall(budget.fork_grace) if budget.win_processes else None)
    if tried is None:  # a plan after the answers met the wall clock: the plain plan's turn,
        return as_win(plain, None, clock_hit=True)  # which a quieter run might not advise
    if len(tried) < 2:  # one position whatever the turn
        return as_win(plain, None)
    best = max(tried, key=lambda t: t[1].margin)  # the first of the best: the plan's on a tie
    chosen = best[0].ahead
    if chosen is None:
        chosen = planned(state, share, best[0].turn.actions[:-1])
        if not chosen.found or chosen.clock_hit:  # the greedy turn's plan not made in time
            return as_win(plain, None, clock_hit=chosen.clock_hit)
    return as_win(chosen, best, [t for t in tried if t is not best], _names(rivals))


def _names(rivals: Rivals) -> tuple[str, ...]:
    return tuple(name for name, _ in models_of(rivals) if name)


def weighed(candidates: Sequence[Candidate], now: GameState, board: Board, player: str,
            rivals: Rivals, planned: Callable[[GameState], PlanResult], threads: int = 1,
            fork_grace: float | None = None) -> list[tuple[Candidate, Answered]] | None:
    """`tried_turns` against each model of the rivals (`RivalModels`), each candidate's
    points and the best rival's the means over the models (None: one met the clock). The
    candidates' positions are the same under every model (the player's own turn, through the
    referee), so each model tries the same candidates in the same order."""
    each = []
    for _, model in models_of(rivals):
        tried = tried_turns(candidates, now, board, player, model, planned, threads,
                            fork_grace)
        if tried is None:
            return None
        each.append(tried)
    if len(each) == 1:
        return each[0]
    return [(found[0], Answered(sum(t[i][1].mine for t in each) / len(each),
                                sum(t[i][1].rivals for t in each) / len(each)))
            for i, found in enumerate(each[0])]


PLAN: FirstTurnSource = "plan"
GREEDY: FirstTurnSource = "greedy"


@dataclass(frozen=True)
class Candidate:
    """A first turn tried: whose it is (`PLAN`, `GREEDY`), the turn, and the plan
    through it from the player's position when one is made already."""

    source: FirstTurnSource
    turn: RivalTurn
    ahead: PlanResult | None


def _floor(rivals: Rivals, now: GameState, board: Board) -> RivalTurn | None:
    """The rivals' model's turn in the player's place (None: stopped before it finished, by a
    cancel or the clock on a huge team: no floor then)."""
    try:
        return rivals.turn(now, board)
    except RivalUnfinished:
        return None


def floored(request: PlanRequest, floor: RivalTurn, plain: PlanResult) -> PlanResult | None:
    """The floor's plan (`known_plan`) as the win goal's answer, with what the plain plan
    found of the festivals ahead; marked as stopped by the clock (a quieter run may find a
    plan the search stands by). None: its replay did not finish within the grace."""
    try:
        plan = known_plan(request, floor, plain.plan.ahead)
    except ReplayOutOfTime:
        return None
    return PlanResult(goal=WIN, plan=plan, ahead=plain.ahead,
                      next_festival=plain.next_festival, untried=plain.untried, forecasts=(),
                      assumptions=plan.assumptions, fixed=(), unfixed=None, clock_hit=True,
                      wall_time_s=plain.wall_time_s)


def _turn_of(ahead: PlanResult, now: GameState) -> FirstTurn:
    return FirstTurn((*ahead.plan.turns[0].actions, EndTurn()),
                     ahead.plan.named_towers(now.round))


def tried_turns(candidates: Sequence[Candidate], now: GameState, board: Board, player: str,
                rivals: Rivals, planned: Callable[[GameState], PlanResult], threads: int = 1,
                fork_grace: float | None = None) -> list[tuple[Candidate, Answered]] | None:
    """Each candidate that leaves a position of its own, with its answered value, in order;
    None when a plan after the answers, or a rival's turn, met the wall clock or a cancel (a
    clock decides nothing). The positions' answers and plans run in up to `threads` threads
    (`PlanBudget.win_threads`), or processes forked for them when `fork_grace` says how long
    past the request's deadline one may run (`PlanBudget.win_processes`, `fork_grace`)."""
    distinct: list[Candidate] = []
    positions: list[GameState] = []
    try:
        for candidate in candidates:
            after = rivals.play(now, board, candidate.turn)
            if not any(_same_position(after, p) for p in positions):
                distinct.append(candidate)
                positions.append(after)
    except RivalUnfinished:  # a rival's tower search stopped by the cancel or the clock
        return None

    def answered(after: GameState) -> Answered | None:
        try:
            return _answered(after, board, player, rivals, planned)
        except RivalUnfinished:
            return None

    # each position's answers and plan on its own: side by side, the same values
    tried: list[tuple[Candidate, Answered]] = []
    side_by_side = (in_threads(answered, positions, threads) if fork_grace is None
                    else in_processes(answered, positions, threads, None, fork_grace))
    for candidate, worth in zip(distinct, side_by_side, strict=True):
        if worth is None:
            return None
        tried.append((candidate, worth))
    return tried


def _answered(after: GameState, board: Board, player: str, rivals: Rivals,
              planned: Callable[[GameState], PlanResult]) -> Answered | None:
    """The rivals answer with their model's turns until the player's turn; then the
    player's plan from there (None: that plan met the wall clock)."""
    after = _answers(after, board, player, rivals)
    mine, best_rival = _standing(after, board, player)
    if after.game_over:
        return Answered(mine, best_rival)
    then = planned(after)
    if then.clock_hit:
        return None
    objective = then.plan.objective
    return Answered(objective if then.found and objective is not None else mine, best_rival)


def _answers(state: GameState, board: Board, player: str, rivals: Rivals) -> GameState:
    """The rivals' turns until the player's turn (or the game's end)."""
    while not state.game_over and state.turn.player != player:
        state = rivals.play(state, board, rivals.turn(state, board))
    return state


def _standing(state: GameState, board: Board, player: str) -> tuple[int, int]:
    """The player's points and the best rival's."""
    rivals = max(score_player(p, board).total for p in state.players if p.name != player)
    return score_player(state.player(player), board).total, rivals


def _same_position(one: GameState, other: GameState) -> bool:
    """Two turns that leave the same position (the same turn, maybe by other steps)."""
    skip = {"history", "revision"}
    return one.model_dump(exclude=skip) == other.model_dump(exclude=skip)


def as_win(ahead: PlanResult, best: tuple[Candidate, Answered] | None = None,
           others: Sequence[tuple[Candidate, Answered]] = (), models: Sequence[str] = (),
           clock_hit: bool = False) -> PlanResult:
    """The plan as the win goal's answer, saying why its first turn (`best`: the chosen
    first turn and its answered value; `others`: the other first turns tried, with theirs).
    `clock_hit`: the wall clock chose the plain plan (a plan after the answers met it), so
    another run may advise another first turn: the answer says so, as a plan the clock
    stopped does. The plan shown is the score goal's, with no what-if (the greedy turn's
    actions it was planned through are its own)."""
    assumptions = ahead.assumptions
    weighed: tuple[WeighedTurn, ...] = ()
    if best is not None:
        weighed = tuple(WeighedTurn(c.source, a, chosen=c is best[0])
                        for c, a in (best, *others))
        answer = ("the greedy bot's turn" if not models else
                  f"the turn of each of {len(models)} styles of player in turn "
                  f"({', '.join(models)}; the margins averaged)")
        chosen, *rest = weighed
        why = (f"each rival answers the first turn with {answer}: after their "
               "answers and the plan from there, the player ends "
               f"{_against(chosen.answered.margin)} the best rival with this first turn "
               f"({chosen.name}); "
               + "; ".join(f"{_against(w.answered.margin, short=True)} with {w.name}"
                           for w in rest))
        assumptions = (*assumptions, why)
    return PlanResult(goal=WIN, plan=ahead.plan, ahead=ahead.ahead,
                      next_festival=ahead.next_festival, untried=ahead.untried,
                      forecasts=ahead.forecasts, assumptions=assumptions, fixed=(),
                      unfixed=None, clock_hit=ahead.clock_hit or clock_hit,
                      wall_time_s=ahead.wall_time_s, weighed=weighed)


def _against(exact: float, short: bool = False) -> str:
    margin = round(exact)
    if margin == 0:
        return "level" if short else "level with"
    ahead = "ahead" if short else "ahead of"
    points = "point" if abs(margin) == 1 else "points"
    return f"{abs(margin)} {points} {ahead if margin > 0 else 'behind'}"
