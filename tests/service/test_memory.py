"""No process-wide cache grows with use: a long-running server loads boards and asks
questions for days. 150 boards loaded (each with its region graph) and 1,000 festival
tower questions on different teams keep memory flat once warm."""

from __future__ import annotations

import gc
import tracemalloc

from models.game import graph_of, load_board, move_targets
from models.tower import STANDARD, Festival, Pool, SkillRanks
from service.castell.festivals import referee_finder


def _grown(work: object, rounds: int) -> int:
    """Bytes still held after `rounds` more calls, once the first round warmed the caches."""
    assert callable(work)
    work(0)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for index in range(1, rounds + 1):
        work(index)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return after - before


def test_loading_boards_keeps_memory_flat() -> None:
    def load(_: int) -> None:
        board = load_board()
        move_targets(board, STANDARD, board.region_ids[0], special=False)
        assert graph_of(board) is board.graph

    # a board with its graph is ~100 KB: one kept per load would hold 15 MB (150 loads are
    # enough to see it, and 1,000 took 46 s under tracemalloc)
    assert _grown(load, 150) < 2_000_000


def test_festival_questions_keep_memory_flat() -> None:
    finder = referee_finder(10.0)
    festival = Festival((6, 3))

    def ask(index: int) -> None:
        sizes = [10 - (index + k) % 10 for k in range(8 + index % 5)]
        finder(Pool.of(sizes), SkillRanks.parse("width=1,balance=1"), festival, STANDARD)

    assert _grown(ask, 1_000) < 3_000_000  # the dp's own caches are bounded (lru_cache)
