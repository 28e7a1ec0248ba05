"""`castell puzzle` and the SVG pictures."""

import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from models.puzzle import Puzzle
from models.tower import STANDARD
from models.tower.tower import Tower
from planner.puzzles import generate_one, puzzle_key
from tests.cli.helpers import one_json

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "puzzles"


def _figures(svg_text: str) -> list[int]:
    root = ET.fromstring(svg_text)
    return [int(e.get("data-size", "0")) for e in root.iter() if e.get("class") == "casteller"]


def test_generate_is_deterministic_and_checks(tmp_path: Path) -> None:
    args = ["puzzle", "generate", "--count", "6", "--seed", "4", "--difficulty", "easy"]
    first = runner.invoke(app, args)
    again = runner.invoke(app, args)
    other = runner.invoke(app, [*args[:-4], "--seed", "5", "--difficulty", "easy"])
    assert first.exit_code == 0 and first.stdout == again.stdout
    assert other.stdout != first.stdout
    lines = first.stdout.splitlines()
    assert len(lines) == 6
    kinds = [Puzzle.model_validate_json(line).kind for line in lines]
    assert set(kinds) == {"tallest", "festival", "shape", "exhibition"}
    path = tmp_path / "set.jsonl"
    path.write_text(first.stdout)
    checked = runner.invoke(app, ["puzzle", "check", str(path), "--json"])
    assert checked.exit_code == 0, checked.stdout
    assert one_json(checked) == {"ok": True, "checked": 6, "failed": []}


def test_workers_do_not_change_the_set(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    base = ["puzzle", "generate", "--count", "4", "--seed", "9", "--kind", "shape"]
    assert runner.invoke(app, [*base, "--out", str(one)]).exit_code == 0
    assert runner.invoke(app, [*base, "--workers", "2", "--out", str(two)]).exit_code == 0
    assert one.read_bytes() == two.read_bytes()


def test_a_set_never_repeats_a_puzzle(tmp_path: Path) -> None:
    """Easy shapes are few, so independent draws repeat; the set redraws those, and the same
    way for any number of workers."""
    count, seed = 20, 0
    drawn = [puzzle_key(generate_one("shape", "easy", seed, index, STANDARD))
             for index in range(count)]
    assert len(set(drawn)) < count  # without redraws this set would hold a repeat
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    base = ["puzzle", "generate", "--count", str(count), "--seed", str(seed), "--kind", "shape",
            "--difficulty", "easy"]
    assert runner.invoke(app, [*base, "--out", str(one)]).exit_code == 0
    assert runner.invoke(app, [*base, "--workers", "2", "--out", str(two)]).exit_code == 0
    assert one.read_bytes() == two.read_bytes()
    puzzles = [Puzzle.model_validate_json(line) for line in one.read_text().splitlines()]
    assert len(puzzles) == count
    assert len({puzzle_key(p) for p in puzzles}) == count


def test_check_rejects_a_non_unique_puzzle_and_shows_the_second(tmp_path: Path) -> None:
    twins = Puzzle(id="twins", kind="tallest", pool="9x3,8x3,7x2,5", solution="9,9,9/8,8/7",
                   objective=36)
    path = tmp_path / "bad.jsonl"
    path.write_text(twins.model_dump_json() + "\n")
    human = runner.invoke(app, ["puzzle", "check", str(path)])
    assert human.exit_code == 1
    assert "FAIL twins" in human.stdout and "failing: twins" in human.stdout
    data = json.loads(runner.invoke(app, ["puzzle", "check", str(path), "--json"]).stdout)
    assert data["ok"] is False and data["failed"][0]["id"] == "twins"
    second = Tower.parse(data["failed"][0]["second"])
    assert str(second) != twins.solution and second.height == 3 and second.castellers == 6


def test_bad_puzzle_file_names_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text('{"id": "x", "kind": "maze", "pool": "9", "solution": "9"}\n')
    result = runner.invoke(app, ["puzzle", "check", str(path)])
    assert result.exit_code == 2
    assert "line 1" in result.stderr and "kind" in result.stderr
    assert "Traceback" not in result.output


def test_solve_finds_the_recorded_solutions() -> None:
    result = runner.invoke(app, ["puzzle", "solve", str(EXAMPLES / "medium.jsonl"), "--json"])
    assert result.exit_code == 0
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows and all(r["status"] == "optimal" and r["matches_recorded"] for r in rows)


def test_example_set_passes_check() -> None:
    result = runner.invoke(app, ["puzzle", "check", str(EXAMPLES / "medium.jsonl")])
    assert result.exit_code == 0, result.stdout


def test_sheet_writes_puzzles_and_answers(tmp_path: Path) -> None:
    source = EXAMPLES / "medium.jsonl"
    result = runner.invoke(app, ["puzzle", "sheet", str(source), "--out", str(tmp_path)])
    assert result.exit_code == 0
    puzzles = [Puzzle.model_validate_json(line) for line in source.read_text().splitlines()]
    sheet = (tmp_path / "puzzles.html").read_text()
    key = (tmp_path / "answers.html").read_text()
    for puzzle in puzzles:
        assert f'id="{puzzle.id}"' in sheet and f'id="{puzzle.id}"' in key
        assert puzzle.solution in key and puzzle.solution not in sheet


def test_svg_draws_one_figure_per_casteller(tmp_path: Path) -> None:
    svg = tmp_path / "tower.svg"
    result = runner.invoke(app, ["verify", "9x4/7x3/5x2/3", "--skills", "width=1",
                                 "--svg", str(svg)])
    assert result.exit_code == 0
    assert sorted(_figures(svg.read_text())) == sorted(Tower.parse("9x4/7x3/5x2/3").sizes())
    best = tmp_path / "best.svg"
    data = runner.invoke(app, ["best", "--pool", "9x4,7x3,6,6,5x2,3", "--skills", "width=1",
                               "--json", "--svg", str(best)])
    tower = Tower.parse(json.loads(data.stdout)["tower"])
    assert sorted(_figures(best.read_text())) == sorted(tower.sizes())


def test_unwritable_svg_is_bad_input(tmp_path: Path) -> None:
    target = tmp_path / "missing-dir" / "t.svg"
    result = runner.invoke(app, ["verify", "9,9/7", "--svg", str(target)])
    assert result.exit_code == 2 and "cannot write" in result.stderr


# --- puzzle book ------------------------------------------------------------------------------

BOOK = ["puzzle", "book", "--count", "50", "--difficulty", "easy", "--seed", "3"]


def _chunks(folder: Path) -> list[Path]:
    return sorted((folder / "chunks").rglob("*.jsonl")) if (folder / "chunks").exists() else []


def _wait_for_chunks(folder: Path, k: int, process: subprocess.Popen[bytes],
                     within: float = 60.0) -> None:
    import time

    deadline = time.perf_counter() + within
    while len(_chunks(folder)) < k:
        assert time.perf_counter() < deadline, "no chunk was written in time"
        assert process.poll() is None, "the book ended before it could be stopped"
        time.sleep(0.02)


def test_book_writes_distinct_puzzles_and_sheets_by_chapter(tmp_path: Path) -> None:
    result = runner.invoke(app, [*BOOK[:3], "12", *BOOK[4:], "--out", str(tmp_path / "b"),
                                 "--sheets", "--chapter", "5", "--json"])
    assert result.exit_code == 0, result.stderr
    answer = one_json(result)
    lines = (tmp_path / "b" / "puzzles.jsonl").read_text().splitlines()
    puzzles = [Puzzle.model_validate_json(line) for line in lines]
    assert answer["puzzles"] == len(puzzles) == 12
    assert len({puzzle_key(p) for p in puzzles}) == 12
    chapters = sorted(p.name for p in (tmp_path / "b" / "sheets").iterdir())
    assert chapters == ["chapter-001", "chapter-002", "chapter-003"]
    last = (tmp_path / "b" / "sheets" / "chapter-003" / "puzzles.html").read_text()
    assert f'id="{puzzles[10].id}"' in last and f'id="{puzzles[4].id}"' not in last
    # the same command again: every chunk read back, the same book
    again = runner.invoke(app, [*BOOK[:3], "12", *BOOK[4:], "--out", str(tmp_path / "b"),
                                "--json"])
    assert one_json(again)["chunks_run"] == 0
    assert (tmp_path / "b" / "puzzles.jsonl").read_text().splitlines() == lines


def test_book_refuses_a_folder_of_other_arguments_naming_the_argument(tmp_path: Path) -> None:
    first = runner.invoke(app, [*BOOK[:3], "3", *BOOK[4:], "--out", str(tmp_path)])
    assert first.exit_code == 0, first.stderr
    other = runner.invoke(app, [*BOOK[:3], "3", *BOOK[4:-1], "4", "--out", str(tmp_path)])
    assert other.exit_code == 2
    assert "seed 3, not 4" in other.stderr and "Traceback" not in other.stderr


def test_book_killed_after_a_chunk_resumes_to_the_uninterrupted_book(tmp_path: Path) -> None:
    import signal

    from tests.cli.test_interrupts import start

    whole = runner.invoke(app, [*BOOK, "--out", str(tmp_path / "whole")])
    assert whole.exit_code == 0, whole.stderr
    folder = tmp_path / "stopped"
    process = start(*BOOK, "--out", str(folder))
    _wait_for_chunks(folder, 1, process)
    process.send_signal(signal.SIGKILL)  # no chance to clean up: only whole chunks are left
    process.communicate(timeout=30)
    kept = len(_chunks(folder))
    assert kept >= 1 and not (folder / "puzzles.jsonl").exists()
    resumed = runner.invoke(app, [*BOOK, "--out", str(folder), "--json"])
    assert resumed.exit_code == 0, resumed.stderr
    assert one_json(resumed)["chunks_resumed"] >= kept
    assert (folder / "puzzles.jsonl").read_bytes() == \
        (tmp_path / "whole" / "puzzles.jsonl").read_bytes()
    assert (folder / "manifest.json").read_bytes() == \
        (tmp_path / "whole" / "manifest.json").read_bytes()


@pytest.mark.parametrize(("signal_name", "code", "word"),
                         [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated")])
def test_an_error_after_a_stop_still_says_what_was_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, signal_name: str, code: int,
        word: str) -> None:
    """A stop seen by the edge's watcher (the token cancelled) before its handler raises,
    then an error of the stopped pool instead of KeyboardInterrupt: the batch's own line,
    not the edge's plain "interrupted" (one clean-clone CI run printed that)."""
    import signal

    from cli import stops
    from service.castell import puzzle_book

    def stopped_pool(*args: object, **kwargs: object) -> None:
        if getattr(signal, signal_name) == signal.SIGTERM:
            stops._terminate()
        assert stops._token is not None
        stops._token.cancel()  # what the watcher does the moment the signal arrives
        raise RuntimeError("the pool broke under the stop")

    monkeypatch.setattr(puzzle_book, "book", stopped_pool)
    result = runner.invoke(app, [*BOOK, "--out", str(tmp_path / "b")])
    assert result.exit_code == code
    assert " ".join(result.stderr.split()) == (f"{word}: the finished chunks are kept in "
                                     f"{tmp_path / 'b'}; run the same command again to "
                                     "continue")


def test_an_error_without_a_stop_is_not_called_one(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from service.castell import puzzle_book

    def failing(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(puzzle_book, "book", failing)
    result = runner.invoke(app, [*BOOK, "--out", str(tmp_path / "b")])
    assert result.exit_code == 4 and "internal error (RuntimeError: a bug)" in result.stderr


@pytest.mark.parametrize(("stop", "code"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_book_ctrl_c_stops_the_workers_at_once_and_keeps_the_chunks(tmp_path: Path, stop: str,
                                                                    code: int) -> None:
    import signal

    from tests.cli.test_interrupts import HANG, start
    from tests.processes import children, gone

    folder = tmp_path / "book"
    process = start("puzzle", "book", "--count", "400", "--difficulty", "hard", "--workers",
                    "2", "--out", str(folder))
    _wait_for_chunks(folder, 1, process)
    workers = children(process.pid, within=HANG)  # the chunk above: they are at work
    assert workers, "no worker process"
    process.send_signal(getattr(signal, stop))
    # how fast it stops is benchmarks/bench_stop.py's to measure; here it stops, the 400 hard
    # puzzles unfinished (HANG: a hang guard), its workers with it
    _, err = process.communicate(timeout=HANG)
    assert process.returncode == code
    assert "finished chunks are kept in" in err.decode() and b"Traceback" not in err
    assert all(gone(pid, HANG) for pid in workers)
    assert _chunks(folder) and not (folder / "puzzles.jsonl").exists()
