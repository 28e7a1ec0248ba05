"""The tower dp against an earlier version of itself, measured in one run (a speed ratio).

Run:  python benchmarks/bench_dp.py [--reference REV] [--rounds 5] [--quick]
                                    [--out benchmarks/results/dp.json]

The reference is `planner/tower/dp.py` as it was at git revision REV (default d9c5121, the last
revision with the dp as one closure), loaded as a module of its own beside the working tree's
`planner.tower.dp`; both use the working tree's `models` checker and `plain` program. Every
instance is solved by both, in alternating order, `--rounds` times (each solve timed with
`time.process_time`, CPU of this process, so other work on the machine counts little; a solve
under 20 ms is repeated until 20 ms are spent, timed as the mean); the two must give the same
answer (status, objective and the tower's levels). Reported: per instance the median CPU ms of
each and their ratio, and the ratio of the totals (new / reference: 1.10 is 10% slower).

Instances (fixed, deterministic): teams of 30, 80 and the whole bag (150) drawn with
`random.Random(seed)`; every skill at rank 1, 2 and 3 and one mixed vector; questions best
tower, festival 6,3, festival 8,5,2, the shape tile 5-4-3-2-1 and the exhibition
4:balance+width; both decrease readings for the bag. `--quick`: teams 30 and 150, ranks 2, 3.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from models.tower import Festival, Pool, Rules, SkillRanks, rules_named  # noqa: E402
from models.tower.tiles import parse_tile  # noqa: E402
from planner.tower import dp  # noqa: E402
from planner.tower.questions import BestTower, FestivalTower, Question, TileCheck  # noqa: E402

RANKS = {
    "all-1": "balance=1,base=1,mix=1,strength=1,width=1",
    "all-2": "balance=2,base=2,mix=2,strength=2,width=2",
    "all-3": "balance=3,base=3,mix=3,strength=3,width=3",
    "mixed": "balance=2,mix=3,strength=3,width=1",
}
QUESTIONS: dict[str, Question] = {
    "best": BestTower(),
    "festival 6,3": FestivalTower(Festival((6, 3))),
    "festival 8,5,2": FestivalTower(Festival((8, 5, 2))),
    "shape 5-4-3-2-1": TileCheck(parse_tile("shape:5-4-3-2-1")),
    "exhibition 4:balance+width": TileCheck(parse_tile("exhibition:4:balance+width")),
}
_MIN_MS = 20.0


def reference_module(rev: str) -> ModuleType:
    """`planner/tower/dp.py` at `rev`, as a module named `dp_reference`."""
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:planner/tower/dp.py"],
                          check=True, capture_output=True, text=True).stdout
    path = ROOT / "benchmarks" / "results" / "dp_reference.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("dp_reference", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["dp_reference"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def team(size: int, seed: int) -> Pool:
    bag = [s for s in range(1, 11) for _ in range(15)]
    random.Random(seed).shuffle(bag)
    return Pool.of(bag[:size])


def instances(quick: bool, seed: int) -> list[tuple[str, Question, Pool, SkillRanks, Rules]]:
    sizes = (30, 150) if quick else (30, 80, 150)
    ranks = ("all-2", "all-3") if quick else tuple(RANKS)
    found = []
    for size in sizes:
        readings = ("standard", "one-fewer") if size == 150 else ("standard",)
        for reading in readings:
            rules = rules_named(reading)
            for rank in ranks:
                for name, question in QUESTIONS.items():
                    label = f"team {size} {reading} {rank} {name}"
                    found.append((label, question, team(size, seed), SkillRanks.parse(RANKS[rank]),
                                  rules))
    return found


def timed(module: ModuleType, question: Question, pool: Pool, ranks: SkillRanks, rules: Rules
          ) -> tuple[float, Any]:
    """CPU ms of one solve (the mean of a repeat when it is short) and its objective."""
    runs, spent = 0, 0.0
    result = None
    while spent * 1000 < _MIN_MS:
        start = time.process_time()
        result = module.solve_dp(question, pool, ranks, rules, time_limit=600.0)
        spent += time.process_time() - start
        runs += 1
    assert result is not None
    return spent * 1000 / runs, (result.status.value, result.objective, str(result.tower))


def measure(rounds: int, quick: bool, seed: int, reference: ModuleType) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    for label, question, pool, ranks, rules in instances(quick, seed):
        new_ms: list[float] = []
        old_ms: list[float] = []
        for n in range(rounds):
            order = ((dp, new_ms), (reference, old_ms)) if n % 2 else (
                (reference, old_ms), (dp, new_ms))
            answers = set()
            for module, times in order:
                ms, answer = timed(module, question, pool, ranks, rules)
                times.append(ms)
                answers.add(answer)
            if len(answers) != 1:
                raise SystemExit(f"{label}: the two programs disagree: {answers}")
        new, old = statistics.median(new_ms), statistics.median(old_ms)
        row = {"instance": label, "new_ms": new, "reference_ms": old, "ratio": new / old}
        rows.append(row)
        print(f"{label:60} {row['new_ms']:9.2f} {row['reference_ms']:9.2f} {row['ratio']:6.3f}",
              flush=True)
    new_total = sum(r["new_ms"] for r in rows)
    old_total = sum(r["reference_ms"] for r in rows)
    ratios = [r["ratio"] for r in rows]
    return {"rows": rows, "new_total_ms": new_total, "reference_total_ms": old_total,
            "ratio_of_totals": new_total / old_total,
            "median_ratio": statistics.median(ratios), "worst_ratio": max(ratios)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", default="d9c5121")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "dp.json")
    args = parser.parse_args()
    reference = reference_module(args.reference)
    print(f"{'instance':60} {'new ms':>9} {'ref ms':>9} {'ratio':>6}")
    summary = measure(args.rounds, args.quick, args.seed, reference)
    print(f"total: new {summary['new_total_ms']:.1f} ms, reference "
          f"{summary['reference_total_ms']:.1f} ms, ratio {summary['ratio_of_totals']:.3f} "
          f"(median per instance {summary['median_ratio']:.3f}, worst "
          f"{summary['worst_ratio']:.3f})")
    summary["reference"] = args.reference
    summary["when"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
