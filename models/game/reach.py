"""Which festivals are still ahead, and which of them a player's pawn can get to in time: the
festivals not held yet (`festivals_ahead`, the one list every "next festival" rule walks),
the player's turns before each (`turns_before`), and whether their pawn can stand in its
region by then (`can_reach`; `next_reachable_festival`, asked by tower questions of a game,
`best --state`). The turn planner's rule, the next festival a player could compete in (reach
and a tower), is `planner.turns.upcoming`'s.

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
from models.game.wheel import offers, rotation_in_round

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


def special_tile_turns(state: GameState, board: Board, name: str, space: FestivalSpace) -> int:
    """Of those turns, the ones whose wheel offers a special tile somewhere: each could train
    it and take its free special action (a move), a bound: where it is offered is not asked."""
    first = space.round - turns_before(state, name, space) + 1
    return sum(1 for round_ in range(first, space.round + 1)
               if any(SPECIAL in offers(board, rotation_in_round(
                   state.wheel_rotation, state.round, round_), r, state.wheel_side)
                   for r in board.region_ids))


def can_reach(state: GameState, board: Board, name: str, space: FestivalSpace, rules: Rules,
              free_specials: int = 0) -> bool:
    """Whether the player `name` (as stored) can stand in `space`'s region when it is held: a
    Move in each turn left before it, a special move in each of those turns while their
    special tokens last, and `free_specials` more special moves (special tiles' free actions:
    `special_tile_turns`); an off-board pawn's first move goes anywhere."""
    player = state.player(name)
    turns = turns_before(state, player.name, space)
    if turns < 0:
        return False
    return _reaches(board, rules, player.pawn, space.region, turns,
                    min(turns, player.special_tokens) + free_specials)


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
