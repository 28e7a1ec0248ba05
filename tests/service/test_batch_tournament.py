"""A tournament as a batch (`service.batches.tournament`): the chunk size chosen from the games
and the workers (so that two workers share a 12-game run), a folder's own chunk size kept when
it is continued, the progress game by game in this process, and what a folder held said
before the run goes on (Castle Combo's quick greedy games: the loop is both games')."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from filelock import FileLock, Timeout

from models.errors import SpecError
from service.batches.folder import LOCK, MAX_MANIFEST_BYTES, Folder
from service.batches.tournament import (
    MAX_CHUNK,
    Found,
    TournamentJob,
    choose_chunk,
    engine_workers,
    folder_chunk,
    tournament_chunk,
)
from service.castell.tournament import castell_tournament
from service.combo.tournament import tournament, tournament_batch

ARGS = ("greedy,random", 12, 3)


@pytest.mark.parametrize(("games", "workers", "most", "chunk"), [
    (12, 1, 10, 3), (12, 2, 10, 2), (300, 1, 10, 10), (300, 2, 40, 38), (1, 4, 10, 1),
    (12, 2, 1, 1), (12, 0, 10, 10)])
def test_the_chunk_gives_each_worker_about_four(games: int, workers: int, most: int,
                                                chunk: int) -> None:
    assert choose_chunk(games, workers, most) == chunk


@pytest.mark.parametrize(("games", "workers", "most", "players", "chunk"), [
    (12, 2, 10, 3, 3), (12, 1, 10, 3, 3), (300, 1, 10, 3, 9), (300, 2, 40, 2, 38),
    (12, 2, 1, 3, 1), (4, 2, 10, 4, 4)])
def test_a_chunk_holds_whole_deals_where_its_cap_allows(games: int, workers: int, most: int,
                                                        players: int, chunk: int) -> None:
    # a deal's games (one a seat) in one chunk: one process's caches serve all of them
    assert choose_chunk(games, workers, most, players) == chunk


def test_two_workers_share_a_twelve_game_run_evenly() -> None:
    """Ten games a chunk gave one worker ten games of twelve; now each gets six."""
    chunk = choose_chunk(12, 2, 10)
    chunks = [min(chunk, 12 - start) for start in range(0, 12, chunk)]
    assert sum(chunks[0::2]) == sum(chunks[1::2]) == 6


def test_the_workers_of_an_engine() -> None:
    assert engine_workers(3, None) == 3
    assert engine_workers(1, "local:4") == 4
    assert engine_workers(1, "tcp://host:8786") == 0  # not known: the game's cap


def test_a_folder_keeps_its_chunk_size(tmp_path: Path) -> None:
    assert folder_chunk(None) is None and folder_chunk(tmp_path / "new") is None
    (tmp_path / "manifest.json").write_text(json.dumps({"arguments": {"chunk": 10}}))
    assert folder_chunk(tmp_path) == 10
    assert tournament_chunk(12, tmp_path, 2, None, 40) == 10  # the folder's, not 2
    assert tournament_chunk(12, tmp_path, 2, None, 40, given=5) == 5  # refused when opened
    (tmp_path / "manifest.json").write_text("{not json")
    assert tournament_chunk(12, tmp_path, 2, None, 40) == 2


def test_an_older_folder_of_other_chunks_is_continued_in_them(tmp_path: Path) -> None:
    """A folder made with ten games a chunk (the fixed size before) is continued in chunks of
    ten by a run with other workers, to the same files as a run never stopped."""
    whole = tmp_path / "whole"
    tournament_batch(*ARGS, whole)
    # 12 games of 2 seats on one worker: chunks of 4, two whole deals each
    assert json.loads((whole / "manifest.json").read_text())["arguments"]["chunk"] == 4
    old = tmp_path / "old"
    tournament_batch(*ARGS, old, chunk_size=10)
    (old / "chunks" / "0000" / "0000001.jsonl").unlink()
    (old / "games.jsonl").unlink()
    found: list[Found] = []
    tournament_batch(*ARGS, old, workers=2, on_found=found.append)
    assert found == [Found(10, 12)]
    assert (old / "games.jsonl").read_bytes() == (whole / "games.jsonl").read_bytes()
    assert (old / "summary.json").read_bytes() == (whole / "summary.json").read_bytes()


def test_progress_is_told_game_by_game_in_this_process(tmp_path: Path) -> None:
    told: list[int] = []
    found: list[Found] = []
    tournament_batch(*ARGS, tmp_path / "run", on_progress=told.append, on_found=found.append)
    assert sorted(set(told)) == list(range(1, 13)) and told[-1] == 12
    assert found == []  # a new run: nothing to say
    tournament_batch(*ARGS, tmp_path / "run", on_found=found.append)
    assert found == [Found(12, 12)] and found[0].finished


def test_a_resumed_tournament_checks_each_chunk_once(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (issue 53's residue): a continued run checked every line of the folder's
    chunks twice, to say what it held (`on_found`) and again as the runner read them."""
    tournament_batch(*ARGS, tmp_path / "run", chunk_size=4)
    (tmp_path / "run" / "chunks" / "0000" / "0000001.jsonl").unlink()
    checked: list[int] = []
    real = TournamentJob.line_fault

    def line_fault(job: TournamentJob, index: int, line: str) -> str | None:
        checked.append(index)
        return real(job, index, line)

    monkeypatch.setattr(TournamentJob, "line_fault", line_fault)
    found: list[Found] = []
    tournament_batch(*ARGS, tmp_path / "run", on_found=found.append)
    assert found == [Found(8, 12)]
    assert sorted(checked) == [0, 1, 2, 3, 8, 9, 10, 11]  # each kept game's line once


def _free(folder: Path) -> bool:
    lock = FileLock(folder / LOCK, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        return False
    lock.release()
    return True


def test_a_run_lets_its_folder_go_when_it_ends(tmp_path: Path) -> None:
    """Regression (issue 53's residue): a run held its folder's lock until its process ended
    (a second run from the same program, or another process, was refused meanwhile). Now the
    lock is let go when the run ends: finished, failed or stopped."""
    tournament_batch(*ARGS, tmp_path / "combo")
    assert _free(tmp_path / "combo")
    castell_tournament("greedy,random", 2, 1, tmp_path / "castell")
    assert _free(tmp_path / "castell")

    def stop(done: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tournament_batch(*ARGS, tmp_path / "stopped", on_progress=stop)
    assert _free(tmp_path / "stopped")
    with pytest.raises(SpecError):  # refused once the folder is open: let go all the same
        tournament_batch("greedy,random", 12, 4, tmp_path / "combo")
    assert _free(tmp_path / "combo")


def test_a_folder_opened_twice_in_one_process_is_held_until_both_end(tmp_path: Path) -> None:
    with Folder(tmp_path, "toy", {}):
        with Folder(tmp_path, "toy", {}):
            assert not _free(tmp_path)
        assert not _free(tmp_path)
    assert _free(tmp_path)


def test_the_chunk_size_is_bounded_the_same_for_both_games(tmp_path: Path) -> None:
    """Regression (issue 53's residue): Castell's service refused a chunk beyond 1000
    games, Castle Combo's took any; and a folder's manifest gave any size."""
    import cli.batches

    assert cli.batches.MAX_CHUNK == MAX_CHUNK  # the option's bound is the service's
    with pytest.raises(SpecError, match="a chunk is 1 to 1000 games") as refused:
        tournament_batch(*ARGS, tmp_path / "combo", chunk_size=MAX_CHUNK + 1)
    assert refused.value.field == "chunk"
    with pytest.raises(SpecError, match="a chunk is 1 to 1000 games"):
        castell_tournament("greedy,random", 2, 1, tmp_path / "castell", chunk_size=0)
    (tmp_path / "manifest.json").write_text(json.dumps({"arguments": {"chunk": 10**9}}))
    assert folder_chunk(tmp_path) is None


def test_a_huge_manifest_is_not_read_whole(tmp_path: Path) -> None:
    """Regression (issue 53's residue): a folder's manifest was read whole, whatever its size.
    Now past `MAX_MANIFEST_BYTES` it is not a run's (the chunk size not taken from it), and
    the run is refused with one line naming it."""
    out = tmp_path / "run"
    out.mkdir()
    manifest = {"arguments": {"chunk": 10}, "padding": "x" * MAX_MANIFEST_BYTES}
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert folder_chunk(out) is None
    with pytest.raises(SpecError, match=r"manifest\.json' is larger than 64 KiB: not a batch "
                                        "manifest"):
        tournament_batch(*ARGS, out)


def test_a_tournament_without_a_folder_is_the_same_in_any_chunks() -> None:
    """`tournament` (no folder) chooses its chunks as every tournament does (it had a formula
    of its own): its summary is the one of any chunk size."""
    once = tournament(*ARGS).output
    twice = tournament(*ARGS, workers=2).output
    chunked = tournament_batch(*ARGS, None, chunk_size=5).output
    assert once == twice == chunked
