"""The planner's reference: every legal action sequence, played through the referee.

For small states and short horizons only (it is exponential). It shares nothing with the CP-SAT
plan model but the referee and the festival tower finder, which is what makes it an oracle for
the festival goal. Claims are left out: a claim spends a special action and changes neither
team nor ranks, so it never raises a festival score.
"""

from __future__ import annotations

from models.game import Board, EndTurn, GameState, Outcome, apply, legal_actions
from models.tower import Rules
from planner.turns.replay import advance_to, cached_finder, finish_turn, visible


def best_festival_score(state: GameState, board: Board, player: str, turns: int,
                        rules: Rules) -> int:
    """The best festival score `player` can reach in their next `turns` turns, opponents
    taking no actions and no refill drawn (the bag is hidden, as for the planner); 0 when no
    festival of the horizon can be competed in."""
    finder = cached_finder()
    start = advance_to(visible(state), board, player, rules, finder)
    frontier: dict[tuple[object, ...], tuple[GameState, int]] = {_key(start): (start, 0)}
    for turn in range(turns):
        finishes: dict[tuple[object, ...], tuple[GameState, int]] = {}
        for begin, best in frontier.values():
            if begin.game_over:
                _keep(finishes, begin, best, _key(begin))
                continue
            for finished in _turn_ends(begin, board, rules):
                key = _key(finished)
                if turn == turns - 1:
                    # after the last turn only the festival matters, and the opponents do
                    # nothing: one state per pawn, team and ranks is enough
                    me = finished.current
                    key = (me.pawn, me.pool, me.skills)
                _keep(finishes, finished, best, key)
        frontier = {}
        for finished, best in finishes.values():
            if finished.game_over:
                _keep(frontier, finished, best, _key(finished))
                continue
            outcomes: list[Outcome] = []
            after = finish_turn(finished, board, rules, finder, outcomes, None)
            after = advance_to(after, board, player, rules, finder, outcomes)
            scores = [o.entry(player).score or 0 for o in outcomes]
            _keep(frontier, after, max([best, *scores]), _key(after))
    return max(best for _, best in frontier.values())


def _turn_ends(state: GameState, board: Board, rules: Rules) -> list[GameState]:
    """Every distinct state the current player can end their turn in."""
    seen = {_key(state): state}
    stack = [state]
    while stack:
        current = stack.pop()
        for action in legal_actions(current, board, rules):
            if isinstance(action, EndTurn):
                continue
            nxt = apply(current, board, action, rules)
            key = _key(nxt)
            if key not in seen:
                seen[key] = nxt
                stack.append(nxt)
    return [s for s in seen.values() if not s.turn.free_special]


def _keep(found: dict[tuple[object, ...], tuple[GameState, int]], state: GameState, best: int,
          key: tuple[object, ...]) -> None:
    if key not in found or found[key][1] < best:
        found[key] = (state, best)


def _key(state: GameState) -> tuple[object, ...]:
    """What a state's future festival scores depend on: the opponents do nothing, and the
    tokens lying in the rows only matter to claims, which are left out."""
    me = state.current
    return (state.round, state.turn.model_dump_json(), me.pawn, me.pool, me.skills,
            me.special_tokens, tuple(r.castellers for r in state.regions.values()))
