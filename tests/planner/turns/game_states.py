"""Game states for the planner tests: `state new` deals played forward by random legal moves."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from models.game.actions import EndTurn, Recruit, Special
from models.game.board import Board, load_board
from models.game.referee import apply, legal_actions
from models.game.setup import new_game
from models.game.state import GameState
from models.tower import STANDARD
from models.tower.pool import Pool
from planner.turns import PlanBudget, PlanResult, plan_ahead
from planner.turns.plan import plan_turns
from planner.turns.replay import cached_finder
from planner.turns.result import Plan

BOARD = load_board()


def played(seed: int, players: int, until_round: int, board: Board = BOARD) -> GameState:
    """A new game played by random legal actions (no claims; recruiting is favoured, so that
    teams grow towards festival towers) until `until_round` begins."""
    rng = random.Random(seed)
    state = new_game(board, players, seed=seed)
    while state.round < until_round and not state.game_over:
        choices = [a for a in legal_actions(state, board, STANDARD)
                   if not (isinstance(a, Special) and a.kind == "claim")]
        pairs = [a for a in choices if isinstance(a, Recruit) and len(a.sizes) == 2]
        if pairs and rng.random() < 0.7:
            action = rng.choice(pairs)
        elif not state.turn.free_special and rng.random() < 0.25:
            action = EndTurn()
        else:
            action = rng.choice(choices)
        state = apply(state, board, action, STANDARD, cached_finder())
    return state


def trimmed(state: GameState, seed: int, tokens: int, keep: int) -> GameState:
    """A smaller state for the exhaustive search: the current player holds `tokens` special
    tokens and each region keeps `keep` of its castellers."""
    rng = random.Random(seed)
    small = state.clone()
    small.current.special_tokens = tokens
    for region in small.regions.values():
        sizes = list(region.supply)
        rng.shuffle(sizes)
        region.castellers = str(Pool.of(sizes[:keep]))
    return small


@st.composite
def game_states(draw: st.DrawFn, max_round: int = 6) -> GameState:
    seed = draw(st.integers(0, 10_000))
    players = draw(st.integers(2, 4))
    return played(seed, players, draw(st.integers(1, max_round)))


# a wall clock far above the deterministic budget (`PlanBudget.wall_slack`): the plans the
# tests assert are the deterministic budget's alone, the same on a loaded machine as on a
# quiet one (tests of the limits themselves call the planner with the default budget)
ROOMY = PlanBudget(wall_slack=20)


def plan_roomy(state: GameState, board: Board, player: str, **kwargs: Any) -> Plan:
    """`plan_turns` on the `ROOMY` budget (unless another is given)."""
    kwargs.setdefault("budget", ROOMY)
    return plan_turns(state, board, player, **kwargs)


def ahead_roomy(state: GameState, board: Board, player: str, **kwargs: Any) -> PlanResult:
    """`plan_ahead` on the `ROOMY` budget (unless another is given)."""
    kwargs.setdefault("budget", ROOMY)
    return plan_ahead(state, board, player, **kwargs)
