"""Puzzles with exactly one solution: generation at a difficulty, the puzzle checker, and the
CP-SAT proof of uniqueness."""

from planner.puzzles.generate import (
    Verdict,
    check_puzzle,
    generate_one,
    kind_for,
    level_of,
    measure,
    puzzle_key,
    question_of,
)
from planner.puzzles.unique import prove_unique, second_answer

__all__ = [
    "Verdict", "check_puzzle", "generate_one", "kind_for", "level_of", "measure", "prove_unique",
    "puzzle_key", "question_of", "second_answer",
]
