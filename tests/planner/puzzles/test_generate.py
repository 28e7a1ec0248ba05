"""Puzzles: proven unique by CP-SAT, confirmed by the exhaustive search on small pools."""

import pytest

from models.puzzle import DIFFICULTIES, KINDS, Puzzle
from models.tower import STANDARD
from planner.puzzles.generate import check_puzzle, generate_one, level_of, measure, question_of
from planner.puzzles.unique import prove_unique
from planner.tower.search import answers

SAMPLE = [(kind, level, index) for kind in KINDS for level in DIFFICULTIES for index in range(3)]


@pytest.fixture(scope="module")
def sample() -> list[Puzzle]:
    return [generate_one(kind, level, 11, index, STANDARD) for kind, level, index in SAMPLE]


def test_every_generated_puzzle_passes_the_check(sample: list[Puzzle]) -> None:
    for puzzle in sample:
        verdict = check_puzzle(puzzle)
        assert verdict.ok, (puzzle.id, verdict.problems)


def test_kinds_and_levels_are_what_was_asked(sample: list[Puzzle]) -> None:
    for (kind, level, _), puzzle in zip(SAMPLE, sample, strict=True):
        assert puzzle.kind == kind
        assert puzzle.difficulty["level"] == level
        assert level_of(puzzle.difficulty["points"]) == level


def test_recorded_measurements_are_recomputed(sample: list[Puzzle]) -> None:
    for puzzle in sample:
        proof = prove_unique(question_of(puzzle), puzzle.team, puzzle.ranks, puzzle.variant)
        again = measure(puzzle.tower, puzzle.team, puzzle.ranks, puzzle.variant,
                        question_of(puzzle), proof.branches)
        assert again == puzzle.difficulty


def test_exhaustive_search_confirms_uniqueness(sample: list[Puzzle]) -> None:
    small = [p for p in sample if p.team.total <= 14]
    assert len(small) >= len(sample) // 2  # the check below is not vacuous
    for puzzle in small:
        best, towers = answers(question_of(puzzle), puzzle.team, puzzle.ranks, puzzle.variant)
        assert [str(t) for t in towers] == [puzzle.solution], puzzle.id
        assert best == puzzle.objective


def test_same_seed_same_puzzles_other_seed_other_puzzles() -> None:
    first = [generate_one("tallest", "medium", 5, i, STANDARD) for i in range(4)]
    again = [generate_one("tallest", "medium", 5, i, STANDARD) for i in range(4)]
    other = [generate_one("tallest", "medium", 6, i, STANDARD) for i in range(4)]
    assert [p.model_dump_json() for p in first] == [p.model_dump_json() for p in again]
    assert [p.solution for p in first] != [p.solution for p in other]


def test_non_unique_puzzle_is_rejected_with_a_second_solution() -> None:
    # 9,9,9/8,8/7 and 8,8,8/7,7/5 both have 3 levels and 6 castellers
    puzzle = Puzzle(id="twins", kind="tallest", pool="9x3,8x3,7x2,5", solution="9,9,9/8,8/7",
                    objective=3 * 10 + 6)
    verdict = check_puzzle(puzzle)
    assert not verdict.ok
    assert verdict.second is not None and str(verdict.second) != puzzle.solution
    assert "not unique" in verdict.problems[0]


def test_suboptimal_recorded_solution_is_rejected() -> None:
    puzzle = Puzzle(id="short", kind="tallest", pool="9x3,7x2,5", solution="9,9/7",
                    objective=2 * 7 + 3)
    verdict = check_puzzle(puzzle)
    assert not verdict.ok and "not optimal" in verdict.problems[0]


def test_invalid_recorded_solution_is_rejected() -> None:
    puzzle = Puzzle(id="bad", kind="shape", pool="9x4,7x3", tile="shape:4-3",
                    solution="9,9,9,9/7,7,7", objective=None)
    verdict = check_puzzle(puzzle)
    assert not verdict.ok and any("width limit" in p for p in verdict.problems)
