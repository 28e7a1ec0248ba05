"""The Castle Combo action notation: every legal action formats to a text that parses back to it
(as a string and as the words a shell gives), with the game or without; ids and names as typed
at the table; text that cannot be read is a NotationError naming it."""

from __future__ import annotations

import random
import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.combo import (
    Key,
    Reveal,
    Take,
    apply,
    format_action,
    legal_actions,
    load_deck,
    new_game,
    parse_action,
)
from models.errors import NotationError

# names a player may have, a neighbour's among them (quoted by the notation when needed)
NAMES = ["Ana", "Ben Ali", "O'Neil", "cem", "Dee\"x"]


@settings(max_examples=30)
@given(st.integers(3, 5), st.integers(0, 10_000), st.integers(0, 40))
def test_every_legal_action_formats_and_parses_back(players: int, seed: int,
                                                     turns: int) -> None:
    state = new_game(load_deck(), NAMES[:players], seed)
    rng = random.Random(seed)
    for _ in range(turns):
        if state.now.game_over:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    for action in legal_actions(state):
        text = format_action(action)
        assert parse_action(text) == action, text
        assert parse_action(text, state) == action, text
        assert parse_action(shlex.split(text)) == action, text  # the words a shell gives


def test_a_first_card_anywhere_and_its_neighbours_are_written() -> None:
    state = new_game(load_deck(), ["Ana", "Ben"], 5, first="Ana")
    card = state.now.rows[state.now.messenger][0]
    state = apply(state, parse_action(f"flip {card} at 70,-81"))
    for action in legal_actions(apply(state, legal_actions(state)[-1])):
        assert parse_action(format_action(action)) == action


def test_reveals_round_trip() -> None:
    action = Reveal(("V12", "C03"))
    assert format_action(action) == "reveal V12 C03" and parse_action("reveal V12 C03") == action


def test_ids_and_names_are_read_as_typed_with_the_game() -> None:
    state = new_game(load_deck(), ["Ana", "Ben", "Cem"], 5)
    action = parse_action("buy v12 at 0,1 neighbour ' ben' discard c07", state)
    assert action == Take("V12", (0, 1), False, "Ben", (), ("C07",))
    assert parse_action("buy v12", None) == Take("v12", None)  # without the game: as written
    assert parse_action("reveal v30", state) == Reveal(("V30",))
    assert parse_action("KEY Move") == Key("move")
    # an id no card has, or a name no player has, stay as written for the referee (two
    # players only case apart cannot be: `models.names` refuses them)
    assert parse_action("buy zz9 neighbour zoe", state) == Take("zz9", None, neighbour="zoe")


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "empty action"),
    ("dance", "unknown action"),
    ("key jump", "key move"),
    ("buy", "which card"),
    ("buy V12 at 0;1", "ROW,COLUMN"),
    ("buy V12 at", "needs a value"),
    ("buy V12 choose 0", "option number"),
    ("flip V12 choose 1", "unexpected"),
    ("buy V!2", "not a card id"),
    ("buy V12 neighbour 'Ben", "cannot read"),
    ("reveal", "1-6 cards"),
    ("buy V12 at " + "9" * 300 + ",0", "at most 300"),
])
def test_unreadable_text_is_a_notation_error(text: str, fragment: str) -> None:
    with pytest.raises(NotationError, match=fragment):
        parse_action(text)
