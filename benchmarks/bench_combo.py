"""Castle Combo solvers: `arrange` against the exhaustive reference, the advisor against greedy,
and tournament throughput with one and two workers.

Run: python benchmarks/bench_combo.py [--sets 200] [--reference-sets 50] [--advisor-seconds 60]
         [--advisor-samples 10] [--games 40] [--out FILE]

* arrange: `--sets` random 9-card sets of the sample deck (all face up, 0-3 keys, 0-12 gold),
  each solved by `best_arrangement` (CP-SAT, 1 worker, seed 0) and timed in-process (model build
  and re-scoring included, after one warm-up solve); the first `--reference-sets` of them also
  by `arrange_exhaustive` in the same run.
  Reported: proven-optimal count, CP-SAT median and worst, reference median, the ratio of the
  medians on the shared sets, and agreement of the totals.
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
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.combo import Grid, Slot, apply, final_scores, load_deck, new_game
from models.files import write_atomic
from planner.combo import (
    advisor_bot,
    arrange_exhaustive,
    arrangement_question,
    best_arrangement,
    games,
    greedy,
    wilson,
)
from planner.combo.advisor import BOT_CANDIDATES, BOT_SAMPLES, BOT_SPREAD, BOT_VALUE, VALUES


def bench_arrange(sets: int, reference_sets: int, seed: int) -> dict[str, object]:
    deck = load_deck()
    rng = random.Random(seed)
    questions = []
    for _ in range(sets):
        cards = rng.sample(deck.cards, 9)
        questions.append(arrangement_question(deck, [Slot(c.id) for c in cards],
                                              keys=rng.randint(0, 3), gold=rng.randint(0, 12)))
    fast, slow, agree, optimal = [], [], 0, 0
    best_arrangement(questions[0])  # warm-up: OR-Tools' first solve loads its libraries
    for i, q in enumerate(questions):
        started = time.perf_counter()
        result = best_arrangement(q)
        fast.append(time.perf_counter() - started)
        optimal += result.status == "optimal"
        if i < reference_sets:
            started = time.perf_counter()
            reference = arrange_exhaustive(q)
            slow.append(time.perf_counter() - started)
            agree += reference.total == result.total
    shared = fast[:len(slow)]
    # a plain enumeration (all 9! arrangements, each scored by the rules core, no symmetry or
    # caching), estimated from 2000 timed arrangements of each of the first 5 sets
    per_arrangement = []
    for q in questions[:5]:
        slots = list(q.slots)
        started = time.perf_counter()
        for _ in range(2000):
            rng.shuffle(slots)
            q.sheet(Grid(tuple(tuple(slots[3 * r:3 * r + 3]) for r in range(3))))
        per_arrangement.append((time.perf_counter() - started) / 2000)
    plain_s = statistics.fmean(per_arrangement) * math.factorial(9)
    return {"sets": sets, "proven_optimal": optimal,
            "cpsat_median_ms": round(1000 * statistics.median(fast), 1),
            "cpsat_worst_ms": round(1000 * max(fast), 1),
            "reference_sets": len(slow),
            "reference_median_ms": round(1000 * statistics.median(slow), 1) if slow else None,
            "speedup_of_medians": round(statistics.median(slow) / statistics.median(shared), 1)
            if slow else None,
            "median_per_set_speedup": round(statistics.median(
                s / f for s, f in zip(slow, shared, strict=True)), 1) if slow else None,
            "totals_agree": agree,
            "plain_enumeration_estimate_s": round(plain_s, 1),
            "speedup_vs_plain_estimate": round(plain_s / statistics.median(fast))}


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
                  candidates: int = BOT_CANDIDATES, value: str = BOT_VALUE,
                  spread: bool = BOT_SPREAD, log: Path | None = None) -> dict[str, object]:
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
    parser.add_argument("--reference-sets", type=int, default=50)
    parser.add_argument("--advisor-seconds", type=float, default=60.0)
    parser.add_argument("--min-advisor-games", type=int, default=10)
    parser.add_argument("--advisor-samples", type=int, default=BOT_SAMPLES)
    parser.add_argument("--advisor-candidates", type=int, default=BOT_CANDIDATES)
    parser.add_argument("--advisor-value", choices=VALUES, default=BOT_VALUE)
    parser.add_argument("--advisor-spread", action=argparse.BooleanOptionalAction,
                        default=BOT_SPREAD)
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
