"""service.store: two writers at once never lose a step. Two loops of 9 `castell play`
processes each on one game file: every step a process reports as recorded (exit 0) is in the
history, in order; a refused one (exit 1) changed nothing; the file always loads."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from models.game import load_board, load_state, new_game
from service.castell import Game
from service.store import StaleRevision

BOARD = load_board()
STEPS = 9  # two loops of 9: 18 tries at the 20 steps a game has, most of them overlapping


def _writer(path: Path, codes: list[int]) -> None:
    for _ in range(STEPS):
        done = subprocess.run([sys.executable, "-m", "cli", "play", str(path), "end"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode in (0, 1), done.stderr
        assert "Traceback" not in done.stderr
        codes.append(done.returncode)


def test_two_concurrent_writers_lose_no_step(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(new_game(BOARD, 2, 3).to_json())
    codes: list[list[int]] = [[], []]
    writers = [threading.Thread(target=_writer, args=(path, codes[i])) for i in range(2)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    state = load_state(path)
    accepted = sum(code == 0 for run in codes for code in run)
    assert state.history is not None
    # every step recorded is in the history, once; a refused one (a stale revision) is not
    assert accepted == len(state.history.entries) == state.revision
    assert 0 < accepted <= 2 * STEPS < 2 * BOARD.rounds  # the game never ended on them
    assert not state.game_over
    Game.load(path)  # the file loads and replays


def test_a_stale_save_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(new_game(BOARD, 2, 3).to_json())
    slow, fast = Game.load(path), Game.load(path)
    fast.step("end")
    fast.save()
    before = path.read_bytes()
    slow.step("end")
    with pytest.raises(StaleRevision):
        slow.save()
    assert path.read_bytes() == before


def test_a_link_and_its_file_share_one_lock(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (issue 38): `castell play g.json ...` and `castell play l.json ...` with l.json
    a link to g.json both exit 0 with one step recorded, 4 runs in 50: each path had a lock
    of its own. Each writer loads, then writes what it loaded + 1; a write that found the file
    changed is refused. Whatever the order, every write that lands is counted."""
    import json

    from service import store

    real = tmp_path / "g.json"
    real.write_text(json.dumps({"revision": 0}), encoding="utf-8")
    link = tmp_path / "l.json"
    link.symlink_to(real)
    plain_write = store.write_atomic_meanwhile

    @contextlib.contextmanager
    def slow_write(path: Path | str, text: str) -> Iterator[None]:  # widens the race's window
        threading.Event().wait(0.005)
        with plain_write(path, text):
            yield

    monkeypatch.setattr(store, "write_atomic_meanwhile", slow_write)

    def writer(path: Path, start: threading.Barrier, written: list[bool]) -> None:
        game_file = store.GameFile(path)
        start.wait()
        loaded = game_file.revision_on_disk()
        try:
            game_file.write(json.dumps({"revision": loaded + 1}), loaded)
            written.append(True)
        except StaleRevision:
            written.append(False)

    for _ in range(50):
        before = store.GameFile(real).revision_on_disk()
        written: list[bool] = []
        start = threading.Barrier(2)
        threads = [threading.Thread(target=writer, args=(p, start, written))
                   for p in (real, link)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert store.GameFile(link).revision_on_disk() == before + sum(written)
    assert link.is_symlink()


def test_a_deeply_nested_file_has_no_revision_and_no_crash(tmp_path: Path) -> None:
    """Regression (issue 38): `[[[...]]]` 10,000 deep as a game file made the server's
    revision check raise RecursionError (a 500, the event stream dead)."""
    from models.errors import SpecError
    from service.store import GameFile

    deep = tmp_path / "g.json"
    deep.write_text("[" * 10_000 + "]" * 10_000, encoding="utf-8")
    assert GameFile(deep).revision_on_disk() == 0
    with pytest.raises(SpecError, match="nested deeper than"):
        GameFile(deep).data()


def test_no_lock_file_lies_beside_a_game(tmp_path: Path) -> None:
    """Issue 36: a step left g.json.lock beside g.json (and a lock of '.' left '..lock'): the
    locks live in a hidden folder beside the games, one file a game, its real path's."""
    import json

    from service import store

    path = tmp_path / "g.json"
    path.write_text(json.dumps({"revision": 0}), encoding="utf-8")
    (tmp_path / "l.json").symlink_to(path)
    store.GameFile(path).write(json.dumps({"revision": 1}), 0)
    store.GameFile(tmp_path / "l.json").write(json.dumps({"revision": 2}), 1)
    assert sorted(p.name for p in tmp_path.iterdir()) == [store.LOCKS, "g.json", "l.json"]
    assert [p.name for p in (tmp_path / store.LOCKS).iterdir()] == ["g.json.lock"]


def test_the_revision_on_disk_is_read_from_the_files_tail(tmp_path: Path) -> None:
    """Both games write the revision last: it is read from the tail, and agrees with the whole
    file's; a file written otherwise is parsed whole."""
    import json

    from service.store import GameFile
    from tests.web.conftest import new_castell, new_combo

    for path in (new_castell(tmp_path), new_combo(tmp_path)):
        assert GameFile(path)._tail_revision() == 0  # as each game writes its files
        data = json.loads(path.read_text(encoding="utf-8"))
        data["revision"] = 41
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        file = GameFile(path)
        assert file._tail_revision() == 41 and file.revision_on_disk() == 41
        compact = {"revision": 7, **{k: v for k, v in data.items() if k != "revision"}}
        path.write_text(json.dumps(compact), encoding="utf-8")
        assert file._tail_revision() is None and file.revision_on_disk() == 7


def test_a_look_at_the_lock_says_whether_another_writer_holds_it(tmp_path: Path) -> None:
    """`lock_is_free` looks without waiting (a server's step waits for the lock in its event
    loop, `web.step_gate`), and leaves the lock as it was."""
    from filelock import FileLock

    from service import store

    game = tmp_path / "g.json"
    game.write_text("{}")
    assert store.lock_is_free(game)
    held = FileLock(store.lock_path(game))
    with held:
        assert not store.lock_is_free(game)
    assert store.lock_is_free(game) and store.lock_is_free(game)
