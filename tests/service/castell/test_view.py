"""Castell's one view of a game (`Game.view`): the legal steps labelled, and the history with
each step's round and player counted without a replay, as a replay finds them."""

from __future__ import annotations

from models.game import format_action, load_board, new_game
from planner.castell import greedy_turn
from service.castell import Game


def test_the_history_lines_carry_the_round_and_player_a_replay_finds() -> None:
    board = load_board()
    game = Game.from_state(new_game(board, 3, 4), board)
    seen: list[tuple[int, str]] = []
    while game.state.round <= 4:
        turn = greedy_turn(game.state, board)
        for action in turn.actions:
            seen.append((game.state.round, game.state.turn.player))
            game.step(action)
    view = game.view()
    assert [(h.round, h.player) for h in view.history] == seen
    assert {h.round for h in view.history} == {1, 2, 3, 4}
    held = [f for f in game.state.festivals if f.resolved]
    assert held and [(f.round, f.location) for f in view.held] == \
        sorted(((f.round, f.location) for f in held), key=lambda x: -x[0])
    assert {c.player for f in view.held for c in f.competitors} == \
        {p.name for p in game.state.players}


def test_every_legal_step_is_labelled() -> None:
    board = load_board()
    game = Game.from_state(new_game(board, 3, 4), board)
    view = game.view()
    assert [s.step for s in view.actions] == [format_action(a, board)
                                              for a in game.legal_actions()]
    moves = [s for s in view.actions if s.kind == "move"]
    assert moves and all(s.region and board.region(s.region).name in s.label for s in moves)
    assert all(t.asks.startswith("a tower of exactly") for r in view.regions for t in r.tiles)
