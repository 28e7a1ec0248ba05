"""Castell bots over whole games: a planning bot's win rate against two others, and the CPU
and wall time of each of its calls (what `castell tournament` cannot report: the time depends
on the machine, so it is kept out of the game records).

Run:  python benchmarks/bench_castell_bots.py [--bot advisor] [--rivals greedy,greedy]
                                              [--games 12] [--seed 1] [--start 0]
                                              [--out benchmarks/results/castell_bots.json]
      python benchmarks/bench_castell_bots.py --merge A.json B.json [--out FILE] [--svg FILE]

`--start K` plays games K..G-1 only: two processes on two cores play a tournament's halves
(`--start 0 --games 30`, `--start 30 --games 60`) and `--merge` makes one result of their
files (the records and every call's times are kept in each).

The games are exactly `castell tournament --bots BOT,RIVALS --games G --seed S`'s (game i is
a function of the seed and i; seats rotate over each deal), played here in one process with
the planning bot's calls timed (`time.process_time` and `time.perf_counter` around each
`planner.turns.plan` call: for the win goal its plans, its greedy turns and the rivals'
simulated answers together). Reported: the bot's wins (ties shared), win rate and its 95%
Wilson interval, mean margin to the best rival, turns that fell back to greedy, plans the
wall clock cut short, and per call the median, 95th percentile and largest CPU and wall seconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from models.game import load_board  # noqa: E402
from planner.castell import BOTS, Advisor, GameRecord, Setup, play_game, summarise  # noqa: E402


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="advisor")
    parser.add_argument("--rivals", default="greedy,greedy")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--merge", type=Path, nargs="+")
    parser.add_argument("--svg", type=Path, help="every game's final score per bot, drawn")
    parser.add_argument("--out", type=Path,
                        default=ROOT / "benchmarks" / "results" / "castell_bots.json")
    args = parser.parse_args()
    if args.merge:
        parts = [json.loads(p.read_text(encoding="utf-8")) for p in args.merge]
        records = [GameRecord.of(r) for part in parts for r in part["records"]]
        first = parts[0]
        _report(args, first["bots"][0], first["bots"], first["seed"], records,
                [t for p in parts for t in p["wall_each"]],
                [t for p in parts for t in p["cpu_each"]],
                sum(p["fallbacks"] for p in parts), sum(p["clock_hits"] for p in parts))
        return
    bots = [args.bot, *args.rivals.split(",")]
    setup = Setup(load_board())
    records, wall, cpu = [], [], []
    fallbacks = clock_hits = 0
    for index in range(args.start, args.games):
        made = [BOTS[b]() for b in bots]
        records.append(play_game(setup, bots, args.seed, index, made))
        planner = made[0]
        if isinstance(planner, Advisor):
            wall += planner.wall_s
            cpu += planner.cpu_s
            fallbacks += planner.fallbacks
            clock_hits += planner.clock_hits
        row = records[-1]
        seat = row.bots.index(args.bot)
        print(f"game {index}: {dict(zip(row.players, row.totals, strict=True))} "
              f"margin {row.margin(seat):+d}", flush=True)
    _report(args, args.bot, bots, args.seed, records, wall, cpu, fallbacks, clock_hits)


def _report(args: argparse.Namespace, bot: str, bots: list[str], seed: int,
            records: list[GameRecord], wall: list[float], cpu: list[float], fallbacks: int,
            clock_hits: int) -> None:
    summary = summarise(records).as_dict()
    mine = summary["bots"][bot]
    result = {
        "bots": bots, "games": len(records), "seed": seed,
        "when": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "win_rate": mine["win_rate"], "ci95": mine["ci95"], "wins": mine["wins"],
        "mean_margin": mine["mean_margin"], "fallbacks": fallbacks, "clock_hits": clock_hits,
        "calls": len(cpu),
        "cpu_s": {"median": statistics.median(cpu) if cpu else 0.0,
                  "p95": _quantile(cpu, 0.95), "max": max(cpu, default=0.0)},
        "wall_s": {"median": statistics.median(wall) if wall else 0.0,
                   "p95": _quantile(wall, 0.95), "max": max(wall, default=0.0)},
        "summary": summary, "records": [r.as_dict() for r in records],
        "wall_each": wall, "cpu_each": cpu,
    }
    print(json.dumps({k: v for k, v in result.items()
                      if k not in ("summary", "records", "wall_each", "cpu_each")}, indent=1))
    if args.svg:
        from service.pictures.tournament_svg import score_distributions

        scores: dict[str, list[int]] = {}
        for record in records:
            for name, total in zip(record.bots, record.totals, strict=True):
                scores.setdefault(name, []).append(total)
        rates = {name: row["win_rate"] for name, row in summary["bots"].items()}
        title = f"{len(records)} games of {len(bots)} players: final scores per bot"
        args.svg.write_text(score_distributions(scores, rates, title), encoding="utf-8")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
