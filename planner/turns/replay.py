"""Replaying a plan through the referee: the proof that a plan is legal, and its outcome.

Opponents take no actions (they end their turns), which is what the planner assumes of them.
Information discipline: the planner replays on `visible(state)`, a copy with the bag hidden, so
no refill is ever drawn beyond the current moment; the regions a refill would top up are
recorded as unknown (`Refill`), and neither the model nor the replay counts on their castellers.
A plan the referee refuses raises `PlanRefused`: that is a bug in the planner, never a user
error, so it is not a `CastellError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from models.game import (
    Action,
    Board,
    Choices,
    EndTurn,
    FestivalSpace,
    GameState,
    IllegalAction,
    Outcome,
    TowerFinder,
    apply,
    apply_outcome,
    end_turn,
    resolve_festival,
    top_up,
)
from models.game.play import hidden
from models.tower import Festival, Pool, Rules, SkillRanks, Tower
from planner.tower import DEFAULT_TIME_LIMIT, FestivalTower, Status, solve
from planner.turns.budget import PlanBudget


def visible(state: GameState) -> GameState:
    """What the player can see: the state with the bag (the future refills) hidden (the game
    interface's view of a seat, `models.game.play.hidden`: one definition of what is hidden),
    for the searches without the results of the festivals held so far. Who built which tower
    there is the game's record: no rule of the referee, no score and no bot reads it, and it
    was two thirds of what every copy of a late state cost (the referee copies the state at
    each action it applies: a greedy turn, hundreds of times)."""
    seen = hidden(state)
    for space in seen.festivals:
        if space.result is not None:
            space.result = None
    return seen


@dataclass(frozen=True)
class Refill:
    """A refill the plan does not see: at the end of `round` these regions get castellers
    from the bag, which are unknown now and not counted on."""

    round: int
    regions: tuple[str, ...]


class PlanRefused(RuntimeError):
    """The referee refused an action of a plan the planner produced."""


class ReplayOutOfTime(RuntimeError):
    """The referee's festival tower search in the replay did not finish within the request's
    time limit (a team of the whole bag with ranks at 150 takes seconds): the plan cannot be
    checked, and a festival is never recorded as "cannot compete" because of a clock."""


# bounded, not process-wide: one plan asks a few dozen questions, a long-lived process more
@lru_cache(maxsize=PlanBudget.finder_cache)
def _best_festival_tower(pool: Pool, ranks: SkillRanks, festival: Festival, rules: Rules
                         ) -> Tower | None:
    """The referee's best festival tower (None: none can compete), exact; stopped at the
    request's deadline or cancel, as `ReplayOutOfTime` (an exception: never cached)."""
    if not pool.total:
        return None
    found = solve(FestivalTower(festival), pool, ranks, rules, time_limit=DEFAULT_TIME_LIMIT,
                  stoppable=True)
    if found.status is Status.UNKNOWN:
        raise ReplayOutOfTime("the time limit came before the plan's festivals were resolved")
    return found.tower


def cached_finder() -> TowerFinder:
    """The festival tower finder, remembered: replays ask the same questions again."""
    return _best_festival_tower


@dataclass(frozen=True)
class Replay:
    """A plan replayed through the referee: the state after it and the festivals it held."""
    state: GameState  # after the last planned turn (and the opponents' turns up to the next)
    outcomes: tuple[Outcome, ...]  # festivals resolved during the replay
    refills: tuple[Refill, ...] = ()  # refills left unknown (not drawn) during the replay
    # round -> where the player's pawn stood after their turn in it: where it stands when the
    # round's festivals are resolved (the opponents never move it)
    pawns: dict[int, str | None] = field(default_factory=dict)


def advance_to(state: GameState, board: Board, player: str, rules: Rules,
               finder: TowerFinder | None = None, outcomes: list[Outcome] | None = None,
               chosen: Choices | None = None, refills: list[Refill] | None = None,
               coming: Coming | None = None) -> GameState:
    """End the other players' turns (they take no actions) until it is `player`'s turn."""
    finder = finder or cached_finder()
    while not state.game_over and state.turn.player != player:
        state = finish_turn(state, board, rules, finder, outcomes, chosen, refills, coming)
    return state


# (round, location) of a festival -> opponents who compete there wherever their pawn stands
# (the cautious plan's rivals, `Horizon.coming`)
Coming = Mapping[tuple[int, str], tuple[str, ...]]


def finish_turn(state: GameState, board: Board, rules: Rules, finder: TowerFinder,
                outcomes: list[Outcome] | None, chosen: Choices | None,
                refills: list[Refill] | None = None, coming: Coming | None = None
                ) -> GameState:
    """End a turn in the replay, recording the refills the plan cannot see."""
    last = state.turn_order[-1] == state.turn.player
    if last and refills is not None and state.round in board.refill_rounds:
        short = tuple(top_up(state, board))
        if short and state.bag is None:
            refills.append(Refill(state.round, short))
    try:
        if last and outcomes is not None:
            for space in state.festivals_in(state.round):
                if not space.resolved:
                    state = _resolved(state, board, space, rules, finder, chosen, outcomes,
                                      (coming or {}).get((space.round, space.location), ()))
        return end_turn(state, board, rules, finder, chosen)
    except (IllegalAction, ValueError) as error:
        raise PlanRefused(f"round {state.round}, end of {state.turn.player}'s turn: {error}"
                          ) from error


def _resolved(state: GameState, board: Board, space: FestivalSpace, rules: Rules,
              finder: TowerFinder, chosen: Choices | None, outcomes: list[Outcome],
              coming: tuple[str, ...]) -> GameState:
    """The festival's outcome, recorded; with `coming` opponents it is held here, those
    standing in its region for it (the referee's `apply_outcome`; their pawns back where they
    were after it: they never move in the replay), else at the round's end as before."""
    if not coming:
        outcomes.append(resolve_festival(state, board, space, rules, finder, chosen))
        return state
    held = state.clone()
    for name in coming:
        held.player(name).pawn = space.region
    outcome = resolve_festival(held, board, space, rules, finder, chosen)
    outcomes.append(outcome)
    return apply_outcome(state, outcome, rules)


def replay(state: GameState, board: Board, player: str, turns: Sequence[Sequence[Action]],
           rules: Rules, finder: TowerFinder | None = None, chosen: Choices | None = None,
           coming: Coming | None = None) -> Replay:
    """Play `turns` (each a list of actions, without the EndTurn) as `player`, from a state
    where it is their turn; every turn ends with EndTurn and the opponents' empty turns.
    Festivals are resolved with the `chosen` towers, else the finder's best ones; the
    `coming` opponents compete at a festival wherever they stand (a cautious plan's)."""
    finder = finder or cached_finder()
    outcomes: list[Outcome] = []
    refills: list[Refill] = []
    pawns: dict[int, str | None] = {}
    for number, actions in enumerate(turns, start=1):
        if state.turn.player != player or state.game_over:
            raise PlanRefused(f"turn {number}: it is not {player}'s turn")
        if any(isinstance(action, EndTurn) for action in actions):
            raise PlanRefused(f"turn {number}: a planned turn lists no EndTurn; it is added")
        for action in actions:
            try:
                state = apply(state, board, action, rules, finder)
            except IllegalAction as error:
                raise PlanRefused(f"turn {number} (round {state.round}), {action}: {error}"
                                  ) from error
        pawns[state.round] = state.player(player).pawn
        state = finish_turn(state, board, rules, finder, outcomes, chosen, refills, coming)
        state = advance_to(state, board, player, rules, finder, outcomes, chosen, refills,
                           coming)
    return Replay(state, tuple(outcomes), tuple(refills), pawns)
