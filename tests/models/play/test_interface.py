"""Both games behind the one interface (`models.play.GameInPlay`): the seat to move, its legal
steps and no other seat's, a step applied to a new game, what a seat sees, copy and save."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from models.combo import load_deck
from models.combo import new_game as new_combo
from models.combo.play import ComboInPlay
from models.errors import Refused, SpecError
from models.game import load_board
from models.game import new_game as new_castell
from models.game.play import CastellInPlay, NameTower
from models.play import KINDS, GameInPlay, kind_named

BOARD = load_board(None)


def castell() -> CastellInPlay:
    return CastellInPlay(new_castell(BOARD, 3, 7, names=["Anna", "Biel", "Carla"]), BOARD)


def combo() -> ComboInPlay:
    return ComboInPlay(new_combo(load_deck(), ["Ana", "Ben"], 7, first="Ben"))


@pytest.mark.parametrize("make", [castell, combo])
def test_only_the_seat_to_move_has_steps_and_a_step_makes_a_new_game(
        make: Callable[[], GameInPlay]) -> None:
    game: GameInPlay = make()
    seat = game.to_move()
    assert seat is not None and not game.game_over
    assert len(game.scores()) == len(game.players)
    steps = game.legal_steps(seat)
    assert steps
    assert all(not game.legal_steps(other) for other in range(len(game.players))
               if other != seat)
    before = game.save()
    after = game.apply(steps[0])
    assert game.save() == before  # the game applied to is left as it was
    assert after.save() != before


@pytest.mark.parametrize("make", [castell, combo])
def test_a_copy_and_the_saved_text_are_the_same_game(
        make: Callable[[], CastellInPlay | ComboInPlay]) -> None:
    game = make()
    again = type(game).from_text(game.save(), BOARD) if isinstance(game, CastellInPlay) \
        else type(game).from_text(game.save())
    assert again.save() == game.save() == game.copy().save()
    assert again.players == game.players and again.to_move() == game.to_move()


def test_a_castell_seat_sees_no_bag_and_no_seed() -> None:
    game = castell()
    assert game.state.bag and game.state.seed
    seen = game.view(0)
    assert seen.state.bag is None and seen.state.seed == 0
    assert game.state.bag  # hidden from the view only
    assert seen.players == game.players and seen.to_move() == game.to_move()


def test_a_castle_combo_seat_sees_the_decks_contents_not_their_order() -> None:
    game = combo()
    seen = game.view(1)
    for where, cards in game.state.now.decks.items():
        assert seen.state.now.decks[where] == sorted(cards)
        assert seen.state.start.decks[where] == sorted(game.state.start.decks[where])
    assert any(cards != sorted(cards) for cards in game.state.now.decks.values())
    assert seen.state.seed == 0 and game.state.seed != 0
    assert seen.state.now.rows == game.state.now.rows  # the rows are face up
    assert seen.legal_steps(1) == game.legal_steps(1)


def test_a_castell_step_may_name_a_festival_tower_through_the_referee() -> None:
    game = castell()
    with pytest.raises(Refused, match="no festival at the end of round 1"):
        game.apply(NameTower("nowhere", None))


def test_the_registry_names_each_kind_and_its_adapter() -> None:
    assert set(KINDS) == {"castell", "combo"}
    assert KINDS["castell"].adapter is CastellInPlay and KINDS["combo"].adapter is ComboInPlay
    assert all(kind.adapter.kind == name for name, kind in KINDS.items())
    with pytest.raises(SpecError, match="no game called 'chess'"):
        kind_named("chess")
