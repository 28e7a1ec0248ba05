"""A turn plan as the planner answers it: the turns, the festivals the replay resolved, the
status and bound, the tie-breaks, and how it was found."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from models.game import Action, Choices, Entry, FestivalSpace, GameState
from planner.tower import Status
from planner.turns.explain import Step, Target
from planner.turns.horizon import Goal
from planner.turns.replay import Refill, Replay
from planner.turns.upcoming import Ahead


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


def planned_festivals(replayed: Replay, player: str, chosen: Choices | None = None
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


