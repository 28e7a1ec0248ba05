"""The puzzle use cases called directly: generate, check, solve, sheet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from models.errors import SpecError
from models.puzzle import Puzzle
from models.tower import STANDARD
from planner.puzzles import generate_one, kind_for
from service.castell import puzzles

EXAMPLE = Path("examples/puzzles/medium.jsonl")


def _lines(text: str) -> list[tuple[int, str]]:
    return [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]


def _example() -> list[Puzzle]:
    return puzzles.read_puzzles(_lines(EXAMPLE.read_text()), EXAMPLE)


def test_generate_writes_the_set_of_the_seed_one_line_a_puzzle() -> None:
    written: list[str] = []
    made: list[None] = []
    answer = puzzles.generate(None, "easy", 3, 4, "standard", 1, written.append,
                              lambda: made.append(None), "set.jsonl")
    assert json.loads(answer.to_json()) == {"schema_version": 1, "wrote": "set.jsonl",
                                            "puzzles": 3}
    assert len(made) == 3 and all(line.endswith("\n") for line in written)
    expected = [generate_one(kind_for(None, i), "easy", 4, i, STANDARD) for i in range(3)]
    assert [Puzzle.model_validate_json(line) for line in written] == expected


def test_read_puzzles_names_the_line_and_refuses_an_empty_set() -> None:
    with pytest.raises(SpecError, match=r"set\.jsonl, line 2: .*kind"):
        puzzles.read_puzzles([(1, EXAMPLE.read_text().splitlines()[0]),
                              (2, '{"id": "x", "kind": "maze", "pool": "9", "solution": "9"}')],
                             "set.jsonl")
    with pytest.raises(SpecError, match="holds no puzzles"):
        puzzles.read_puzzles([], "empty.jsonl")


def test_check_passes_the_example_set_and_fails_a_puzzle_with_twins() -> None:
    checked = puzzles.check(_example())
    assert checked.failed == [] and checked.output().ok
    twins = Puzzle(id="twins", kind="tallest", pool="9x3,8x3,7x2,5", solution="9,9,9/8,8/7",
                   objective=36)
    failed = puzzles.check([twins])
    data = json.loads(failed.output().to_json())
    assert data["ok"] is False and data["checked"] == 1
    assert data["failed"][0]["id"] == "twins" and data["failed"][0]["second"] is not None
    assert failed.failed[0].second is not None  # the tower itself, for the picture


def test_solve_finds_the_recorded_solutions() -> None:
    rows = puzzles.solve(_example())
    assert rows and all(row.status == "optimal" and row.matches_recorded for row in rows)


def test_sheet_writes_both_pages_as_rendered(tmp_path: Path) -> None:
    example = _example()

    def render(items: list[Puzzle], title: str, answers: bool) -> str:
        return f"{title} {len(items)} {'answers' if answers else 'puzzles'}"

    answer = puzzles.sheet(example, tmp_path / "out", "T", render)
    assert answer.puzzles == len(example)
    assert [Path(p).name for p in answer.wrote] == ["puzzles.html", "answers.html"]
    assert (tmp_path / "out" / "answers.html").read_text() == f"T {len(example)} answers"


def test_sheet_to_a_place_it_cannot_write_is_bad_input(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(SpecError, match="cannot write sheets"):
        puzzles.sheet(_example(), blocker / "sub", "T", lambda *_: "")


def test_a_set_names_each_puzzle_once_and_fields_belong_to_their_kind() -> None:
    import json
    from pathlib import Path

    import pytest

    from models.errors import SpecError
    from service.castell.puzzles import read_puzzles

    example = Path(__file__).parents[3] / "examples" / "puzzles" / "medium.jsonl"
    first = json.loads(example.read_text().splitlines()[0])
    assert first["kind"] == "tallest"
    with pytest.raises(SpecError, match="also the id on line 1"):
        read_puzzles([(1, json.dumps(first)), (2, json.dumps(first))], "set.jsonl")
    first["tile"] = "shape:4-3-2-1"  # a tallest puzzle carrying a tile
    with pytest.raises(SpecError, match="takes no 'tile'"):
        read_puzzles([(1, json.dumps(first))], "set.jsonl")
