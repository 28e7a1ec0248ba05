"""Benchmark the CP-SAT planner against the exhaustive search, plus whole-command start-up time.

Run:  python benchmarks/bench_solver.py [--quick] [--out benchmarks/results/solver.json]
                                        [--search-cap 60]

The suite is fixed and deterministic (every random draw comes from `random.Random(seed)`):

* pools: one shuffle of the whole bag (15 castellers of each size 1..10, 150 in all) with
  `random.Random(--seed)`; the pool of n castellers is the first n of that shuffle, so the pools of
  10, 20, 30 and 50 are nested, and the whole 150-casteller bag is the last pool;
* ranks: none; balance=1,width=1; mix=2,strength=2,width=2; every skill at 3; and two vectors drawn
  with `random.Random(seed + 101)` / `random.Random(seed + 102)` (each skill 0..3);
* questions: best tower; festival 6,3 and 8,5,2; tiles shape:4-3-2-1, shape:5-4-3-2-1,
  exhibition:4:balance+width and exhibition:5:mix+strength.

Full suite: 5 pools x 6 rank vectors x 7 questions = 210 instances.  Each instance is solved by
CP-SAT `R` times in this process (R=5; the median wall time is reported) and, where the suite says
so, once by the exhaustive search with the time limit `--search-cap` (default 60 s).

Why the search is not run everywhere (run-time budget, ~20 minutes on 2 cores): the search
enumerates every valid tower, so its time grows explosively with the pool and with the skill ranks.
Measured while writing this script: on a 30-casteller pool it finishes in under a second with low
ranks but does not finish in 10 s with every skill at 3, and on the 50-casteller pool it already
misses a 2 s cap for the best tower and both festivals with middling ranks.  A 60 s cap on all 84
instances of the two big pools would cost over an hour and only confirm ">cap".  So the search runs

* on every instance of the pools of at most `SEARCH_FULL_MAX_POOL` (30) castellers (126
  instances; a few of the 30-casteller ones with high ranks can hit the cap), and
* on one instance per question on the bigger pools: the 50-casteller pool with every skill at 3,
  the hardest rank vector (7 instances, at most 7 x cap).  The whole bag holds that pool, so a
  best-tower or festival search that misses the cap there would miss it on the bag as well.

Every other big-pool instance shows "-" (not run) in the search column.  In the worst case that is
roughly (7 + the high-rank 30-casteller instances) x cap of search plus about 3 minutes of CP-SAT;
a full run on a 2-core machine took about 8 minutes (6 searches hit the 60 s cap).
`--quick` uses a smaller suite (pools 10, 30 and the bag; three rank vectors; four questions),
R=1 and a 2 s cap, and finishes in well under two minutes.

CP-SAT runs with one worker, seed 0 and a 30 s limit (`CPSAT_TIME_LIMIT`); a solve that hits the
limit is reported "not proven" and not repeated.  The code measured is the working tree, so the JSON
records, as of the start of the run, the git HEAD, the tracked files that differ from it and a
sha256 over the imported `models`/`planner`/`cli` sources (the `castell` subprocess timed at the
end imports whatever is on disk then).

Checks (reported, never asserted): CP-SAT "proven" means status optimal or infeasible; when the
search finished, both engines must agree (both infeasible, or both found with the same objective);
when the search hit the cap, whatever it found must not beat CP-SAT's proven answer; and every
CP-SAT tower is re-checked with the solver-free `models` checker.

Whole-command time: `castell best --pool <bag> --skills <all 3> --festival 6,3 --json` as a
subprocess, and `python -c "import ortools.sat.python.cp_model"`, each 5 times after one untimed
warm-up; the medians and their ratio (target: at most 2x) are reported.

Writes the rows, summary and machine info as JSON (default benchmarks/results/solver.json).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from models.tower import (
    Festival,
    Pool,
    Rules,
    SkillRanks,
    check_tower,
    meets_tile,
    parse_tile,
    rules_named,
)
from planner.tower import (
    BestTower,
    Engine,
    FestivalTower,
    Question,
    SolveResult,
    Status,
    TileCheck,
    solve,
)

BAG: tuple[int, ...] = tuple(size for size in range(1, 11) for _ in range(15))
POOL_SIZES: tuple[int, ...] = (10, 20, 30, 50, len(BAG))
QUICK_POOL_SIZES: tuple[int, ...] = (10, 30, len(BAG))
SEARCH_FULL_MAX_POOL = 30  # the search runs on every instance of pools up to this size
SEARCH_BIG_POOL = 50  # ... and once per question on this pool, with SEARCH_BIG_RANKS
SEARCH_BIG_RANKS = "all=3"
QUESTIONS: tuple[str, ...] = (
    "best",
    "festival:6,3",
    "festival:8,5,2",
    "shape:4-3-2-1",
    "shape:5-4-3-2-1",
    "exhibition:4:balance+width",
    "exhibition:5:mix+strength",
)
QUICK_QUESTIONS: tuple[str, ...] = (
    "best", "festival:6,3", "shape:4-3-2-1", "exhibition:4:balance+width",
)
ALL_THREE = SkillRanks(balance=3, base=3, mix=3, strength=3, width=3)
CPSAT_TIME_LIMIT = 30.0  # per CP-SAT solve; far above any expected time, so "not proven" is news
COMMAND_REPEATS = 5
DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "solver.json"


@dataclass(frozen=True)
class Instance:
    pool_size: int
    pool: Pool
    ranks_label: str
    ranks: SkillRanks
    question_label: str
    question: Question
    run_search: bool


@dataclass
class Row:
    pool_size: int
    pool: str
    ranks_label: str
    ranks: str
    question: str
    cpsat_ms: list[float]
    cpsat_median_ms: float
    cpsat_engine_median_ms: float
    cpsat_status: str
    cpsat_proven: bool
    cpsat_objective: int | None
    cpsat_tower: str | None
    cpsat_tower_ok: bool | None
    search_run: bool
    search_s: float | None = None
    search_status: str | None = None
    search_finished: bool | None = None
    search_objective: int | None = None
    search_tower: str | None = None
    ratio: float | None = None  # search time / CP-SAT median; a lower bound when the search capped
    ratio_is_lower_bound: bool = False
    agree: bool | None = None  # only when the search finished
    conflict: str | None = None
    notes: list[str] = field(default_factory=list)


# -- the suite -------------------------------------------------------------------------------


def make_pools(seed: int, sizes: Sequence[int]) -> dict[int, Pool]:
    order = list(BAG)
    random.Random(seed).shuffle(order)
    return {n: Pool.of(order[:n]) for n in sizes}


def random_ranks(seed: int) -> SkillRanks:
    rng = random.Random(seed)
    return SkillRanks(**{name: rng.randint(0, 3)
                         for name in ("balance", "base", "mix", "strength", "width")})


def make_ranks(seed: int, quick: bool) -> dict[str, SkillRanks]:
    fixed = {
        "none": SkillRanks(),
        "bal1,wid1": SkillRanks(balance=1, width=1),
        "mix2,str2,wid2": SkillRanks(mix=2, strength=2, width=2),
        SEARCH_BIG_RANKS: ALL_THREE,
    }
    if quick:
        return {k: fixed[k] for k in ("none", "bal1,wid1", SEARCH_BIG_RANKS)}
    fixed["random-a"] = random_ranks(seed + 101)
    fixed["random-b"] = random_ranks(seed + 102)
    return fixed


def make_question(text: str, rules: Rules) -> Question:
    if text == "best":
        return BestTower()
    if text.startswith("festival:"):
        return FestivalTower(Festival.parse(text.partition(":")[2], rules))
    return TileCheck(parse_tile(text))


def make_suite(seed: int, quick: bool, rules: Rules) -> list[Instance]:
    pools = make_pools(seed, QUICK_POOL_SIZES if quick else POOL_SIZES)
    ranks = make_ranks(seed, quick)
    questions = QUICK_QUESTIONS if quick else QUESTIONS
    big = SEARCH_BIG_POOL if SEARCH_BIG_POOL in pools else max(pools)
    suite = []
    for size, pool in pools.items():
        for r_label, r in ranks.items():
            for q_text in questions:
                run_search = size <= SEARCH_FULL_MAX_POOL or (
                    size == big and r_label == SEARCH_BIG_RANKS)
                suite.append(Instance(size, pool, r_label, r, q_text,
                                      make_question(q_text, rules), run_search))
    return suite


# -- measuring -------------------------------------------------------------------------------


def timed_solve(inst: Instance, rules: Rules, engine: Engine, time_limit: float
                ) -> tuple[float, SolveResult]:
    started = time.perf_counter()
    result = solve(inst.question, inst.pool, inst.ranks, rules, engine=engine,
                   time_limit=time_limit, workers=1, seed=0)
    return time.perf_counter() - started, result


def tower_ok(inst: Instance, result: SolveResult, rules: Rules) -> bool | None:
    """Re-check a found tower with the solver-free checker (None when nothing was found)."""
    tower = result.tower
    if tower is None:
        return None
    check = check_tower(tower, inst.ranks, rules, inst.pool)
    if not check.valid:
        return False
    question = inst.question
    if isinstance(question, FestivalTower):
        return question.festival.eligible(tower, rules)
    if isinstance(question, TileCheck):
        return meets_tile(question.tile, tower, inst.ranks, rules, inst.pool)
    return True


def answers_agree(a: SolveResult, b: SolveResult) -> bool:
    if a.status is Status.INFEASIBLE or b.status is Status.INFEASIBLE:
        return a.status is b.status
    return a.found and b.found and a.objective == b.objective


def capped_conflict(cp: SolveResult, search: SolveResult) -> str | None:
    """A search cut short may still prove CP-SAT wrong, by finding something better."""
    if not search.found or not cp.proven:
        return None
    if cp.status is Status.INFEASIBLE:
        return "search found a tower where CP-SAT proved none exists"
    if search.objective is not None and cp.objective is not None \
            and search.objective > cp.objective:
        return f"search found objective {search.objective} > CP-SAT optimum {cp.objective}"
    return None


def run_instance(inst: Instance, rules: Rules, repeats: int, search_cap: float) -> Row:
    times: list[float] = []
    engine_times: list[float] = []
    results: list[SolveResult] = []
    for _ in range(repeats):
        wall, res = timed_solve(inst, rules, "cpsat", CPSAT_TIME_LIMIT)
        times.append(wall)
        engine_times.append(res.wall_time_s)
        results.append(res)
        if not res.proven:
            break  # it ran into the time limit: repeating would only cost another limit
    cp = results[0]
    notes = []
    if len({(r.status, r.objective) for r in results}) > 1:
        notes.append("CP-SAT repeats differ: "
                     + "; ".join(f"{r.status}/{r.objective}" for r in results))
    worst = next((r for r in results if not r.proven), cp)
    median_ms = statistics.median(times) * 1000
    row = Row(
        pool_size=inst.pool_size, pool=str(inst.pool), ranks_label=inst.ranks_label,
        ranks=str(inst.ranks), question=inst.question_label,
        cpsat_ms=[round(t * 1000, 3) for t in times],
        cpsat_median_ms=round(median_ms, 3),
        cpsat_engine_median_ms=round(statistics.median(engine_times) * 1000, 3),
        cpsat_status=str(worst.status), cpsat_proven=all(r.proven for r in results),
        cpsat_objective=cp.objective, cpsat_tower=str(cp.tower) if cp.tower else None,
        cpsat_tower_ok=tower_ok(inst, cp, rules), search_run=inst.run_search, notes=notes,
    )
    if row.cpsat_tower_ok is False:
        row.conflict = "CP-SAT tower fails the models checker or the question"
    if not inst.run_search:
        return row
    wall, sr = timed_solve(inst, rules, "search", search_cap)
    finished = sr.status in (Status.OPTIMAL, Status.INFEASIBLE)
    row.search_s = round(wall, 4)
    row.search_status = str(sr.status)
    row.search_finished = finished
    row.search_objective = sr.objective
    row.search_tower = str(sr.tower) if sr.tower else None
    row.ratio = round(wall / (median_ms / 1000), 3) if median_ms > 0 else None
    row.ratio_is_lower_bound = not finished
    if finished:
        row.agree = answers_agree(cp, sr)
        if not row.agree:
            row.conflict = (f"engines disagree: cpsat {cp.status}/{cp.objective} "
                            f"tower {cp.tower}; search {sr.status}/{sr.objective} tower {sr.tower}")
    else:
        row.conflict = row.conflict or capped_conflict(cp, sr)
    return row


def median_command_s(argv: list[str], repeats: int) -> tuple[float, list[float], int, str]:
    """Median wall time of a subprocess over `repeats` runs, after one untimed warm-up."""
    warm = subprocess.run(argv, capture_output=True, text=True, check=False)
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=False)
        times.append(time.perf_counter() - started)
    return statistics.median(times), times, warm.returncode, warm.stdout


COMMAND_SKILLS = (("mid-game ranks", SkillRanks(balance=1, width=1)), ("all skills 3", ALL_THREE))


def measure_commands(repeats: int) -> dict[str, Any]:
    """`castell best --festival 6,3` on the whole bag, for a mid-game and an extreme rank
    vector, against `import ortools.sat.python.cp_model` measured in the same run."""
    castell = str(Path(sys.executable).parent / "castell")
    import_argv = [sys.executable, "-c", "import ortools.sat.python.cp_model"]
    imp_med, imp_times, imp_rc, _ = median_command_s(import_argv, repeats)
    variants = []
    for label, ranks in COMMAND_SKILLS:
        argv = [castell, "best", "--pool", str(Pool.of(BAG)), "--skills", str(ranks),
                "--festival", "6,3", "--json"]
        med, times, rc, output = median_command_s(argv, repeats)
        try:
            parsed: Any = json.loads(output)
        except json.JSONDecodeError:
            parsed = output[:2000]
        variants.append({"label": label, "argv": argv, "exit_code": rc, "output": parsed,
                         "s": [round(t, 4) for t in times], "median_s": round(med, 4),
                         "ratio": round(med / imp_med, 3)})
    return {
        "castell_best": variants,
        "import_cp_model_argv": import_argv,
        "import_cp_model_exit_code": imp_rc,
        "import_cp_model_s": [round(t, 4) for t in imp_times],
        "import_cp_model_median_s": round(imp_med, 4),
        "target_ratio_at_most": 2.0,
    }


# -- reporting -------------------------------------------------------------------------------


def search_cell(row: Row, cap: float) -> str:
    if not row.search_run or row.search_s is None:
        return "-"
    if not row.search_finished:
        return f">{cap:g}"
    return f"{row.search_s:.3f}"


def ratio_cell(row: Row) -> str:
    if row.ratio is None:
        return "-"
    return f"{'>' if row.ratio_is_lower_bound else ''}{row.ratio:.1f}"


def short_ranks(text: str) -> str:
    """`balance=3,base=3` -> `bal3,bas3`, to keep the table narrow."""
    if text == "none":
        return text
    return ",".join(name[:3] + value for name, _, value in
                    (item.partition("=") for item in text.split(",")))


def print_table(console: Console, rows: Sequence[Row], cap: float) -> None:
    table = Table(title="CP-SAT vs exhaustive search", show_lines=False)
    for name in ("pool", "ranks", "question", "cpsat ms (median)", "cpsat status", "search s",
                 "search status", "search/cpsat", "check"):
        numeric = name in ("pool", "cpsat ms (median)", "search s", "search/cpsat")
        table.add_column(name, justify="right" if numeric else "left")
    for row in rows:
        check = "" if row.agree is None else ("agree" if row.agree else "DISAGREE")
        if row.conflict:
            check = "CONFLICT"
        status = row.cpsat_status if row.cpsat_proven else f"[bold red]{row.cpsat_status}[/]"
        table.add_row(str(row.pool_size), short_ranks(row.ranks), row.question,
                      f"{row.cpsat_median_ms:.1f}", status, search_cell(row, cap),
                      row.search_status or "-", ratio_cell(row), check)
    console.print(table)


def summarize(rows: Sequence[Row], cap: float) -> dict[str, Any]:
    by_size: dict[int, list[Row]] = {}
    for row in rows:
        by_size.setdefault(row.pool_size, []).append(row)
    median_by_size = {size: round(statistics.median(r.cpsat_median_ms for r in rs), 3)
                      for size, rs in sorted(by_size.items())}
    slowest = max(rows, key=lambda r: r.cpsat_median_ms)
    not_proven = [r for r in rows if not r.cpsat_proven]
    speedup_size, speedup = _speedup(by_size)
    compared = [r for r in rows if r.agree is not None]
    capped = [r for r in rows if r.search_run and not r.search_finished]
    conflicts = [r for r in rows if r.conflict]
    return {
        "instances": len(rows),
        "cpsat_median_ms_by_pool_size": median_by_size,
        "cpsat_max_ms": slowest.cpsat_median_ms,
        "cpsat_max_instance": f"pool {slowest.pool_size}, {slowest.ranks}, {slowest.question}",
        "cpsat_not_proven": len(not_proven),
        "cpsat_not_proven_instances": [
            f"pool {r.pool_size} [{r.pool}], {r.ranks}, {r.question}: {r.cpsat_status}"
            for r in not_proven],
        "search_runs": sum(r.search_run for r in rows),
        "search_capped": len(capped),
        "search_cap_s": cap,
        "speedup_pool_size": speedup_size,
        "speedup_median_search_over_cpsat": speedup,
        "agree": sum(bool(r.agree) for r in compared),
        "compared": len(compared),
        "conflicts": [
            f"pool {r.pool_size} [{r.pool}], skills {r.ranks}, {r.question}: {r.conflict}"
            for r in conflicts],
    }


def _speedup(by_size: dict[int, list[Row]]) -> tuple[int | None, float | None]:
    """The largest pool size where the search finished every instance, and there the median
    of search time over CP-SAT time (None, None: no such size)."""
    complete = [size for size, rs in by_size.items()
                if all(r.search_run and r.search_finished for r in rs)]
    speedup_size = max(complete) if complete else None
    speedup = None
    if speedup_size is not None:
        ratios = [r.ratio for r in by_size[speedup_size] if r.ratio is not None]
        speedup = round(statistics.median(ratios), 3) if ratios else None
    return speedup_size, speedup


def summary_lines(s: dict[str, Any], cmd: dict[str, Any] | None) -> list[str]:
    per_size = ", ".join(f"{k}: {v:.1f} ms" for k, v in s["cpsat_median_ms_by_pool_size"].items())
    lines = [
        f"instances: {s['instances']} (search run on {s['search_runs']}, "
        f"{s['search_capped']} hit the {s['search_cap_s']:g} s cap)",
        f"CP-SAT median time per pool size: {per_size}",
        f"CP-SAT max time: {s['cpsat_max_ms']:.1f} ms ({s['cpsat_max_instance']})",
        f"CP-SAT not proven optimal/infeasible: {s['cpsat_not_proven']}",
    ]
    if s["speedup_pool_size"] is None:
        lines.append("CP-SAT speed-up: no pool size where the search finished every instance")
    else:
        lines.append(f"CP-SAT speed-up at pool size {s['speedup_pool_size']} (largest where the "
                     f"search finished every instance): median search/cpsat = "
                     f"{s['speedup_median_search_over_cpsat']:.1f}x")
    lines.append(f"engines agree: {s['agree']}/{s['compared']} instances where the search "
                 f"finished; conflicts: {len(s['conflicts'])}")
    lines.extend(f"  CONFLICT {c}" for c in s["conflicts"])
    lines.extend(f"  NOT PROVEN {c}" for c in s["cpsat_not_proven_instances"])
    if cmd is not None:
        lines.append(f"`import ortools.sat.python.cp_model`: median "
                     f"{cmd['import_cp_model_median_s'] * 1000:.0f} ms")
        for variant in cmd["castell_best"]:
            lines.append(f"whole command `castell best` (bag, {variant['label']}, festival 6,3): "
                         f"median {variant['median_s'] * 1000:.0f} ms (exit "
                         f"{variant['exit_code']}); ratio {variant['ratio']:.2f}x (target <= 2x)")
    return lines


def load_average() -> list[float] | None:
    return list(os.getloadavg()) if hasattr(os, "getloadavg") else None


def source_digest() -> str:
    """One hash over the project modules this process imported, to tell measured code apart."""
    digest = hashlib.sha256()
    for name in sorted(sys.modules):
        if name.split(".")[0] not in ("models", "planner", "cli"):
            continue
        path = getattr(sys.modules[name], "__file__", None)
        if path and Path(path).is_file():
            digest.update(name.encode() + b"\0" + Path(path).read_bytes())
    return digest.hexdigest()


def machine_info() -> dict[str, Any]:
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], capture_output=True, text=True, check=False,
                                  cwd=Path(__file__).resolve().parent).stdout.strip()
        except OSError:
            return ""

    rev = git("rev-parse", "HEAD")
    # The code measured is the working tree, so say which tracked files differ from HEAD.
    dirty = git("diff", "--name-only", "HEAD").splitlines()
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "python": sys.version.split()[0],
        "python_implementation": platform.python_implementation(),
        "ortools": version("ortools"),
        "cpu_count": os.cpu_count(),
        "git_head": rev or None,
        "git_modified_files": dirty,
        "load_average_at_start": load_average(),
        "source_sha256": source_digest(),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true",
                        help="smaller suite, 1 CP-SAT repeat, 2 s search cap")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--search-cap", type=float, default=None,
                        help="search time limit in seconds (default 60; --quick 2)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="CP-SAT repeats per instance (default 5; --quick 1)")
    parser.add_argument("--seed", type=int, default=2025, help="seed of the suite's draws")
    parser.add_argument("--rules", default="standard", help="rule variant")
    parser.add_argument("--no-commands", action="store_true",
                        help="skip the whole-command timing")
    args = parser.parse_args(argv)
    cap: float = args.search_cap if args.search_cap is not None else (2.0 if args.quick else 60.0)
    repeats: int = args.repeats if args.repeats is not None else (1 if args.quick else 5)
    rules = rules_named(args.rules)
    console = Console(width=None if sys.stdout.isatty() else 170)

    # Taken before the run: the code measured is what was imported now, and others may commit
    # or edit while the suite runs.
    machine = machine_info()
    suite = make_suite(args.seed, args.quick, rules)
    started = time.perf_counter()
    # Warm up CP-SAT once so the first timed instance does not pay one-off initialisation.
    solve(BestTower(), suite[0].pool, SkillRanks(), rules, time_limit=CPSAT_TIME_LIMIT)
    rows: list[Row] = []
    for i, inst in enumerate(suite, 1):
        row = run_instance(inst, rules, repeats, cap)
        rows.append(row)
        print(f"[{i}/{len(suite)}] {time.perf_counter() - started:7.1f}s  pool "
              f"{row.pool_size} {row.ranks} | {row.question}: cpsat "
              f"{row.cpsat_median_ms:.1f} ms {row.cpsat_status}; search "
              f"{search_cell(row, cap)} {row.search_status or ''}"
              + (f"  CONFLICT {row.conflict}" if row.conflict else ""),
              file=sys.stderr, flush=True)
    suite_s = time.perf_counter() - started

    cmd = None if args.no_commands else measure_commands(COMMAND_REPEATS)
    summary = summarize(rows, cap)
    summary["suite_wall_s"] = round(suite_s, 1)
    lines = summary_lines(summary, cmd)

    print_table(console, rows, cap)
    console.print("[bold]Summary[/]")
    for line in lines:
        console.print(line, highlight=False, markup=False)
    console.print(f"suite wall time: {suite_s:.0f} s", highlight=False)

    ranks_vectors = {label: str(r) for label, r in make_ranks(args.seed, args.quick).items()}
    report = {
        "benchmark": "bench_solver",
        "config": {
            "quick": args.quick, "seed": args.seed, "rules": rules.name, "repeats": repeats,
            "search_cap_s": cap, "cpsat_time_limit_s": CPSAT_TIME_LIMIT, "cpsat_workers": 1,
            "search_full_max_pool": SEARCH_FULL_MAX_POOL,
            "search_big_pool": SEARCH_BIG_POOL, "search_big_ranks": SEARCH_BIG_RANKS,
            "pools": {str(size): str(pool) for size, pool in make_pools(
                args.seed, QUICK_POOL_SIZES if args.quick else POOL_SIZES).items()},
            "ranks": ranks_vectors,
            "questions": list(QUICK_QUESTIONS if args.quick else QUESTIONS),
        },
        "machine": {**machine, "load_average_at_end": load_average()},
        "summary": summary,
        "summary_lines": lines,
        "commands": cmd,
        "rows": [asdict(r) for r in rows],
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    console.print(f"wrote {args.out}", highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
