"""A game file is verified (its history replayed) once for each text it holds: reading it
again, or reading what a step saved, replays nothing; a change on disk is verified again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from models.errors import SpecError
from service.castell import Game
from service.combo import ComboGame
from service.verified import VERIFIED, Verified

ROUND3 = Path(__file__).resolve().parents[2] / "examples" / "game" / "round3.json"


def _replays(action) -> int:  # type: ignore[no-untyped-def]
    before = VERIFIED.verifications
    action()
    return VERIFIED.verifications - before


def test_a_game_read_again_is_not_replayed_again(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    shutil.copy(ROUND3, path)
    assert _replays(lambda: Game.load(path)) == 1
    assert _replays(lambda: [Game.load(path) for _ in range(5)]) == 0


def _step(path: Path) -> Game:
    """The first legal action, saved."""
    with Game.editing(path) as game:
        game.step(game.legal_actions()[0])
        game.save()
    return game


def test_what_a_step_saves_is_read_without_a_replay(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    shutil.copy(ROUND3, path)

    def step_and_read() -> None:
        game = _step(path)
        assert Game.load(path).revision == game.revision

    Game.load(path)
    assert _replays(step_and_read) == 0  # one load (kept), one save (kept), one read


def test_a_change_on_disk_is_verified_again(tmp_path: Path) -> None:
    import json

    path = tmp_path / "g.json"
    shutil.copy(ROUND3, path)
    Game.load(path)
    data = json.loads(path.read_text())
    path.write_text(json.dumps(data))  # the same game, another text: verified again
    assert _replays(lambda: Game.load(path)) == 1
    path.write_text("{}")
    with pytest.raises(SpecError):
        Game.load(path)


def test_handles_never_share_a_state(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    shutil.copy(ROUND3, path)
    first, second = Game.load(path), Game.load(path)
    first.step(first.legal_actions()[0])
    assert second.state.history == Game.load(path).state.history


def test_handles_share_a_history_s_entries_not_its_list(tmp_path: Path) -> None:
    """A history is never changed in place, so the handles on a kept game share its entries
    (copying them was most of a load at round 10); each handle still has a list of its own."""
    path = tmp_path / "g.json"
    shutil.copy(ROUND3, path)
    _step(path)
    _step(path)  # kept as saved
    first, second = Game.load(path), Game.load(path)
    assert first.state.history is not None and second.state.history is not None
    assert first.state.history.entries[0] is second.state.history.entries[0]
    first.state.history.entries.pop()
    assert second.state.history == Game.load(path).state.history
    assert len(second.state.history.entries) == len(first.state.history.entries) + 1


def test_castle_combo_games_are_kept_too(tmp_path: Path) -> None:
    from models.combo import load_deck, new_game

    path = tmp_path / "c.json"
    path.write_text(new_game(load_deck(), ["Ana", "Ben"], 2, first="Ana").to_json())
    assert _replays(lambda: [ComboGame.load(path) for _ in range(3)]) == 1


def test_the_cache_is_bounded() -> None:
    kept = Verified(size=2)
    for n in range(5):
        kept.get(Path(f"/g{n}.json"), "text", lambda n=n: n, lambda v: v, lambda v: v)
    assert kept.verifications == 5 and len(kept._kept) == 2
    assert kept.get(Path("/g4.json"), "text", lambda: -1, lambda v: v, lambda v: v) == 4


def test_the_game_kept_at_a_save_is_not_changed_by_the_handles_next_steps(
        tmp_path: Path) -> None:
    """What a save keeps is the handle's own state, not a copy (states are never changed in
    place): the handle's next steps, and a page drawn as if saved, leave it as it was saved."""
    path = tmp_path / "g.json"
    shutil.copy(ROUND3, path)
    game = Game.load(path)
    game.step(game.legal_actions()[0])
    with game.saving():
        assert game.revision == game.loaded_revision + 1
    saved = path.read_text(encoding="utf-8")
    game.step(game.legal_actions()[0])
    game.step("end")
    assert Game.load(path).state.to_json() == saved


def test_kept_games_are_packed_out_of_the_collectors_sight(tmp_path: Path) -> None:
    """A server keeps dozens of games; kept as live objects (a state is hundreds of them, a
    round-10 state thousands) the collector's full passes walked them all, a pause in some
    step. Packed, a kept game is a handful of tracked objects."""
    import gc

    path = tmp_path / "g.json"
    shutil.copy(ROUND3, path)
    _step(path)
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(10):
        _step(path)  # each save is kept
    gc.collect()
    assert (len(gc.get_objects()) - before) / 10 < 60  # was 267 with live states
