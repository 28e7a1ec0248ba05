"""Festivals asked of a game: the referee's tower finder, the preview of this round's
festivals with the towers players named, and the next festival to be held.

The record never turns "not found in time" into "cannot compete": the referee's finder accepts
only a proven answer (the dp engine proves in milliseconds on every pool the rules allow); when
the clock comes first it refuses to resolve the festival, saying what to do, and the game file
is left as it was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from models.errors import TimeLimitReached

if TYPE_CHECKING:
    from models.game import Board, FestivalSpace, GameState, Outcome, TowerFinder
    from models.tower import Festival, Pool, Rules, SkillRanks, Tower
    from planner.tower import SolveResult
    from service.handle import SolveIn


class TowerSearchUnfinished(TimeLimitReached):
    """A festival tower search hit its time limit: the festival is not resolved from it."""


def referee_finder(time_limit: float, solve_in: SolveIn | None = None) -> TowerFinder:
    """The best festival tower of a player, proven; `TowerSearchUnfinished` when the limit
    came before the proof (never a "no tower" that is only a clock). Each search runs in
    `solve_in` (a server's bounded pool; None: here)."""
    from planner.tower import FestivalTower, Status, solve

    def finder(pool: Pool, ranks: SkillRanks, festival: Festival, rules: Rules
               ) -> Tower | None:
        if not pool.total:
            return None

        def search() -> SolveResult:
            return solve(FestivalTower(festival), pool, ranks, rules, time_limit=time_limit)

        result = search() if solve_in is None else solve_in(search)
        if result.status is Status.OPTIMAL:
            return result.tower
        if result.status is Status.INFEASIBLE:
            return None
        raise TowerSearchUnfinished(
            f"a festival tower was not proven within the time limit ({time_limit:g} s), so "
            "the festival is not resolved; try again with more time")

    return finder


def preview(state: GameState, board: Board, time_limit: float) -> list[Outcome]:
    """This round's festivals as `end` will resolve them: each player builds the tower they
    named (`festival-tower`, `none` declines), else their best one."""
    from models.game import named_towers, resolve_festival

    rules = state.game_rules
    named = named_towers(state, rules)
    finder = referee_finder(time_limit)
    return [resolve_festival(state, board, space, rules, finder, named)
            for space in state.festivals_in(state.round) if not space.resolved]


def next_to_be_held(state: GameState) -> FestivalSpace | None:
    """The next festival to be held, whoever can get to it (`models.game.festivals_ahead`: a
    player's reach is `next_reachable_festival`'s, their chance to compete the planner's)."""
    from models.game import festivals_ahead

    return next(iter(festivals_ahead(state)), None)
