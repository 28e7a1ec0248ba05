"""A Castell bot's turn: the actions it chose (ending with `EndTurn`) and the festival towers it
names, played through the referee; the tower finders the bots and the tournament's referee
share; and every distinct way the player to move can end their turn.

A bot answers from what its player sees: `seen(state)` is the state with the bag and the seed
(the future refills) hidden, and every bot decides on it alone. `SeatTurns` makes a Castell
bot a bot of either game (`planner.tournaments.Bot`): it sees its seat's view of the game in
play (`models.game.play.CastellInPlay`) and returns its turn as steps (`turn_steps`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Protocol

from models.game import (
    Action,
    Board,
    EndTurn,
    GameState,
    IllegalAction,
    apply,
    legal_actions,
    name_festival_tower,
)
from models.game.play import CastellInPlay, NameTower, Step
from models.tower import Festival, Pool, Rules, SkillRanks, Tile, Tower
from planner.tower import DEFAULT_TIME_LIMIT, FestivalTower, Status, TileCheck, solve
from planner.turns import Plan, RivalUnfinished
from planner.turns.replay import visible

# the festival and tile towers of one process's games (a game asks the same ones again and
# again: every end of a turn is valued by them); bounded, not process-wide growth
FINDER_CACHE = 50_000


class TowerSearchUnfinished(RivalUnfinished):
    """A tower search did not finish within its limit: a game's festival is never resolved,
    nor a claim refused, because of a clock (the tournament would not repeat)."""


@lru_cache(maxsize=FINDER_CACHE)
def festival_finder(pool: Pool, ranks: SkillRanks, festival: Festival, rules: Rules
                    ) -> Tower | None:
    """The player's best festival tower (None: none can compete), proven: the referee's
    finder in the bots' games and the festival scores the greedy bot counts on."""
    if not pool.total:
        return None
    # stoppable: inside a request (the advice's rivals and its floor) its cancel or deadline
    # stops the search, which then raises (never cached); a tournament has neither
    found = solve(FestivalTower(festival), pool, ranks, rules, time_limit=DEFAULT_TIME_LIMIT,
                  stoppable=True)
    if found.status is Status.UNKNOWN:
        raise TowerSearchUnfinished(f"no festival tower proven for {pool} within the limit")
    return found.tower


@lru_cache(maxsize=FINDER_CACHE)
def tile_finder(pool: Pool, ranks: SkillRanks, tile: Tile, rules: Rules) -> Tower | None:
    """A tower of the pool that meets the tile, or None (proven): the claims among the legal
    actions."""
    if not pool.total:
        return None
    found = solve(TileCheck(tile), pool, ranks, rules, time_limit=DEFAULT_TIME_LIMIT,
                  stoppable=True)  # as `festival_finder`
    if found.status is Status.UNKNOWN:
        raise TowerSearchUnfinished(f"no tile tower proven for {pool} within the limit")
    return found.tower


def seen(state: GameState) -> GameState:
    """What the player to move sees: the bag and the seed that draws from it hidden."""
    return visible(state)


@dataclass(frozen=True)
class Turn:
    """One whole turn: its actions, the last an `EndTurn`, and the towers named for this
    round's festivals before it ends ((festival location, tower text or None: not
    competing); none named: the referee builds the player's best)."""

    actions: tuple[Action, ...]
    towers: tuple[tuple[str, str | None], ...] = ()


class Bot(Protocol):
    """A policy: the turn of the player to move, from what that player sees (`seen`), with the
    bot's own random generator."""

    def __call__(self, state: GameState, board: Board, rng: random.Random) -> Turn: ...


@dataclass(frozen=True)
class Played:
    """A turn played through the referee: the state after it, and whether the referee refused
    one of the bot's steps (a bug in the bot: its turn is then ended where it stood)."""

    state: GameState
    refused: bool


def play_turn(state: GameState, board: Board, turn: Turn) -> Played:
    """`turn` for the player to move, every step through the referee (the festival towers of
    the round resolved by `festival_finder` for players who named none)."""
    rules = state.game_rules
    name = state.turn.player
    refused = not turn.actions or not isinstance(turn.actions[-1], EndTurn)
    try:
        for action in turn.actions[:-1]:
            if isinstance(action, EndTurn):
                refused = True
                break
            state = apply(state, board, action, rules, festival_finder)
        for location, tower in turn.towers:
            state = name_festival_tower(state, board, name, tower, rules, location)
    except IllegalAction:
        refused = True
    if state.turn.free_special:  # a refused step may leave a special tile's action owed
        state = _settle(state, board, rules)
    return Played(apply(state, board, EndTurn(), rules, festival_finder), refused)


def _settle(state: GameState, board: Board, rules: Rules) -> GameState:
    """The first free special action the referee allows (only after a refused step)."""
    action = legal_actions(state, board, rules)[0]
    return apply(state, board, action, rules, festival_finder)


def end_states(state: GameState, board: Board, rules: Rules
               ) -> list[tuple[GameState, tuple[Action, ...]]]:
    """Every distinct state the player to move can end their turn in (before `EndTurn`), each
    with the first action sequence found to it (in `legal_actions` order: deterministic),
    claims included; the state as it is comes first."""
    found: dict[tuple[object, ...], tuple[GameState, tuple[Action, ...]]] = {
        _key(state): (state, ())}
    stack: list[tuple[GameState, tuple[Action, ...]]] = [(state, ())]
    while stack:
        current, path = stack.pop()
        for action in legal_actions(current, board, rules, tiles=tile_finder):
            if isinstance(action, EndTurn):
                continue
            after = apply(current, board, action, rules, festival_finder)
            key = _key(after)
            if key not in found:
                found[key] = (after, (*path, action))
                stack.append(found[key])
    return [(s, p) for s, p in found.values() if not s.turn.free_special]


def _key(state: GameState) -> tuple[object, ...]:
    """What tells two states of one turn apart: the turn's flags, the mover, the regions."""
    me = state.current
    turn = state.turn
    return ((turn.moved, turn.recruited, turn.trained, turn.special, turn.free_special),
            me.pawn, me.pool, me.skills, me.special_tokens, tuple(me.claimed_tiles),
            me.collected_tokens, tuple(me.earned_regions),
            tuple((r.castellers, r.special_tokens, tuple(r.performance_tiles))
                  for r in state.regions.values()))


def plan_towers(plan: Plan, state: GameState) -> tuple[tuple[str, str | None], ...]:
    """The towers the plan builds (or declines to) at this round's festivals, where the
    player competes in them: named as the plan's replay resolved them."""
    return plan.named_towers(state.round)


def legal_turn(actions: Sequence[Action]) -> Turn:
    """A turn of `actions` then the end of the turn."""
    return Turn((*actions, EndTurn()))


def turn_steps(turn: Turn) -> tuple[Step, ...]:
    """A turn as steps, in the order the referee plays them: its actions before the end of
    the turn, the towers it names, then its last action (`turn_of` reads them back)."""
    named = tuple(NameTower(location, tower) for location, tower in turn.towers)
    return (*turn.actions[:-1], *named, *turn.actions[-1:])


def turn_of(steps: Sequence[Step]) -> Turn:
    """The turn of `turn_steps`' steps: its actions in their order, and the towers named."""
    return Turn(tuple(s for s in steps if not isinstance(s, NameTower)),
                tuple((s.location, s.tower) for s in steps if isinstance(s, NameTower)))


@dataclass(frozen=True)
class SeatTurns:
    """A Castell bot as a bot of either game: it sees its seat's view and gives its turn's
    steps (what it decides is the wrapped bot's, unchanged)."""

    bot: Bot

    def __call__(self, view: CastellInPlay, rng: random.Random) -> tuple[Step, ...]:
        return turn_steps(self.bot(view.state, view.board, rng))


def play_steps(game: CastellInPlay, steps: Sequence[Step]) -> tuple[CastellInPlay, bool]:
    """A bot's steps for the player to move, played as its turn (`play_turn`): the game
    after it, and whether the referee refused one of them."""
    played = play_turn(game.state, game.board, turn_of(steps))
    return replace(game, state=played.state), played.refused
