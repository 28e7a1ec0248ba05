"""A puzzle book's chunk lines read back are checked against the candidate their index gives
(`BookJob.line_fault`): a puzzle of another index, kind, difficulty or rules, or one edited,
is not that candidate's line (its chunk is run again); `null` is a candidate that gave none."""

from __future__ import annotations

import json

from service.castell.puzzle_book import BookJob

JOB = BookJob("shape", "easy", 11, "standard", 4, chunk_size=2)


def test_a_books_line_is_its_candidates_or_refused() -> None:
    lines = JOB.run_chunk(range(0, 2))
    puzzles = [(i, line) for i, line in enumerate(lines) if line != "null"]
    assert puzzles, "no puzzle among the first candidates"
    index, line = puzzles[0]
    assert JOB.line_fault(index, line) is None
    assert JOB.line_fault(index, "null") is None
    assert JOB.line_fault(index + 2, line) is not None  # another candidate's
    data = json.loads(line)
    for edited in ({**data, "kind": "festival"}, {**data, "rules": "simple"},
                   {**data, "id": "x"}, {**data, "difficulty": {"level": "hard"}},
                   {"id": data["id"]}, [1, 2]):
        assert JOB.line_fault(index, json.dumps(edited)) is not None, edited
    assert JOB.line_fault(index, json.dumps(data, indent=1)) is not None  # not as written
    assert JOB.line_fault(index, "{") is not None
