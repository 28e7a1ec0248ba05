"""The batch runner (`service.batches`) on a toy job: chunks reduced in index order whatever
order they finish in, the folder's resume and refusals, the engines, and `--dask` without the
extra installed."""

from __future__ import annotations

import json
import sys
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from models.errors import SpecError
from service.batches import Engine, Folder, RunCancelled, open_engine, run
from service.cancel import CancelToken, cancel_scope


@dataclass(frozen=True)
class Squares:
    """Result i is i*i (and the seed): pure, so any engine gives the same lines."""

    seed: int
    indices: int
    chunk_size: int = 3

    def run_chunk(self, indices: range) -> list[str]:
        return [json.dumps([self.seed, i * i]) for i in indices]

    def line_fault(self, index: int, line: str) -> str | None:
        try:
            value = json.loads(line)
        except ValueError:
            return "not JSON"
        return None if isinstance(value, list) and len(value) == 2 else "not a pair"


@dataclass
class Collect:
    wanted: int
    lines: list[str] = field(default_factory=list)

    def add(self, lines: list[str]) -> None:
        self.lines += lines[:self.wanted - len(self.lines)]

    @property
    def done(self) -> int:
        return len(self.lines)

    @property
    def finished(self) -> bool:
        return len(self.lines) >= self.wanted


class Backwards(Executor):
    """Holds every submitted chunk and finishes the latest first (a worst-case engine)."""

    def __init__(self) -> None:
        self.held: list[tuple[Future[Any], Any, tuple[Any, ...]]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.held.append((future, fn, args))
        if len(self.held) == 4:
            self.release()
        return future

    def release(self) -> None:
        for future, fn, args in reversed(self.held):
            future.set_result(fn(*args))
        self.held.clear()


class Never(Executor):
    """Holds every submitted chunk unfinished (a run that is stopped, never completed)."""

    def __init__(self) -> None:
        self.held: list[Future[Any]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.held.append(Future())
        return self.held[-1]


def _expected(seed: int, n: int) -> list[str]:
    return [json.dumps([seed, i * i]) for i in range(n)]


def test_chunks_are_reduced_in_index_order_whatever_order_they_finish() -> None:
    engine = Engine(Backwards(), 4, "backwards")
    reducer = Collect(10)
    ran = run(Squares(7, 10), reducer, engine)
    assert reducer.lines == _expected(7, 10)
    assert (ran.chunks, ran.ran, ran.resumed) == (4, 4, 0)


def test_a_pool_of_two_gives_the_lines_of_one_process() -> None:
    results = []
    for workers in (1, 2):
        reducer = Collect(20)
        with open_engine(workers) as engine:
            run(Squares(3, 20), reducer, engine)
        results.append(reducer.lines)
    assert results[0] == results[1] == _expected(3, 20)


def test_a_reducer_that_is_full_stops_the_run_early() -> None:
    reducer = Collect(5)
    with open_engine(1) as engine:
        ran = run(Squares(1, 300), reducer, engine)
    assert reducer.lines == _expected(1, 5) and ran.chunks == 2


def test_finished_chunks_are_kept_and_read_back_not_rerun(tmp_path: Path) -> None:
    folder = Folder(tmp_path / "run", "toy", {"--seed": 2})
    folder.open()
    with open_engine(1) as engine:
        run(Squares(2, 9), Collect(4), engine, folder)  # stops after chunks 0 and 1
    assert sorted(p.name for p in (tmp_path / "run" / "chunks").rglob("*.jsonl")) == \
        ["0000000.jsonl", "0000001.jsonl"]
    # chunk 0 changed, but whole and this run's: read back as it is (so it was not run again)
    kept = [json.dumps(["kept", n]) for n in range(3)]
    folder.write_chunk(0, range(0, 3), kept)
    again = Folder(tmp_path / "run", "toy", {"--seed": 2})
    again.open()
    reducer = Collect(9)
    with open_engine(1) as engine:
        ran = run(Squares(2, 9), reducer, engine, again)
    assert reducer.lines == [*kept, *_expected(2, 9)[3:]]
    assert (ran.ran, ran.resumed) == (1, 2)


def _damaged(kind: str, folder: Folder, tmp_path: Path) -> None:
    """Damage chunk 1 of a finished run of `Squares(2, 9)` in `folder` as `kind` says."""
    one, zero = folder.chunk_path(1), folder.chunk_path(0)
    if kind == "copy of chunk 0":
        one.write_bytes(zero.read_bytes())
    elif kind == "cut":
        one.write_bytes(one.read_bytes()[:-7])
    elif kind == "garbage line":
        one.write_text(one.read_text().replace(json.dumps([2, 16]), "{not json"))
    elif kind == "empty line":
        one.write_text(one.read_text().replace(json.dumps([2, 16]), ""))
    elif kind == "not utf-8":
        one.write_bytes(b"\xff\xfe" + one.read_bytes())
    elif kind == "empty file":
        one.write_bytes(b"")
    elif kind == "another run's":
        other = Folder(tmp_path / "other", "toy", {"--seed": 3})
        other.open()
        with open_engine(1) as engine:
            run(Squares(3, 9), Collect(9), engine, other)
        one.write_bytes(other.chunk_path(1).read_bytes())
    elif kind == "a valid line of another index":
        one.write_text(one.read_text().replace(json.dumps([2, 16]), json.dumps("sixteen")))
    else:
        raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["copy of chunk 0", "cut", "garbage line", "empty line",
                                  "not utf-8", "empty file", "another run's",
                                  "a valid line of another index"])
def test_a_damaged_chunk_is_run_again(kind: str, tmp_path: Path) -> None:
    """Regression: a chunk copied over another was read back as its own (40 duplicate games
    counted in a combo tournament); garbage lines ended the batch with an internal error."""
    folder = Folder(tmp_path / "run", "toy", {"--seed": 2})
    folder.open()
    with open_engine(1) as engine:
        run(Squares(2, 9), Collect(9), engine, folder)
    _damaged(kind, folder, tmp_path)
    reducer = Collect(9)
    with open_engine(1) as engine:
        ran = run(Squares(2, 9), reducer, engine, folder)
    assert reducer.lines == _expected(2, 9)
    assert (ran.ran, ran.resumed) == (1, 2)
    assert folder.finished(1, range(3, 6), Squares(2, 9).line_fault) == _expected(2, 9)[3:6]


def test_a_folder_in_a_chunks_place_is_refused_by_name(tmp_path: Path) -> None:
    folder = Folder(tmp_path / "run", "toy", {"--seed": 2})
    folder.open()
    folder.chunk_path(1).mkdir(parents=True)
    with pytest.raises(SpecError, match=r"0000001\.jsonl' is not a chunk file"), \
            open_engine(1) as engine:
        run(Squares(2, 9), Collect(9), engine, folder)


def test_a_changed_argument_is_refused_by_name(tmp_path: Path) -> None:
    Folder(tmp_path, "toy", {"--count": 10, "--seed": 2}).open()
    with pytest.raises(SpecError, match="with seed 2, not 3"):
        Folder(tmp_path, "toy", {"--count": 10, "--seed": 3}).open()
    with pytest.raises(SpecError, match="`castell toy`, not of `castell other`"):
        Folder(tmp_path, "other", {"--count": 10, "--seed": 2}).open()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "notes.txt").write_text("mine")
    with pytest.raises(SpecError, match=r"holds no manifest\.json"):
        Folder(tmp_path / "elsewhere", "toy", {}).open()


def test_dask_without_the_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    with pytest.raises(SpecError, match=r'pip install -e "\.\[dask\]"'), \
            open_engine(dask="local:2"):
        pass


@pytest.mark.parametrize("address", ["local:0", "local:x", "http://host:8786", "host"])
def test_a_bad_dask_address_is_refused(address: str) -> None:
    with pytest.raises(SpecError, match="local:N") as refused, open_engine(dask=address):
        pass
    assert refused.value.field == "dask"


@dataclass(frozen=True)
class DiesOnce:
    """Squares, but the worker running chunk 1 the first time kills itself (SIGKILL)."""

    marker: str
    indices: int = 12
    chunk_size: int = 3

    def run_chunk(self, indices: range) -> list[str]:
        import os
        import signal

        if indices.start == 3 and not os.path.exists(self.marker):
            Path(self.marker).write_text("died")
            os.kill(os.getpid(), signal.SIGKILL)
        return Squares(0, self.indices).run_chunk(indices)


def test_a_local_worker_that_dies_is_replaced_and_its_chunk_run_again(tmp_path: Path) -> None:
    reducer = Collect(12)
    with open_engine(2) as engine:
        run(DiesOnce(str(tmp_path / "died")), reducer, engine)
    assert (tmp_path / "died").exists()
    assert reducer.lines == _expected(0, 12)


def test_a_cancelled_run_stops_though_the_signals_own_exception_never_came() -> None:
    # a Ctrl-C's handler may raise inside a finalizer, where Python reports the exception
    # instead of raising it: the token it cancelled stops the run, the chunks cancelled
    never, token = Never(), CancelToken()
    stops: list[bool] = []
    engine = Engine(never, 2, "never", stop=lambda: stops.append(True))
    token.cancel()
    with cancel_scope(token), pytest.raises(RunCancelled):
        run(Squares(1, 30), Collect(30), engine)
    assert len(never.held) == 2 and all(f.cancelled() for f in never.held) and stops
