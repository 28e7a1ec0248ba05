"""The opponents in a plan's festival forecast: the plan's replay lets them stand still, so it
counts only those already in a festival's region; here each opponent who could stand there in
time (`models.game.regions_within`: a special tile's free move counted, tokens not counted
down: a bound)
is counted twice over, with the tower the referee would give their team now (its finder) and
with a bound on any tower they could have by then (what they could recruit and train on the
way: the tower dynamic program on the biggest team and ranks in reach, as the plan's own caps),
and the player's planned score is ranked against each."""

from __future__ import annotations

from dataclasses import dataclass

from models.game import (
    Board,
    FestivalSpace,
    GameState,
    Prize,
    TurnState,
    regions_within,
    size_token_winner,
    turns_before,
)
from models.tower import Rules, Tower
from planner.turns.full.model import festival_cap
from planner.turns.horizon import build_horizon
from planner.turns.replay import ReplayOutOfTime, cached_finder
from planner.turns.result import Plan, PlannedFestival


@dataclass(frozen=True)
class RivalAt:
    """An opponent who could stand in a festival's region when it is held."""

    name: str
    there: bool  # their pawn stands there now (the plan's replay counts them already)
    score_now: int | None  # the best tower of their team now (None: none can compete)
    score_bound: int | None  # no tower of theirs by then scores more (None: none can compete)
    # per size token of the festival (in its order): the castellers of that size in the best
    # tower of their team now (None: no tower), and the most any tower of theirs by then can
    # hold (the biggest team in reach holds no more of that size; None: none can compete)
    tokens_now: tuple[int, ...] | None = None
    tokens_most: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Placing:
    """The player's rank and prize against a reading of the rivals' scores."""

    rank: int
    prize: Prize | None


@dataclass(frozen=True)
class Forecast:
    """A festival the plan competes in, with the rivals who could be there."""

    round: int
    location: str
    region: str
    score: int  # the player's, in the plan
    rivals: tuple[RivalAt, ...]
    with_teams_now: Placing  # against the rivals' teams now
    at_worst: Placing  # against their bounds
    size_tokens: tuple[TokenForecast, ...] = ()


@dataclass(frozen=True)
class TokenForecast:
    """A size token of a festival the plan competes in: the castellers of its size in the
    player's planned tower, and whether the player takes it against the rivals' teams now and
    against their bounds (`models.game.size_token_winner`, the referee's own rule)."""

    size: int
    mine: int
    with_teams_now: bool
    at_worst: bool


def forecasts(plan: Plan, board: Board, rules: Rules) -> tuple[Forecast, ...]:
    """The forecast of each festival `plan` competes in, from its start (the opponents' reach
    and teams as they are now)."""
    found: list[Forecast] = []
    try:
        for festival in plan.festivals:
            if festival.entry.score is not None:
                found.append(_forecast(plan, board, rules, festival))
    except ReplayOutOfTime:  # the request's deadline or cancel: the forecasts made so far
        pass
    return tuple(found)


def _forecast(plan: Plan, board: Board, rules: Rules, festival: PlannedFestival) -> Forecast:
    """The forecast of one festival the plan competes in."""
    space = next(f for f in plan.start.festivals
                 if f.round == festival.round and f.location == festival.location)
    rivals = tuple(r for other in plan.start.players if other.name != plan.player
                   for r in [_rival(plan.start, board, other.name, space, rules)]
                   if r is not None)
    score = festival.entry.score or 0  # competing (`forecasts` asks only those)
    return Forecast(
        festival.round, festival.location, festival.region, score, rivals,
        placing(plan.start, board, space, plan.player, score,
                {r.name: r.score_now for r in rivals}, rules),
        placing(plan.start, board, space, plan.player, score,
                {r.name: r.score_bound for r in rivals}, rules),
        _tokens(plan, space, festival.entry.tower, rivals, rules))


def _tokens(plan: Plan, space: FestivalSpace, tower: Tower | None,
            rivals: tuple[RivalAt, ...], rules: Rules) -> tuple[TokenForecast, ...]:
    """Each size token of `space` as the player's planned `tower` would contest it."""
    if tower is None:
        return ()
    order, mine = plan.start.turn_order, tower.size_counts()
    found = []
    for index, size in enumerate(space.size_tokens):
        now = {r.name: r.tokens_now[index] for r in rivals if r.tokens_now is not None}
        most = {r.name: r.tokens_most[index] for r in rivals if r.tokens_most is not None}
        found.append(TokenForecast(
            size, mine[size],
            size_token_winner({**now, plan.player: mine[size]}, order, rules) == plan.player,
            size_token_winner({**most, plan.player: mine[size]}, order, rules) == plan.player))
    return tuple(found)


def _rival(start: GameState, board: Board, name: str, space: FestivalSpace, rules: Rules
           ) -> RivalAt | None:
    rival = start.player(name)
    turns = turns_before(start, name, space)  # none left: where their pawn stands now
    where = regions_within(start, board, name, rules, turns)[-1] if turns else {rival.pawn}
    if space.region not in where:
        return None
    # the tower the referee would give them with their team now (its own finder: the same
    # tower, so the same size counts; stopped at the request's deadline, `ReplayOutOfTime`)
    now = cached_finder()(rival.team, rival.ranks, space.festival, rules)
    score_now, tokens_now = None, None
    if now is not None:
        score_now = space.festival.score(now)
        counts = now.size_counts()
        tokens_now = tuple(counts[size] for size in space.size_tokens)
    # their turns through the festival, as if from now: one more than they have when they
    # played this round already, so still a bound
    theirs = start.model_copy(update={"turn": TurnState(player=name)})
    horizon = build_horizon(theirs, board, name, space.round - start.round + 1, rules)
    bound = festival_cap(horizon, len(horizon.turns) - 1, space)
    if score_now is not None and (bound is None or bound < score_now):
        bound = score_now  # never below what they already have (a bound cut short)
    tokens_most = None
    if bound is not None:  # no tower of theirs holds more of a size than the biggest team
        most = horizon.upper_pool(len(horizon.turns))
        tokens_most = tuple(max(most.count(size), tokens_now[i] if tokens_now else 0)
                            for i, size in enumerate(space.size_tokens))
    return RivalAt(name, rival.pawn == space.region, score_now, bound, tokens_now,
                   tokens_most)


def placing(state: GameState, board: Board, space: FestivalSpace, player: str, score: int,
             rivals: dict[str, int | None], rules: Rules) -> Placing:
    """`player`'s rank and prize at `space` with `score`, against `rivals`' scores (None: no
    tower): as the referee ranks (`models.game.resolve_festival`): by score, a tie to the
    earlier in turn order, or shared with the rules' `prize_ties` reading "share"."""
    order = state.turn_order
    shared = rules.prize_ties == "share"
    above = sum(1 for name, theirs in rivals.items() if theirs is not None and (
        theirs > score or (theirs == score and not shared
                           and order.index(name) < order.index(player))))
    rank = above + 1
    chart = board.prize_chart.get(space.type, {}).get(len(state.players), [])
    return Placing(rank, chart[rank - 1] if rank <= len(chart) else None)
