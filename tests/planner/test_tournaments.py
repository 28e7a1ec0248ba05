"""The tournament loop both games share (`planner.tournaments`) and the one bot protocol: each
game's bots wrapped (`SeatTurns`, `OneStep`) decide what they decided, from a seat's view."""

from __future__ import annotations

import random

import pytest

from models.combo import load_deck
from models.combo import new_game as new_combo
from models.combo.play import ComboInPlay
from models.errors import SpecError
from models.game import EndTurn, Move, load_board, new_game
from models.game.play import CastellInPlay, NameTower
from planner import tournaments
from planner.castell import BOTS, CASTELL, SeatTurns, Turn, turn_of, turn_steps
from planner.combo import COMBO, Greedy, OneStep, random_bot
from planner.tournaments import check_bots, seats

BOARD = load_board(None)


def test_seats_number_a_bot_that_plays_more_than_one() -> None:
    assert seats(["greedy", "random", "greedy"]) == ["greedy#1", "random", "greedy#2"]


@pytest.mark.parametrize(("game", "bots", "message"), [
    (CASTELL, ["greedy", "chess"], "unknown bot 'chess' (bots: random, greedy, advisor"),
    (CASTELL, ["greedy"], "a game seats 2-4 bots, got 1"),
    (COMBO, ["greedy", "nobody"], "unknown bot 'nobody' (bots: random, greedy, advisor)"),
    (COMBO, ["greedy"] * 7, "bots, got 7"),
])
def test_unknown_bots_and_wrong_tables_are_refused(game: tournaments.TournamentGame, bots:
                                                   list[str], message: str) -> None:
    with pytest.raises(SpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_bots(game, bots)


@pytest.mark.parametrize("turn", [
    Turn((Move(to="r1"), EndTurn()), (("Barcelona", "3d7"), ("Tarragona", None))),
    Turn((EndTurn(),)),
    Turn(()),
    Turn((Move(to="r1"), EndTurn(), Move(to="r2"))),  # a bot's bug: the referee refuses it
])
def test_a_castell_turn_as_steps_reads_back_the_same(turn: Turn) -> None:
    steps = turn_steps(turn)
    assert turn_of(steps) == turn
    assert [s for s in steps if isinstance(s, NameTower)] == \
        [NameTower(location, tower) for location, tower in turn.towers]


def test_a_castell_bot_wrapped_decides_as_it_did_from_the_seats_view() -> None:
    state = new_game(BOARD, 3, 11)
    game = CastellInPlay(state, BOARD)
    seat = game.to_move()
    assert seat is not None
    for name in ("random", "greedy"):
        wrapped = SeatTurns(BOTS[name]())(game.view(seat), random.Random(5))
        alone = BOTS[name]()(state, BOARD, random.Random(5))
        assert turn_of(wrapped) == alone


def test_a_castle_combo_bot_wrapped_decides_as_it_did_from_the_seats_view() -> None:
    game = ComboInPlay(new_combo(load_deck(), ["Ana", "Ben"], 3))
    seat = game.to_move()
    assert seat is not None
    for bot in (random_bot, Greedy()):
        wrapped = OneStep(bot)(game.view(seat), random.Random(2))
        assert wrapped == (bot(game.state, random.Random(2)),)


def test_a_game_of_either_kind_through_the_one_loop() -> None:
    from planner.castell import Setup
    from planner.combo import ComboSetup

    castell = tournaments.play_game(CASTELL, Setup(BOARD), ["random", "random"], 4, 1)
    combo = tournaments.play_game(COMBO, ComboSetup(load_deck()), ["greedy", "random"], 4, 1)
    assert castell.players == ("random#2", "random#1")  # game 1: the seats rotated by one
    assert combo.players == ("greedy", "random")
    assert len(castell.totals) == len(combo.totals) == 2
