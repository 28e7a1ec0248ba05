"""Castle Combo solvers: `arrange` against the exhaustive reference, the advisor against greedy,
and tournament throughput with one and two workers.

Run: python benchmarks/bench_combo.py [--sets 200] [--reference-sets 200] [--advisor-seconds 60]
         [--advisor-samples 10] [--games 40] [--out FILE]

* arrange: `--sets` random 9-card sets of the sample deck (all face up, 0-3 keys, 0-12 gold),
  each solved in turn by the product engine (`best_arrangement`: upper bound and local search,
  CP-SAT when they do not meet), by the CP-SAT model alone (`engine=Engine.CPSAT`, 1 worker, seed
  0) and, for the first `--reference-sets`, by `arrange_exhaustive`, all in the same run and
  timed in-process (model build and re-scoring included, after one warm-up solve), wall and CPU.
  Reported per engine: proven-optimal count, median and worst; how many sets each path of the
  product answered; the reference's time over each engine's (ratio of the medians and median
  ratio per set); agreement of the three totals.
* advisor vs greedy: 2-player games (seats rotating), the advisor bot with `--advisor-samples`
  sampled completions at the widest for each of its `--advisor-candidates` shortlisted takes
  (`--advisor-spread`: each way of taking a card before a second cell) and a key move, ranked
  by `--advisor-value` (defaults: the bot's own, `planner.combo.advisor.BOT_*`; a deterministic
  budget, under 1 s of CPU per move; the mean and worst wall and CPU times per move are
  reported), games played on 2 processes until `--advisor-seconds` have passed (at least
  `--min-advisor-games`); `--advisor-log FILE` lists each game as it ends.
* throughput: `--games` greedy-vs-greedy games with 1 worker, then with 2; games/s and speedup,
  and whether both runs gave the same results; and games per CPU second of one process (a
  per-core figure that other jobs on the machine do not dilute).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.combo import Grid, Slot, apply, final_scores, load_deck, new_game
from models.files import write_atomic
from planner.combo import (
    ArrangeQuestion,
    ArrangeResult,
    Engine,
    advisor_bot,
    arrange_exhaustive,
    arrangement_question,
    best_arrangement,
    games,
    greedy,
    wilson,
)
from planner.combo.advisor import VALUES
from planner.combo.budget import DEFAULT_COMBO


def _timed(solve: Callable[[], ArrangeResult]) -> tuple[ArrangeResult, float, float]:
    """The answer, its wall time and its CPU time (this process, every thread)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = solve()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _ms(values: list[float]) -> dict[str, float]:
    return {"median_ms": round(1000 * statistics.median(values), 2),
            "worst_ms": round(1000 * max(values), 1)}


Run = tuple[ArrangeResult, float, float]  # the answer, its wall time, its CPU time


def bench_arrange(sets: int, reference_sets: int, seed: int) -> dict[str, object]:
    deck = load_deck()
    rng = random.Random(seed)
    questions = []
    for _ in range(sets):
        cards = rng.sample(deck.cards, 9)
        questions.append(arrangement_question(deck, [Slot(c.id) for c in cards],
                                              keys=rng.randint(0, 3), gold=rng.randint(0, 12)))
    runs = _arrange_runs(questions, reference_sets)
    shared = len(runs["reference"])
    report: dict[str, object] = {"sets": sets, "reference_sets": shared}
    for name, done in runs.items():
        report[name] = {"proven_optimal": sum(r.status == "optimal" for r, _, _ in done),
                        "wall": _ms([w for _, w, _ in done]), "cpu": _ms([c for _, _, c in done])}
    product = runs["product"]
    report["product_answered_by"] = {
        engine: {"sets": len(times), **_ms(times)}
        for engine in ("bound", "cpsat")
        if (times := [c for r, _, c in product if r.engine == engine])}
    report["totals_agree"] = sum(
        runs["reference"][i][0].total == product[i][0].total == runs["cpsat_only"][i][0].total
        for i in range(shared))
    if shared:
        report.update(_reference_ratios(runs, shared))
        report.update(_symmetry_ratios(questions, runs, shared))
    plain_s = _plain_enumeration_s(questions, rng)
    report["plain_enumeration_estimate_s"] = round(plain_s, 1)
    report["plain_over_product"] = round(plain_s / statistics.median(w for _, w, _ in product))
    return report


def _arrange_runs(questions: list[ArrangeQuestion], reference_sets: int
                  ) -> dict[str, list[Run]]:
    """Three engines, in turn on each set: the product (`best_arrangement`: bound and local
    search, CP-SAT when they do not meet), the CP-SAT model alone, the exhaustive reference
    (on the first `reference_sets` only)."""
    runs: dict[str, list[Run]] = {"product": [], "cpsat_only": [], "reference": []}
    best_arrangement(questions[0], engine=Engine.CPSAT)  # warm-up: OR-Tools loads its libraries
    for i, q in enumerate(questions):
        runs["product"].append(_timed(lambda q=q: best_arrangement(q)))  # type: ignore[misc]
        runs["cpsat_only"].append(_timed(
            lambda q=q: best_arrangement(q, engine=Engine.CPSAT)))  # type: ignore[misc]
        if i < reference_sets:
            runs["reference"].append(_timed(lambda q=q: arrange_exhaustive(q)))  # type: ignore[misc]
    return runs


def _seconds(run: Run, clock: str) -> float:
    """A run's CPU time (`clock` "cpu") or wall time ("wall")."""
    return run[2] if clock == "cpu" else run[1]


def _reference_ratios(runs: dict[str, list[Run]], shared: int) -> dict[str, object]:
    """How much slower the reference is than each engine, on the `shared` sets it solved."""
    report: dict[str, object] = {}
    for name in ("product", "cpsat_only"):
        for clock in ("cpu", "wall"):
            slow = [_seconds(run, clock) for run in runs["reference"]]
            fast = [_seconds(run, clock) for run in runs[name][:shared]]
            report[f"reference_over_{name}_{clock}"] = {
                "ratio_of_medians": round(statistics.median(slow) / statistics.median(fast),
                                          1),
                "median_per_set": round(statistics.median(
                    s / f for s, f in zip(slow, fast, strict=True)), 1)}
    return report


def _symmetry_ratios(questions: list[ArrangeQuestion], runs: dict[str, list[Run]],
                     shared: int) -> dict[str, object]:
    """The reference walks 36x fewer arrangements when no scroll names a cell (row/column
    symmetry): the ratio within each class of sets, on CPU time."""
    report: dict[str, object] = {}
    product = runs["product"]
    for name, symmetric in (("symmetric", True), ("position_card", False)):
        chosen = [i for i in range(shared) if symmetric == all(
            questions[i].kind_of(s) != "position" for s in questions[i].slots)]
        if chosen:
            slow = [runs["reference"][i][2] for i in chosen]
            fast = [product[i][2] for i in chosen]
            report[f"{name}_sets_cpu"] = {
                "sets": len(chosen), "reference_median_ms": round(
                    1000 * statistics.median(slow), 1),
                "product_median_ms": round(1000 * statistics.median(fast), 2),
                "ratio_of_medians": round(statistics.median(slow) / statistics.median(fast),
                                          1)}
    return report


def _plain_enumeration_s(questions: list[ArrangeQuestion], rng: random.Random) -> float:
    """A plain enumeration's time (all 9! arrangements, each scored by the rules core, no
    symmetry or caching), estimated from 2000 timed arrangements of each of the first 5 sets."""
    per_arrangement = []
    for q in questions[:5]:
        slots = list(q.slots)
        started = time.perf_counter()
        for _ in range(2000):
            rng.shuffle(slots)
            q.sheet(Grid(tuple(tuple(slots[3 * r:3 * r + 3]) for r in range(3))))
        per_arrangement.append((time.perf_counter() - started) / 2000)
    return statistics.fmean(per_arrangement) * math.factorial(9)


AdvisorJob = tuple[int, int, int, str, bool]


def _advisor_game(job: AdvisorJob) -> tuple[float, float, int, list[float], list[float]]:
    """One advisor-vs-greedy game, seats rotating: (the advisor's share of the win, its score
    minus greedy's, the index, its move times)."""
    index, samples, candidates, value, spread = job
    deck = load_deck()
    names = ["advisor", "greedy"]
    state = new_game(deck, names, 10_000 + index, first=names[index % 2])
    rng = random.Random(index)
    advisor = advisor_bot(samples, candidates, value, spread)  # type: ignore[arg-type]
    times: list[float] = []
    cpu: list[float] = []
    while not state.now.game_over:
        if state.now.player.name == "advisor":
            started, used = time.perf_counter(), time.process_time()
            action = advisor(state, rng)
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - used)
        else:
            action = greedy(state, rng)
        state = apply(state, action)
    scores, winners = final_scores(state)
    share = 1 / len(winners) if "advisor" in winners else 0.0
    return share, scores[0].sheet.total - scores[1].sheet.total, index, times, cpu


def bench_advisor(seconds: float, minimum: int, samples: int, first: int,
                  candidates: int = DEFAULT_COMBO.bot_candidates,
                  value: str = DEFAULT_COMBO.bot_value, spread: bool = DEFAULT_COMBO.bot_spread,
                  log: Path | None = None) -> dict[str, object]:
    """Advisor-vs-greedy games on 2 processes; `log` is rewritten after each game with one
    JSON line per finished game (a long run can be followed, and read if it is stopped)."""
    started = time.perf_counter()
    results = []
    lines: list[str] = []

    def job(i: int) -> AdvisorJob:
        return (i, samples, candidates, value, spread)

    with ProcessPoolExecutor(max_workers=2) as pool:
        running = {pool.submit(_advisor_game, job(i)) for i in (first, first + 1)}
        index = first + 2
        while running:
            done = next(iter(running))
            for future in list(running):
                if future.done():
                    done = future
                    break
            else:
                time.sleep(0.05)
                continue
            running.remove(done)
            results.append(done.result())
            if log is not None:
                share, margin, index_done, times, cpu = results[-1]
                lines.append(json.dumps({
                    "index": index_done, "advisor_share": share, "margin": margin,
                    "moves": len(cpu), "cpu_mean_s": round(statistics.fmean(cpu), 3),
                    "cpu_worst_s": round(max(cpu), 3), "wall_mean_s": round(
                        statistics.fmean(times), 3), "at_s": round(
                        time.perf_counter() - started, 1)}) + "\n")
                write_atomic(log, "".join(lines))
            if time.perf_counter() - started < seconds or len(results) + len(running) < minimum:
                running.add(pool.submit(_advisor_game, job(index)))
                index += 1
    wins = sum(r[0] for r in results)
    low, high = wilson(wins, len(results))
    moves = [t for r in results for t in r[3]]
    cpu = [t for r in results for t in r[4]]
    return {"games": len(results), "first_game": first, "advisor_samples": samples,
            "advisor_candidates": candidates, "advisor_value": value, "advisor_spread": spread,
            "advisor_wins": wins,
            "win_rate": round(wins / len(results), 3), "ci95": [round(low, 3), round(high, 3)],
            "mean_margin": round(statistics.fmean(r[1] for r in results), 2),
            "move_mean_s": round(statistics.fmean(moves), 3), "move_worst_s": round(max(moves), 3),
            "move_cpu_mean_s": round(statistics.fmean(cpu), 3),
            "move_cpu_worst_s": round(max(cpu), 3),
            "wall_s": round(time.perf_counter() - started, 1)}


def bench_throughput(count: int, seed: int) -> dict[str, object]:
    deck = load_deck()
    runs = {}
    for workers in (1, 2):
        started = time.perf_counter()
        records = list(games(deck, ["greedy", "greedy"], count, seed, workers))
        runs[workers] = (time.perf_counter() - started, records)
    one, two = runs[1][0], runs[2][0]
    used = time.process_time()
    list(games(deck, ["greedy", "greedy"], count, seed, 1))
    cpu = time.process_time() - used
    return {"games": count, "one_worker_games_per_s": round(count / one, 2),
            "games_per_cpu_second": round(count / cpu, 2),
            "two_workers_games_per_s": round(count / two, 2), "speedup": round(one / two, 2),
            "identical": runs[1][1] == runs[2][1]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=200)
    parser.add_argument("--reference-sets", type=int, default=200)
    parser.add_argument("--advisor-seconds", type=float, default=60.0)
    parser.add_argument("--min-advisor-games", type=int, default=10)
    parser.add_argument("--advisor-samples", type=int, default=DEFAULT_COMBO.bot_samples)
    parser.add_argument("--advisor-candidates", type=int, default=DEFAULT_COMBO.bot_candidates)
    parser.add_argument("--advisor-value", choices=VALUES, default=DEFAULT_COMBO.bot_value)
    parser.add_argument("--advisor-spread", action=argparse.BooleanOptionalAction,
                        default=DEFAULT_COMBO.bot_spread)
    parser.add_argument("--advisor-log", type=Path, default=None,
                        help="one JSON line per finished advisor game, rewritten as they end")
    parser.add_argument("--advisor-first-game", type=int, default=0,
                        help="index of the first advisor game (a later run adds new games)")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--skip", default="", help="comma-separated: arrange,advisor,throughput")
    parser.add_argument("--out", default="benchmarks/results/combo.json")
    args = parser.parse_args()
    skip = set(args.skip.split(","))
    console = Console()
    report: dict[str, object] = {"machine": platform.platform(), "python": sys.version.split()[0]}
    if "arrange" not in skip:
        report["arrange"] = bench_arrange(args.sets, args.reference_sets, args.seed)
        console.print(report["arrange"])
    if "throughput" not in skip:
        report["throughput"] = bench_throughput(args.games, args.seed)
        console.print(report["throughput"])
    if "advisor" not in skip:
        report["advisor"] = bench_advisor(args.advisor_seconds, args.min_advisor_games,
                                          args.advisor_samples, args.advisor_first_game,
                                          args.advisor_candidates, args.advisor_value,
                                          args.advisor_spread, args.advisor_log)
        console.print(report["advisor"])
    table = Table(title="Castle Combo solvers")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for section, values in report.items():
        if isinstance(values, dict):
            for key, value in values.items():
                table.add_row(f"{section}.{key}", str(value))
    console.print(table)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
