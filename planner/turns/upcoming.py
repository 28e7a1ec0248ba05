"""Which festivals ahead a player could compete in, and the one a plan builds toward.

A festival is within reach when, by the time it is held, the player's pawn can stand in its
region (`models.game.regions_within`: a Move, a special move while tokens last, and a special
tile's free move where the wheel offers one, each turn) and some team they could have by then
builds a tower that can compete there (`festival_cap`, as `could_compete` asks it: 4 levels
and every size token, on the biggest team and ranks in reach, the cheap sound bound the lean
model's caps use).
Both are bounds: a festival they pass can still be out of reach, which only a plan shows
(`planner.turns.ahead`); one they fail never is within reach."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from models.game import (
    Board,
    FestivalSpace,
    GameState,
    festivals_ahead,
    regions_within,
)
from models.tower import Rules
from planner.turns.budget import MAX_TURNS
from planner.turns.full.model import festival_cap
from planner.turns.horizon import build_horizon

# why a festival is out of reach: the pawn cannot stand there in time; no team in reach by
# then builds a tower that can compete there; the plan through it found none (a proof)
OutOfReach = Literal["too_far", "no_tower", "plan_proves_none"]


@dataclass(frozen=True)
class Ahead:
    """A festival ahead: the player's turns through it, and why it is out of reach (None:
    within reach, by the bounds)."""

    space: FestivalSpace
    turns: int
    out_of_reach: OutOfReach | None = None

    @property
    def within_reach(self) -> bool:
        return self.out_of_reach is None


def outlook(start: GameState, board: Board, player: str, rules: Rules,
            cautious: bool = False) -> tuple[Ahead, ...]:
    """The festivals ahead of `player` from `start` (their turn), at most `MAX_TURNS` turns
    and the game's end away, each within reach or why not (the reach walk, then the tower
    dynamic program on the biggest team in reach, 1-50 ms a festival, cached by the bounds;
    one horizon through the last festival: its first turns are each shorter one's)."""
    spaces = [f for f in festivals_ahead(start)
              if f.round - start.round + 1 <= MAX_TURNS and f.round <= board.rounds]
    if not spaces:
        return ()
    most = spaces[-1].round - start.round + 1
    longest = build_horizon(start, board, player, most, rules, cautious)
    within = regions_within(start, board, player, rules, most)
    found = []
    for space in spaces:
        turns = space.round - start.round + 1
        why: OutOfReach | None = None
        if space.region not in within[turns - 1]:
            why = "too_far"
        elif festival_cap(longest, turns - 1, space) is None:
            why = "no_tower"
        found.append(Ahead(space, turns, why))
    return tuple(found)


def first_within_reach(ahead: tuple[Ahead, ...], after_round: int = 0) -> Ahead | None:
    """The first festival within reach held after `after_round`."""
    return next((a for a in ahead if a.within_reach and a.space.round > after_round), None)


def most_promising(ahead: tuple[Ahead, ...]) -> Ahead | None:
    """Of festivals none of which is known to be within reach, the one to build toward: one
    the bounds let through first (only a plan ruled it out), then one the pawn gets to (only
    the team falls short), then any; the latest of those (the most turns to grow the team)."""
    order: tuple[OutOfReach | None, ...] = (None, "plan_proves_none", "no_tower", "too_far")
    for why in order:
        kind = [a for a in ahead if a.out_of_reach == why]
        if kind:
            return kind[-1]
    return None


def aimed_festival(start: GameState, board: Board, player: str, rules: Rules,
                   cautious: bool = False, turns: int | None = None) -> FestivalSpace | None:
    """The festival a plan of `turns` turns from `start` builds toward when it reaches no
    festival tower (its horizon, for `turns` None): the first within reach after the horizon
    (None: from now on), else the most promising one after it, else the most promising one
    at all (`most_promising`)."""
    return aimed_in(outlook(start, board, player, rules, cautious), start.round, turns)


def aimed_in(ahead: tuple[Ahead, ...], first_round: int, turns: int | None
             ) -> FestivalSpace | None:
    """`aimed_festival` of the festivals `ahead` (`outlook`) of a plan from `first_round`."""
    after = first_round - 1 if turns is None else first_round + turns - 1
    later = tuple(a for a in ahead if a.space.round > after)
    chosen = first_within_reach(later) or most_promising(later) or most_promising(ahead)
    return None if chosen is None else chosen.space
