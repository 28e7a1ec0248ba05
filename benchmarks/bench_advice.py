"""The default advice as a player meets it (issue 51): `castell plan STATE --json` as a whole
command, start-up included, on the benchmark's kept states: its wall time, whether the wall
clock cut its search, and its plan, compared byte for byte with another run's.

Run:  python benchmarks/bench_advice.py [--every 3] [--busy 0] [--out FILE]
                                        [--against EARLIER.json] [--imports]

For every `--every`-th state of `benchmarks/plan_states/` (91 states: 2, 3 and 4 players,
rounds 1-10), the command as a user types it (the default goal and limit), one at a time, in a
process of its own, with the bytecode Python keeps of the project (written by an untimed
first command, as a user's first run after installing writes it); `--busy N` keeps N
busy-loop processes running meanwhile (two on two cores: "both cores busy"), and the
machine's load average is recorded. Reported: the wall time and CPU time of the whole command
(median, 95th percentile, largest: the documented limit is 10 s; the CPU time says what the
wall time becomes on a busier machine), the
calls the wall clock's safety net cut (`stopped_by_clock`), the exit codes, and with
`--against` the plans (turns, festivals, objective) identical to the earlier run's. Written to
`--out` (default `benchmarks/results/advice.json`), the plans included.

`--imports` also says what the command imports before it plans: the first state's command once
more under `python -X importtime`, its imports' time in all and by top-level package (the
project's packages, ortools, and what ortools brings: pandas, numpy), largest first.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
STATES = ROOT / "benchmarks" / "plan_states"
BUSY = "while True: pass"
# the command's environment as a user's shell has it: Python writes the project's bytecode on
# the first command and reads it after (this machine sets PYTHONDONTWRITEBYTECODE, under which
# every command compiled the project's 130-odd modules again: about 0.1 s of its start-up)
USER_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENTRY = "from cli.entry import main; main()"  # the `castell` command, as installed


def command(state: Path) -> list[str]:
    """`castell plan STATE --json`, as a user types it."""
    return ["-c", ENTRY, "plan", str(state), "--json"]


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def advise(state: Path) -> dict[str, Any]:
    """One `castell plan STATE --json`, timed from the process's start to its end."""
    started, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, *command(state)], capture_output=True, text=True,
                          cwd=ROOT, env=USER_ENV, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        answer = json.loads(done.stdout)
    except json.JSONDecodeError:
        answer = {"error": done.stderr.strip()[-300:]}
    plan = {k: answer.get(k) for k in ("turns", "festivals", "objective", "status")}
    return {"state": state.name, "exit": done.returncode, "wall_s": round(wall, 3),
            "cpu_s": round(cpu, 3),
            "stopped_by_clock": bool(answer.get("stopped_by_clock")), "plan": plan,
            "load": os.getloadavg()[0]}


def imports(state: Path) -> dict[str, Any]:
    """The import time of one `castell plan STATE --json`, in all and by top-level package
    (milliseconds, each module's own time, as `-X importtime` reports it)."""
    done = subprocess.run([sys.executable, "-X", "importtime", *command(state)],
                          capture_output=True, text=True, cwd=ROOT, env=USER_ENV, check=False)
    by_package: dict[str, int] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, _, name = line.split(":", 1)[1].split("|")
        package = name.strip().split(".")[0]
        by_package[package] = by_package.get(package, 0) + int(own)
    largest = sorted(by_package.items(), key=lambda kv: -kv[1])
    return {"state": state.name, "total_ms": round(sum(by_package.values()) / 1000),
            "by_package_ms": {name: round(us / 1000) for name, us in largest[:12]}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--busy", type=int, default=0)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" /
                        "advice.json")
    parser.add_argument("--against", type=Path)
    parser.add_argument("--imports", action="store_true",
                        help="also the first state's imports, by package (-X importtime)")
    args = parser.parse_args()
    states = sorted(STATES.glob("*.json"))[::args.every]
    advise(states[0])  # untimed: the first command after a change writes the bytecode
    busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(args.busy)]
    try:
        rows = []
        for state in states:
            rows.append(advise(state))
            row = rows[-1]
            print(f"{state.name}: {row['wall_s']:.1f} s ({row['cpu_s']:.1f} s CPU) "
                  f"exit {row['exit']}"
                  f"{' clock' if row['stopped_by_clock'] else ''} load {row['load']:.1f}",
                  flush=True)
    finally:
        for process in busy:
            process.kill()
    walls = [r["wall_s"] for r in rows]
    cpus = [r["cpu_s"] for r in rows]
    result: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "busy": args.busy,
        "calls": len(rows), "load_median": statistics.median(r["load"] for r in rows),
        "wall_s": {"median": statistics.median(walls), "p95": _quantile(walls, 0.95),
                   "max": max(walls)},
        "cpu_s": {"median": statistics.median(cpus), "p95": _quantile(cpus, 0.95),
                  "max": max(cpus)},
        "stopped_by_clock": sum(r["stopped_by_clock"] for r in rows),
        "exits": {str(c): sum(r["exit"] == c for r in rows) for c in {r["exit"] for r in rows}},
    }
    if args.against:
        earlier = {r["state"]: r["plan"] for r in json.loads(
            args.against.read_text(encoding="utf-8"))["rows"]}
        same = [r["state"] for r in rows if earlier.get(r["state"]) == r["plan"]]
        result["identical"] = f"{len(same)} of {len(rows)}"
        result["different"] = [r["state"] for r in rows if r["state"] not in same]
    if args.imports:
        result["imports"] = imports(states[0])
    print(json.dumps(result, indent=1))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({**result, "rows": rows}, indent=1) + "\n",
                        encoding="utf-8")


if __name__ == "__main__":
    main()
