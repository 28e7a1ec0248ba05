"""Which festival a player can still get to: the festivals not held yet whose region their pawn
can reach in time (used by tower questions asked of a game, `best --state`).

Where a move goes is `move_targets`'s to say (the one place the referee and the planners take
it from), under the game's readings: reach is walked move by move on it, never re-derived from
graph distances, so that `special_move=any` (a special move goes anywhere) is honoured here
too."""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from models.game.board import Board
from models.game.regions import move_targets
from models.game.state import FestivalSpace, GameState

if TYPE_CHECKING:
    from models.tower import Rules


def next_reachable_festival(state: GameState, board: Board, name: str, rules: Rules
                            ) -> FestivalSpace | None:
    """The first festival not held yet whose region the player `name` (as typed at the table)
    can stand in by then: a Move each turn left before it, and a special move in each of
    those turns while their special tokens last (an off-board pawn's first move goes
    anywhere)."""
    player = state.player(name)
    order = state.turn_order
    played = order.index(player.name) < order.index(state.turn.player)
    for space in sorted(state.festivals, key=lambda f: f.round):
        if space.resolved or space.round < state.round:
            continue
        turns = space.round - state.round + (0 if played else 1)
        if _reaches(board, rules, player.pawn, space.region, turns,
                    min(turns, player.special_tokens)):
            return space
    return None


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
