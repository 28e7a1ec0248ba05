"""A game file's identity (`service.game_identity`), which a served game's seats are bound to:
the same through the game's steps and undos, another for another game, and a revision that
went down tells a new game at the path."""

from __future__ import annotations

from pathlib import Path

from service.combo.new import start_game as start_combo
from service.combo.new import write_new
from service.game_identity import identity
from service.handles import edit_handle
from tests.web.conftest import new_castell


def test_a_castell_game_keeps_its_identity_through_steps_and_undo(tmp_path: Path) -> None:
    path = new_castell(tmp_path, players="Anna,Biel")
    first = identity(path)
    assert first is not None and first.players == ("Anna", "Biel") and first.revision == 0
    for step in ("end", "undo"):
        with edit_handle(path, "castell", wait=1) as game:
            game.play([step], expect_revision=game.revision)
            game.save()
        now = identity(path)
        assert now is not None and now.start == first.start
    last = identity(path)
    assert last is not None and last.revision == 2 and not last.went_back(2)


def test_an_older_file_keeps_its_identity_when_first_written_in_full(tmp_path: Path) -> None:
    # examples/game/round3.json leaves "deal" and "rules" out (`null` reads the same); its
    # first save writes each as the model's default: the same game, its seats kept
    path = tmp_path / "round3.json"
    path.write_bytes(Path("examples/game/round3.json").read_bytes())
    first = identity(path)
    assert first is not None
    with edit_handle(path, "castell", wait=1) as game:
        game.play(["undo"] if game.revision else [game.legal_steps()[0]],
                  expect_revision=game.revision)
        game.save()
    assert '"deal": "seeded"' in path.read_text()
    now = identity(path)
    assert now is not None and now.start == first.start


def test_a_combo_game_keeps_its_identity_through_a_step(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    write_new(start_combo("Ana,Ben", seed=3), path)
    first = identity(path)
    assert first is not None and first.players == ("Ana", "Ben")
    with edit_handle(path, "combo", wait=1) as game:
        game.play([game.legal_steps()[0]], expect_revision=game.revision)
        game.save()
    now = identity(path)
    assert now is not None and now.start == first.start and now.revision == 1


def test_another_game_is_another_identity(tmp_path: Path) -> None:
    one = identity(new_castell(tmp_path, "a.json", players="Anna,Biel"))
    other = identity(new_castell(tmp_path, "b.json", players="Anna,Carla"))
    seeded = identity(new_castell(tmp_path, "c.json", players="Anna,Biel", seed=2))
    assert one is not None and other is not None and seeded is not None
    assert len({one.start, other.start, seeded.start}) == 3
    (tmp_path / "x.json").write_text('{"not": "a game"}')
    assert identity(tmp_path / "x.json") is None and identity(tmp_path / "none.json") is None


def test_a_revision_that_went_down_is_asked_of_the_file_again(tmp_path: Path) -> None:
    path = new_castell(tmp_path)
    before = identity(path)
    assert before is not None and not before.went_back(0)
    with edit_handle(path, "castell", wait=1) as game:
        game.play(["end"], expect_revision=0)
        game.save()
    assert not before.went_back(1)  # read before the step: the file holds revision 1
    path.unlink()
    new_castell(tmp_path)  # a new game at the path, revision 0
    assert before.went_back(1)


def test_a_steps_save_keeps_the_identity_a_fresh_read_gives(tmp_path: Path) -> None:
    """A page's step remembers the identity of the text it wrote (`remember`: no second
    parse of the whole game for the seats' next question): the same as reading the file."""
    from service import game_identity
    from service.step import play_steps

    combo = tmp_path / "c.json"
    write_new(start_combo("Ana,Ben", seed=3), combo)
    for path, kind in ((new_castell(tmp_path), "castell"), (combo, "combo")):
        with edit_handle(path, kind, wait=1) as game:  # type: ignore[arg-type]
            step, revision = game.legal_steps()[0], game.revision
        game_identity._SEEN.clear()
        play_steps(path, kind, [step], revision, wait=5.0)  # type: ignore[arg-type]
        assert [key[0] for key in game_identity._SEEN] == [str(path)]  # kept at the save
        kept = identity(path)
        game_identity._SEEN.clear()
        fresh = identity(path)
        assert kept is not None and kept == fresh and fresh.revision == revision + 1
