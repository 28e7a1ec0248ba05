"""Puzzle generation throughput: unique puzzles per second, one worker and two.

Run: python benchmarks/bench_puzzles.py [--count N] [--difficulty medium] [--out FILE]

Each run is a whole `castell puzzle generate` command (process start-up included, as a user
sees it), timed with time.perf_counter; the speed-up is the two-worker rate over the one-worker
rate measured in the same run. The outputs of both runs are compared byte for byte.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

CASTELL = str(Path(sys.executable).parent / "castell")


def run(count: int, difficulty: str, kind: str, workers: int, seed: int, out: Path) -> float:
    started = time.perf_counter()
    subprocess.run([CASTELL, "puzzle", "generate", "--count", str(count), "--difficulty",
                    difficulty, "--kind", kind, "--workers", str(workers), "--seed", str(seed),
                    "--out", str(out)], check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--difficulty", default="medium")
    parser.add_argument("--kinds", default="any,tallest,festival,shape,exhibition")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="benchmarks/results/puzzles.json")
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.kinds.split(","):
            one, two = Path(tmp, f"{kind}-1.jsonl"), Path(tmp, f"{kind}-2.jsonl")
            t1 = run(args.count, args.difficulty, kind, 1, args.seed, one)
            t2 = run(args.count, args.difficulty, kind, 2, args.seed, two)
            rows.append({"kind": kind, "count": args.count, "one_worker_s": round(t1, 3),
                         "two_workers_s": round(t2, 3),
                         "per_s_one": round(args.count / t1, 1),
                         "per_s_two": round(args.count / t2, 1),
                         "speedup": round(t1 / t2, 2),
                         "identical": one.read_bytes() == two.read_bytes()})

    table = Table(title=f"{args.difficulty} puzzles, {args.count} per run (whole command)")
    for column in ("kind", "1 worker /s", "2 workers /s", "speed-up", "same bytes"):
        table.add_column(column, justify="right")
    for row in rows:
        table.add_row(row["kind"], str(row["per_s_one"]), str(row["per_s_two"]),
                      f"{row['speedup']}x", "yes" if row["identical"] else "NO")
    Console().print(table)
    result = {"machine": {"platform": platform.platform(), "python": platform.python_version(),
                          "cpus": os.cpu_count()},
              "difficulty": args.difficulty, "rows": rows}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
