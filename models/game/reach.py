"""Which festivals are still ahead, and which of them a player's pawn can get to in time: the
festivals not held yet (`festivals_ahead`, the one list every "next festival" rule walks),
the player's turns before each (`turns_before`), whether their pawn can stand in its region
by then (`can_reach`, special tokens only: `next_reachable_festival`, asked by tower questions
of a game, `best --state`), and where it can stand after some turns, a special tile's free
move counted where the wheel offers it (`regions_within`, the turn planner's bound). The
turn planner's rule, the next festival a player could compete in (reach and a tower), is
`planner.turns.upcoming`'s.

Where a move goes is `move_targets`'s to say (the one place the referee and the planners take
it from), under the game's readings: reach is walked move by move on it, never re-derived from
graph distances, so that `special_move=any` (a special move goes anywhere) is honoured here
too."""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from models.game.board import SPECIAL, Board
from models.game.regions import move_targets
from models.game.state import FestivalSpace, GameState
from models.game.wheel import rotation_in_round, where_offered

if TYPE_CHECKING:
    from models.tower import Rules


def festivals_ahead(state: GameState) -> list[FestivalSpace]:
    """The festivals not held yet, from this round on, in the order they are held."""
    waiting = [f for f in state.festivals if not f.resolved and f.round >= state.round]
    return sorted(waiting, key=lambda f: f.round)


def turns_before(state: GameState, name: str, space: FestivalSpace) -> int:
    """The turns the player `name` (as stored) still plays before `space` is held: one a
    round, this round's only if they have not played it yet."""
    order = state.turn_order
    played = order.index(name) < order.index(state.turn.player)
    return space.round - state.round + (0 if played else 1)


def can_reach(state: GameState, board: Board, name: str, space: FestivalSpace, rules: Rules
              ) -> bool:
    """Whether the player `name` (as stored) can stand in `space`'s region when it is held: a
    Move in each turn left before it, and a special move in each of those turns while their
    special tokens last; an off-board pawn's first move goes anywhere. No special tile's
    free move (`regions_within` counts them)."""
    player = state.player(name)
    turns = turns_before(state, player.name, space)
    if turns < 0:
        return False
    return _reaches(board, rules, player.pawn, space.region, turns,
                    min(turns, player.special_tokens))


def regions_within(state: GameState, board: Board, name: str, rules: Rules, turns: int
                   ) -> list[set[str]]:
    """Where the player `name` (as stored) can stand after each of their next `turns` turns
    (this round's first, when they have not played it; what is left of it when it is their
    turn): each turn a Move, the turn's special action as a special move while they hold a
    token (or some region's row does, which a claim could collect), and a special tile's
    free special move after training it where that round's wheel offers it. A bound (tokens
    are not counted down, as a claim can collect more), walked on `move_targets`."""
    player = state.player(name)
    tokens = player.special_tokens > 0 or any(r.special_tokens for r in state.regions.values())
    order = state.turn_order
    mine = state.turn.player == player.name
    first = state.round + (1 if not mine and order.index(player.name)
                           < order.index(state.turn.player) else 0)
    frontier: set[str | None] = {player.pawn}
    found = []
    for index in range(turns):
        rotation = rotation_in_round(state.wheel_rotation, state.round, first + index)
        special = set(where_offered(board, rotation, SPECIAL, state.wheel_side))
        spent = state.turn if mine and index == 0 else None
        can = (not (spent and spent.moved), tokens and not (spent and spent.special),
               not (spent and spent.trained))
        reached: set[str | None] = set()
        for pawn in frontier:
            reached |= _one_turn(board, rules, pawn, can, special)
        frontier = reached
        found.append({r for r in frontier if r is not None})
    return found


def _one_turn(board: Board, rules: Rules, pawn: str | None, can: tuple[bool, bool, bool],
              special: set[str]) -> set[str | None]:
    """Where one turn takes the pawn: `can` = (a Move, a special move, a special tile's free
    one) left; `special`: the regions whose wheel slot offers a special tile this turn."""
    seen = {(pawn, *can)}
    stack = list(seen)
    while stack:
        region, move, paid, free = stack.pop()
        steps = []
        if move:
            steps.append((move_targets(board, rules, region, False), (False, paid, free)))
        if paid:
            steps.append((move_targets(board, rules, region, True), (move, False, free)))
        if free and region in special:
            steps.append((move_targets(board, rules, region, True), (move, paid, False)))
        for targets, left in steps:
            for to in targets:
                step = (to, *left)
                if step not in seen:
                    seen.add(step)
                    stack.append(step)
    return {s[0] for s in seen}


def next_reachable_festival(state: GameState, board: Board, name: str, rules: Rules
                            ) -> FestivalSpace | None:
    """The first festival not held yet whose region the player `name` (as typed at the table)
    can stand in by then (`can_reach`, their special tokens counted, no special tile)."""
    player = state.player(name)
    return next((space for space in festivals_ahead(state)
                 if can_reach(state, board, player.name, space, rules)), None)


def _reaches(board: Board, rules: Rules, pawn: str | None, target: str, moves: int,
             specials: int) -> bool:
    """Whether `target` is reachable from `pawn` with at most `moves` Moves and `specials`
    special moves (staying put is allowed). A Dijkstra over (region, special moves spent) by
    Moves spent: a special move can take the pawn where a Move cannot (`special_move=any`),
    so which move is spent where matters."""
    if pawn == target:
        return True
    queue: list[tuple[int, int, int, str | None]] = [(0, 0, 0, pawn)]  # a tie-break count
    seen: dict[tuple[str | None, int], int] = {(pawn, 0): 0}
    pushed = 0
    while queue:
        used, spent, _, where = heapq.heappop(queue)
        if seen[(where, spent)] < used:
            continue
        steps = []
        if used < moves:
            steps += [(used + 1, spent, to) for to in move_targets(board, rules, where, False)]
        if spent < specials:
            steps += [(used, spent + 1, to) for to in move_targets(board, rules, where, True)]
        for cost, paid, to in steps:
            if to == target:
                return True
            if seen.get((to, paid), moves + 1) > cost:
                seen[(to, paid)] = cost
                pushed += 1
                heapq.heappush(queue, (cost, paid, pushed, to))
    return False
