"""A puzzle book and a tournament give byte-identical files on one process, a local pool of 2
and a 2-worker Dask `LocalCluster`; a Dask worker killed mid-run is retried by the engine and
the files do not change. One module-scoped cluster serves every test."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.castell.puzzle_book import BookJob, book
from service.castell.tournament import castell_tournament
from service.combo.tournament import tournament, tournament_batch

distributed = pytest.importorskip("distributed",
                                  reason="Dask not installed: pip install -e '.[dask]'")

BOOK = BookJob("shape", "easy", 11, "standard", 12, chunk_size=4)
FILES = {"book": ("manifest.json", "puzzles.jsonl"),
         "tournament": ("manifest.json", "games.jsonl", "summary.json", "cards.csv"),
         "castell": ("manifest.json", "games.jsonl", "summary.json", "scores.svg")}


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as local:
        yield local


def _files(folder: Path, kind: str) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes() for name in FILES[kind]}


def _engines(cluster: Any) -> list[dict[str, Any]]:
    return [{"workers": 1}, {"workers": 2}, {"dask": cluster.scheduler_address}]


def test_a_book_is_the_same_on_every_engine(cluster: Any, tmp_path: Path) -> None:
    made = []
    for number, engine in enumerate(_engines(cluster)):
        answer = book(BOOK, tmp_path / str(number), **engine)
        assert answer.puzzles == 12
        made.append(_files(tmp_path / str(number), "book"))
    assert made[0] == made[1] == made[2]
    assert made[0]["puzzles.jsonl"].count(b"\n") == 12


def test_a_tournament_is_the_same_on_every_engine_and_as_today(cluster: Any,
                                                               tmp_path: Path) -> None:
    made = []
    for number, engine in enumerate(_engines(cluster)):
        result = tournament_batch("greedy,random", 21, 5, tmp_path / str(number),
                                  chunk_size=7, **engine)
        made.append(_files(tmp_path / str(number), "tournament"))
    assert made[0] == made[1] == made[2]
    today = tournament("greedy,random", 21, 5).output
    assert result.output == today
    assert made[0]["summary.json"] == (today.to_json() + "\n").encode()


def test_a_castell_tournament_is_the_same_on_every_engine(cluster: Any, tmp_path: Path) -> None:
    made = []
    for number, engine in enumerate(_engines(cluster)):
        castell_tournament("greedy,random", 4, 3, tmp_path / str(number), chunk_size=2,
                           **engine)
        made.append(_files(tmp_path / str(number), "castell"))
    assert made[0] == made[1] == made[2]
    assert made[0]["games.jsonl"].count(b"\n") == 4


def test_a_killed_worker_is_retried_and_the_result_is_unchanged(cluster: Any,
                                                                tmp_path: Path) -> None:
    expected = tournament_batch("greedy,random", 36, 9, tmp_path / "one", chunk_size=6)
    with distributed.Client(cluster) as client:
        before = client.run(os.getpid)
    killed: list[int] = []

    def kill_one(done: int) -> None:
        if done >= 6 and not killed:  # a chunk in: the workers are busy with the next ones
            victim = sorted(before.values())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    result = tournament_batch("greedy,random", 36, 9, tmp_path / "dask", chunk_size=6,
                              dask=cluster.scheduler_address, on_progress=kill_one)
    assert killed
    assert result.output == expected.output
    assert _files(tmp_path / "dask", "tournament") == _files(tmp_path / "one", "tournament")
    with distributed.Client(cluster) as client:
        client.wait_for_workers(2, timeout=30)
        assert killed[0] not in client.run(os.getpid).values()  # the nanny started another
