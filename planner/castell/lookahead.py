"""The win goal: the score goal's plan, its first turn chosen by what it leaves after the
rivals' answers, not as if they stood still.

The score goal counts every point over its horizon, but it plans the player's turns back to
back: the rivals who move in between take the castellers and the tiles it counted on (from
the second and third seats the score goal won 12 of 20 games against two greedy bots, from the
first 18). So two first turns are tried: the cautious score plan's (no recruit where a rival
could recruit first) and the greedy bot's. Each is played on what the player sees, every rival
answers with the greedy bot's turn (the model of a rival: a reasonable player who knows no
more than the player does), and the player's own turns are planned from where the rivals left
the game (the score goal again). A first turn is worth the points that plan ends with less
the best rival's points at that moment; the better is advised (a tie: the plan's), and the
plan shown is the score goal's plan through that first turn.

Only what the player sees is used: the bag and its seed are hidden (`seen`), so a refill in
the rivals' answers adds nothing (no casteller is counted on that the player cannot see). The
plans are the score goal's, deterministic (their allotments of the time limit), each under the
budget's wall clock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from models.game import Action, Board, EndTurn, GameState, score_player
from models.tower import Rules
from planner.castell.greedy import greedy_turn
from planner.castell.turn import Turn, plan_towers, play_turn, seen
from planner.stopping import time_limited
from planner.turns import (
    DEFAULT_BUDGET,
    DEFAULT_PLAN_TIME_LIMIT,
    Goal,
    PlanAhead,
    PlanBudget,
    plan_ahead,
)

WIN = Goal("win")
SCORE = Goal("score")


@dataclass(frozen=True)
class Answered:
    """A first turn as the rivals' answers leave it: the player's points at the end of the
    plan from there (or at the game's end), the best rival's then, and the margin."""

    mine: int
    rivals: int

    @property
    def margin(self) -> int:
        return self.mine - self.rivals


def advise(state: GameState, board: Board, player: str, *, rules: Rules,
           turns: int | None = None, goal: Goal | None = None, cautious: bool = False,
           time_limit: float = DEFAULT_PLAN_TIME_LIMIT, workers: int = 1, seed: int = 0,
           fixed: Sequence[Action] = (), budget: PlanBudget = DEFAULT_BUDGET) -> PlanAhead:
    """The plan for `goal`: the win goal's (`plan_to_win`; `cautious` and `fixed` are the
    turn planner's, not its), or `plan_ahead`'s for the other goals. The whole call within
    the budget's wall clock for `time_limit` (a what-if's two plans: twice)."""
    goal = goal or Goal()
    if goal.kind == "win" and not fixed:
        with time_limited(budget.wall(time_limit * budget.win_shares)):
            return plan_to_win(state, board, player, rules=rules, turns=turns,
                               time_limit=time_limit, workers=workers, seed=seed,
                               budget=budget)
    with time_limited(budget.wall(time_limit * (2 if fixed else 1))):
        return plan_ahead(state, board, player, rules=rules, turns=turns,
                          goal=SCORE if goal.kind == "win" else goal,
                          cautious=cautious or goal.kind == "win", time_limit=time_limit,
                          workers=workers, seed=seed, fixed=fixed, budget=budget)


def plan_to_win(state: GameState, board: Board, player: str, *, rules: Rules,
                turns: int | None = None, time_limit: float = DEFAULT_PLAN_TIME_LIMIT,
                workers: int = 1, seed: int = 0, budget: PlanBudget = DEFAULT_BUDGET
                ) -> PlanAhead:
    """The win goal's plan for `player` (see the module text); a plan for a player whose turn
    it is not, or under a what-if's readings, is the cautious score plan (the rivals' answers
    are simulated from the player's own turn, under the game's readings)."""

    def planned(start: GameState, share: float, fixed: Sequence[Action] = ()) -> PlanAhead:
        limit = time_limit * share
        with time_limited(budget.wall(limit)):
            return plan_ahead(start, board, player, rules=rules, turns=turns, goal=SCORE,
                              cautious=True, time_limit=limit, workers=workers, seed=seed,
                              fixed=fixed, budget=budget, compare=False)

    def answered(start: GameState) -> Answered:
        return _answered(start, board, player, lambda s: planned(s, budget.win_answer_share))

    plain = planned(state, budget.win_plan_share)
    plan = plain.plan
    if (state.turn.player != state.player(player).name or rules != state.game_rules
            or not plan.found or not plan.turns or plan.turns[0].round != state.round):
        return _as_win(plain, None)
    now = seen(state)
    mine = Turn((*plan.turns[0].actions, EndTurn()), plan_towers(plan, now))
    other = greedy_turn(now, board)
    after_mine, after_other = play_turn(now, board, mine).state, play_turn(now, board, other).state
    if _same_position(after_mine, after_other):
        return _as_win(plain, None)
    worth = answered(after_mine), answered(after_other)
    if worth[1].margin <= worth[0].margin:
        return _as_win(plain, worth)
    chosen = planned(state, budget.win_answer_share, other.actions[:-1])
    if not chosen.plan.found:  # the greedy turn's plan not found in time: the plain one
        return _as_win(plain, None)
    return _as_win(chosen, (worth[1], worth[0]))


def _answered(after: GameState, board: Board, player: str,
              planned: Callable[[GameState], PlanAhead]) -> Answered:
    """The rivals answer with the greedy bot's turns until the player's turn; then the
    player's plan from there."""
    while not after.game_over and after.turn.player != player:
        after = play_turn(after, board, greedy_turn(after, board)).state
    rivals = max(score_player(p, board).total for p in after.players if p.name != player)
    now = score_player(after.player(player), board).total
    if after.game_over:
        return Answered(now, rivals)
    then = planned(after).plan
    return Answered(then.objective if then.found and then.objective is not None else now,
                    rivals)


def _same_position(one: GameState, other: GameState) -> bool:
    """Two turns that leave the same position (the same turn, maybe by other steps)."""
    skip = {"history", "revision"}
    return one.model_dump(exclude=skip) == other.model_dump(exclude=skip)


def _as_win(ahead: PlanAhead, worth: tuple[Answered, Answered] | None) -> PlanAhead:
    """The plan as the win goal's, saying why its first turn (`worth`: the chosen first
    turn's answered value, then the other's)."""
    plan = replace(ahead.plan, goal=WIN, fixed=(), unfixed=None)
    if worth is not None:
        chosen, other = worth
        why = ("each rival answers the first turn with the greedy bot's turn: after their "
               "answers and the plan from there, the player ends "
               f"{_against(chosen.margin)} the best rival with this first turn; with the "
               f"other first turn tried, {_against(other.margin, short=True)}")
        plan = replace(plan, assumptions=(*plan.assumptions, why))
    return replace(ahead, plan=plan)


def _against(margin: int, short: bool = False) -> str:
    if margin == 0:
        return "level" if short else "level with"
    ahead = "ahead" if short else "ahead of"
    return f"{abs(margin)} points {ahead if margin > 0 else 'behind'}"
