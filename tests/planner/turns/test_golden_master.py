"""The turn planner's golden master (`benchmarks/golden_plans.py`): a sample of the plans kept
from before the planner's refactor (issue 34) is made again, identical. The script compares
all 728 of them; this sample keeps the suite short."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[3] / "benchmarks" / "golden_plans.py"
_spec = importlib.util.spec_from_file_location("golden_plans", BENCH)
assert _spec is not None and _spec.loader is not None
golden_plans = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden_plans)

MASTER = {(r["state"], r["goal"], r["turns"]): r
          for r in json.loads(golden_plans.MASTER.read_text(encoding="utf-8"))["plans"]}
# every 13th state (7 of 91: 2-4 players, early and late rounds), two goals, two horizons
SAMPLE = [case for case in golden_plans.cases(every=13)
          if (case[1], case[2]) in {("festival", None), ("festival", 2), ("score", 1),
                                    ("score", 2)}
          and not MASTER[case]["clock_hit"]]


def test_the_sample_covers_both_goals_and_every_player_count() -> None:
    assert len(SAMPLE) >= 24
    assert {goal for _, goal, _ in SAMPLE} == {"festival", "score"}
    assert {name[:2] for name, _, _ in SAMPLE} >= {"p2", "p3", "p4"}


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_the_plan_is_the_masters(case: tuple[str, str, int | None]) -> None:
    # a wall clock far above the limit: the deterministic budget alone decides the plan
    got = golden_plans.golden(*case, slack=20.0)
    assert not got["clock_hit"]
    assert golden_plans.compare(MASTER[case], got) == []
