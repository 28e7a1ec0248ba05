"""A game's deck is kept for its card list: another game with other cards gets its own; a game
file with too few cards to end is refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from models.combo import GameState, load_deck, load_state, new_game
from models.errors import SpecError


def test_deck_follows_the_card_list() -> None:
    deck = load_deck()
    full = new_game(deck, ["Ana", "Ben"], 1)
    assert full.deck().cards == deck.cards
    assert full.deck() is full.deck()  # built once for the same card list
    fewer = full.model_copy(update={"cards": list(deck.cards[:-1])})
    assert fewer.deck().cards == deck.cards[:-1]
    assert full.deck().cards == deck.cards
    renamed = full.model_copy(update={"card_source": "other.toml"})
    assert renamed.deck().source == "other.toml" and full.deck().source == deck.source


def test_a_player_is_found_as_typed_at_the_table() -> None:
    import pytest

    from models.errors import SpecError

    # (two names only case apart are refused: `test_names_only_case_apart_are_refused`)
    table = new_game(load_deck(), ["Ana", "Ben", "Cem"], 1).now
    assert table.named("Ben") is table.players[1]
    assert table.named(" ben").name == "Ben"
    assert table.named("ANA") is table.players[0]
    with pytest.raises(SpecError, match="players: Ana, Ben"):
        table.named("Zoe")


def test_the_kept_deck_is_the_states_own_and_no_part_of_its_equality() -> None:
    from models.combo import GameState, state_from_dict

    deck = load_deck()
    state = new_game(deck, ["Ana", "Ben"], 1)
    fresh = GameState.model_validate(state.model_dump())
    state.deck()  # built and kept by `state` only
    assert fresh == state and fresh.deck() is not state.deck()
    assert fresh.deck().cards == state.deck().cards
    copy = state.model_copy(update={"history": []})
    assert copy.deck() is state.deck()  # the referee's copies share it
    data = state.model_dump(mode="json")
    del data["revision"]  # a file written before revisions
    assert state_from_dict(data).revision == 0


def test_a_game_whose_rows_would_run_dry_is_refused_on_load(tmp_path: Path) -> None:
    """Regression (issue 38): a game file cut down to its six row cards (decks empty) loaded,
    and `combo advise` on it ended with an internal error (exit 4, "max() arg is an empty
    sequence"): two players took the six cards, no take was left, and the game could not end."""
    state = new_game(load_deck(), ["Ana", "Ben"], 1)
    data = json.loads(state.to_json())
    rows = data["start"]["rows"]
    kept = set(rows["castle"] + rows["village"])
    data["cards"] = [c for c in data["cards"] if c["id"] in kept]
    for table in ("start", "now"):
        data[table]["decks"] = {"castle": [], "village": []}
    path = tmp_path / "six.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SpecError, match=r"six\.json: the game.s cards: 6 cards are too few for "
                                        "2 players"):
        load_state(path)
    assert load_state_ok(tmp_path / "whole.json", state)


def load_state_ok(path: Path, state: GameState) -> bool:
    path.write_text(state.to_json(), encoding="utf-8")
    return load_state(path) == state


@pytest.mark.parametrize(("names", "said"), [
    (["Ana", "scorekeeper"], "'scorekeeper' is a role"),
    (["Ana", "ANA"], "two players are named 'Ana' and 'ANA'"),
    (["Ana", "B\x00en"], "no control character (U+0000)"),
    (["Ana", "B\u202een"], "no direction or invisible character (U+202E)"),
])
def test_names_only_case_apart_are_refused(names: list[str], said: str, tmp_path: Path) -> None:
    """Reserved and ambiguous names: refused for a new game and in a game file."""
    with pytest.raises(SpecError, match=re.escape(said)) as caught:
        new_game(load_deck(), names, 1)
    assert caught.value.field == "players"
    data = json.loads(new_game(load_deck(), ["Ana", "Ben"], 1).to_json())
    for table in ("start", "now"):
        data[table]["players"][1]["name"] = names[1]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SpecError, match=re.escape(said)):
        load_state(path)


@pytest.mark.parametrize("seed", [-1, 2**63, 2**80])
def test_a_game_files_seed_is_bounded(seed: int, tmp_path: Path) -> None:
    data = json.loads(new_game(load_deck(), ["Ana", "Ben"], 1).to_json())
    data["seed"] = seed
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SpecError, match="seed: Input should be"):
        load_state(path)
