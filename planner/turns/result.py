"""A turn plan as the planner answers it: the turns, the festivals the replay resolved, the
status and bound, the tie-breaks, and how it was found."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from models.game import Action, Choices, Entry, GameState
from planner.clock import now
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
class Asked:
    """What every plan of one turn-planner call shares: the goal, the player, where the plan
    starts, the refills before it, the assumptions, the horizon, the festivals ahead, the
    what-if's fixed actions and the plan without them, and when the call started."""

    goal: Goal
    player: str
    start: GameState
    before: tuple[Refill, ...]
    assumptions: tuple[str, ...]
    horizon: int
    ahead: tuple[Ahead, ...]
    fixed: tuple[Action, ...]
    unfixed: Plan | None
    started: float = field(default_factory=now)


@dataclass(frozen=True)
class Effort:
    """What the goal's own solve took: its wall and CPU seconds and its branches."""

    goal_time_s: float = 0.0
    goal_cpu_s: float = 0.0
    branches: int = 0


@dataclass(frozen=True)
class Plan:
    """A plan: the goal, the turns, the replayed festivals, status, bound and tie-breaks.
    Made by `unfound` (no plan) or `replayed` (a plan the referee replayed), never edited."""
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

    def named_towers(self, round_: int) -> tuple[tuple[str, str | None], ...]:
        """The towers the plan builds (or declines to) at the festivals of `round_` where the
        player competes in them, as its replay resolved them ((location, tower text or None:
        chose not to compete))."""
        named: list[tuple[str, str | None]] = []
        for festival in self.festivals:
            if festival.round != round_:
                continue
            if festival.entry.tower is not None:
                named.append((festival.location, str(festival.entry.tower)))
            elif festival.absent == "declined":
                named.append((festival.location, None))
        return tuple(named)

    @classmethod
    def unfound(cls, asked: Asked, status: Status, effort: Effort = Effort(), *,
                bound: int | None = None, clock_hit: bool = False,
                why_not: tuple[str, ...] = (), fewest_turns: int | None = None,
                assumptions: tuple[str, ...] | None = None) -> Plan:
        """No plan: `status` says why (infeasible: proven none; unknown: no time), with the
        goal's `bound`, why it cannot be met and the fewest turns that would meet it
        (`assumptions`: the call's unless given)."""
        return cls(goal=asked.goal, player=asked.player, status=status, objective=None,
                   model_objective=None, bound=bound, turns=(), festivals=(),
                   assumptions=asked.assumptions if assumptions is None else assumptions,
                   tie_breaks=(), wall_time_s=now() - asked.started,
                   goal_time_s=effort.goal_time_s, branches=effort.branches,
                   start=asked.start, end=None, refills=asked.before, clock_hit=clock_hit,
                   horizon=asked.horizon, ahead=asked.ahead, why_not=why_not,
                   fewest_turns=fewest_turns, fixed=asked.fixed, unfixed=asked.unfixed,
                   goal_cpu_s=effort.goal_cpu_s)

    @classmethod
    def replayed(cls, asked: Asked, status: Status, effort: Effort, *, objective: int | None,
                 model_objective: int | None, bound: int | None,
                 turns: tuple[PlannedTurn, ...], festivals: tuple[PlannedFestival, ...],
                 tie_breaks: tuple[TieBreak, ...], end: GameState,
                 refills: tuple[Refill, ...], clock_hit: bool,
                 steps: tuple[tuple[Step, ...], ...], target: Target | None) -> Plan:
        """The plan the goal's solve found, as the referee replayed it (`end`), judged by its
        goal (`objective`, `status`, `bound`) and explained (`steps`)."""
        return cls(goal=asked.goal, player=asked.player, status=status, objective=objective,
                   model_objective=model_objective, bound=bound, turns=turns,
                   festivals=festivals, assumptions=asked.assumptions, tie_breaks=tie_breaks,
                   wall_time_s=now() - asked.started,
                   goal_time_s=effort.goal_time_s, branches=effort.branches,
                   start=asked.start, end=end, refills=refills, clock_hit=clock_hit,
                   horizon=asked.horizon, ahead=asked.ahead, target=target, steps=steps,
                   fixed=asked.fixed, unfixed=asked.unfixed, goal_cpu_s=effort.goal_cpu_s)


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


