"""The Castle Combo game handle: loading (files without a revision too), saving under the lock
with the revision +1, a stale writer refused, players as typed, steps and their outcomes, the
turn guard, and the undo policy (never back over a card drawn into a row, unless recorded)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from models.combo import (
    GameState,
    Key,
    Take,
    legal_actions,
    load_deck,
    load_state,
    new_game,
    recorded_game,
)
from models.errors import Reason, Refused, SpecError
from service.combo import ComboGame
from service.store import StaleRevision


def _game(tmp_path: Path, state: GameState | None = None) -> Path:
    path = tmp_path / "game.json"
    state = state or new_game(load_deck(), ["Ana", "Ben", "Cem"], 5, first="Ana")
    path.write_text(state.to_json(), encoding="utf-8")
    return path


def _take(game: ComboGame) -> Take:
    """A legal take of the player to move (the last legal action is a take)."""
    action = game.legal_actions()[-1]
    assert isinstance(action, Take)
    return action


def test_a_file_without_a_revision_loads_at_revision_0(tmp_path: Path) -> None:
    path = _game(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["revision"]  # as written before revisions
    path.write_text(json.dumps(data), encoding="utf-8")
    game = ComboGame.load(path)
    assert game.revision == 0 and game.state.history == []


def test_every_save_is_one_revision_and_the_file_holds_it(tmp_path: Path) -> None:
    path = _game(tmp_path)
    with ComboGame.editing(path) as game:
        game.step("key move")
        game.step(_take(game))  # two steps, one write
        game.save()
    assert game.revision == 1 and load_state(path).revision == 1
    assert load_state(path).history[0].action == "key move"
    again = ComboGame.load(path)
    again.step(_take(again))
    again.save()
    assert load_state(path).revision == 2 and len(load_state(path).history) == 3


def test_a_stale_writer_is_refused_and_the_file_is_kept(tmp_path: Path) -> None:
    path = _game(tmp_path)
    first, second = ComboGame.load(path), ComboGame.load(path)
    first.step("key move")
    first.save()
    kept = path.read_bytes()
    second.step(_take(second))
    with pytest.raises(StaleRevision) as stale:
        second.save()
    assert stale.value.code is Reason.STALE_REVISION
    assert path.read_bytes() == kept
    with pytest.raises(StaleRevision):  # a step that expects another revision
        first.step("key renew", expect_revision=0)


def test_a_hand_edited_file_does_not_load(tmp_path: Path) -> None:
    path = _game(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["now"]["players"][0]["gold"] = 99
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SpecError, match="does not reach"):
        ComboGame.load(path)


def test_players_are_found_as_typed_with_a_hint(tmp_path: Path) -> None:
    game = ComboGame.load(_game(tmp_path))
    assert game.player(" ben ").name == "Ben" and game.player().name == "Ana"
    with pytest.raises(SpecError, match="did you mean 'Cem'"):
        game.player("Cam")
    assert game.legal_actions("ben") == [] and game.legal_actions("ana")


def test_a_step_says_what_it_changed(tmp_path: Path) -> None:
    game = ComboGame.load(_game(tmp_path))
    row = list(game.state.now.rows["village"])
    moved = game.step("key move", as_player="ANA")
    assert (moved.step, moved.player, moved.drawn, moved.to_play) == ("key move", "Ana", (),
                                                                      "Ana")
    castle = game.state.now.rows["castle"][0]
    took = game.step(f"buy {castle.lower()}")  # the id as typed
    assert took.step.startswith(f"buy {castle} at 0,0") and took.player == "Ana"
    assert len(took.drawn) == 1 and took.drawn[0] not in row  # the refill's card
    assert took.to_play == "Ben" and not took.game_over and not took.undone


def test_a_step_out_of_turn_is_refused(tmp_path: Path) -> None:
    game = ComboGame.load(_game(tmp_path))
    before = game.state
    with pytest.raises(Refused, match="Ana's turn, not Ben's") as wrong:
        game.step("key move", as_player="ben")
    assert wrong.value.code is Reason.WRONG_PLAYER and game.state is before
    game.step("key move", as_player="Ana")
    with pytest.raises(Refused) as illegal:  # the referee's own refusals carry their code
        game.step("key renew")
    assert illegal.value.code is Reason.KEY_USED


def test_undo_never_goes_back_over_a_drawn_card(tmp_path: Path) -> None:
    game = ComboGame.load(_game(tmp_path))
    start = game.state
    game.step("key move")
    back = game.step("undo")  # a key move shows no card
    assert back.undone and back.step == "key move" and game.state.now == start.now
    game.step(_take(game))
    with pytest.raises(Refused, match="cannot undo") as crossing:
        game.undo()
    assert crossing.value.code is Reason.UNDO_CROSSES_DRAW
    with pytest.raises(Refused) as nothing:
        ComboGame.from_state(start).undo()
    assert nothing.value.code is Reason.NOTHING_TO_UNDO


def test_a_recorded_game_undoes_any_step(tmp_path: Path) -> None:
    state = recorded_game(load_deck(), ["Ana", "Ben"], ["C01", "C02", "C03"],
                          ["V01", "V02", "V03"], "Ana")
    game = ComboGame.load(_game(tmp_path, state))
    took = game.step("buy v01")
    assert took.waiting == {"village": 1} and took.drawn == ()
    shown = game.step("reveal v30", as_player="Ana")  # a reveal is the table's, anyone's
    assert shown.player is None and shown.drawn == ("V30",) and shown.waiting == {}
    # the reveal showed V30, yet a record is corrected: anyone takes a reveal back
    assert game.undo(as_player="Ben").step == "reveal V30"
    assert game.state.now.rows["village"] == [None, "V02", "V03"]
    with pytest.raises(Refused) as wrong:
        game.undo(as_player="Ben")  # Ana's take is Ana's to take back
    assert wrong.value.code is Reason.WRONG_PLAYER
    game.undo(as_player="Ana")
    assert game.state.now == state.now


def test_legal_actions_are_the_referees(tmp_path: Path) -> None:
    game = ComboGame.load(_game(tmp_path))
    assert game.legal_actions() == legal_actions(game.state)
    assert Key("move") in game.legal_actions("Ana")


def test_scores_and_the_view(tmp_path: Path) -> None:
    game = ComboGame.load(_game(tmp_path))
    game.step(_take(game))
    sheet = game.score("Ana")
    view = game.view()
    assert sheet.total == view.tableaux[0].score
    assert sum(cell.points for row in view.tableaux[0].cells for cell in row if cell) == \
        sum(card.points for card in sheet.cards)
    assert view.to_play == "Ben" and view.history[0].player == "Ana"
    assert "scores" not in json.loads(view.to_json())  # only once the game is over
    with pytest.raises(SpecError, match="not over"):
        game.final_scores()


def test_save_needs_a_file() -> None:
    game = ComboGame.from_state(new_game(load_deck(), ["Ana", "Ben"], 1))
    with pytest.raises(SpecError, match="no file"):
        game.save()
