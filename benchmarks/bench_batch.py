"""The batch runner (`service.batches`): work per CPU second, speed-up on 2 workers, scheduler
overhead per chunk, result sizes, Dask start-up and memory, and a projection table for a
100,000-game tournament and a 10,000-puzzle book on 1-256 workers.

Run: python benchmarks/bench_batch.py [--quick] [--no-advisor] [--json FILE]

- Work per CPU second (one core, `time.process_time`, in this process): puzzle-book candidates
  (kind any; easy, medium, hard) and tournament games (greedy,random; advisor,greedy).
- Speed-up: the same 12 chunks of greedy,random games on 1 worker (this process), a local pool
  of 2 and a 2-worker Dask LocalCluster, through `service.batches.run`; next to a trivially
  parallel pure-Python job of the same chunk count and size, run the same way in the same run.
  The machine is shared: the figure that counts is the ratio of the two speed-ups.
- Overhead: 200 empty chunks through each engine, wall time per chunk.
- Dask: LocalCluster(2 workers, 1 thread each) start-up to a connected client, and the RSS of
  its worker processes and nannies (psutil, installed with distributed).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from service.batches import Engine, open_engine, run
from service.batches.tournament import TournamentJob
from service.castell.puzzle_book import CHUNK, BookJob
from service.combo.tournament import QUICK_CHUNK, combo_job

PROJECT = (1, 2, 16, 64, 256)


@dataclass(frozen=True)
class Burn:
    """A trivially parallel CPU-bound job: each chunk a fixed pure-Python loop."""

    indices: int
    loops: int
    chunk_size: int = 1

    def run_chunk(self, indices: range) -> list[str]:
        total = 0
        for i in range(self.loops):
            total = (total + i * i) % 1_000_003
        return [str(total) for _ in indices]


@dataclass
class Count:
    wanted: int
    done: int = 0
    size: int = 0

    def add(self, lines: list[str]) -> None:
        self.done += len(lines)
        self.size += sum(len(line) + 1 for line in lines)

    @property
    def finished(self) -> bool:
        return self.done >= self.wanted


def cpu(fn: Any, *args: Any) -> tuple[float, Any]:
    started = time.process_time()
    value = fn(*args)
    return time.process_time() - started, value


def wall_on(engine: Engine, job: Any) -> float:
    reducer = Count(job.indices)
    started = time.perf_counter()
    run(job, reducer, engine)
    return time.perf_counter() - started


def games_job(games: int, chunk: int = QUICK_CHUNK, bots: tuple[str, ...] = ("greedy", "random")
              ) -> TournamentJob:
    from models.combo import load_deck

    return combo_job(load_deck(None), bots, 1, games, chunk_size=chunk)


_DASK_PROBE = """
import json, os, time
import psutil
started = time.perf_counter()
before = psutil.Process().memory_info().rss
from distributed import Client, LocalCluster
imported = time.perf_counter()
if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        client.wait_for_workers(2)
        up = time.perf_counter()
        pids = list(client.run(os.getpid).values())
        workers = sum(psutil.Process(pid).memory_info().rss for pid in pids)
        here = psutil.Process().memory_info().rss - before
        closing = time.perf_counter()
    print(json.dumps({"import_s": imported - started, "start_s": up - imported,
                      "close_s": time.perf_counter() - closing,
                      "workers_rss_mb": workers / 2**20,
                      "scheduler_nannies_client_rss_mb": here / 2**20}))
"""


def dask_start_and_memory() -> dict[str, float]:
    """In a fresh process (spawned workers need a main module on disk): the import of
    distributed, a 2-worker LocalCluster up to a connected client, its close, and the RSS of
    the 2 worker processes and of the process holding the scheduler, the nannies and the
    client (LocalCluster keeps those three in the caller's process)."""
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        probe = Path(folder) / "probe.py"
        probe.write_text(_DASK_PROBE)
        done = subprocess.run([sys.executable, str(probe)], capture_output=True, text=True,
                              check=True)
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def project(chunks: int, chunk_cpu_s: float, efficiency: float, overhead_s: float,
            start_s: float) -> dict[int, float]:
    """Wall seconds on W workers: the chunks' CPU spread over W cores at the measured
    efficiency, but never faster than the scheduler hands out chunks; plus the start-up."""
    return {w: start_s + max(chunks * chunk_cpu_s / (w * (1.0 if w == 1 else efficiency)),
                             chunks * overhead_s) for w in PROJECT}


def hours(seconds: float) -> str:
    return f"{seconds / 3600:.1f} h" if seconds >= 5400 else f"{seconds / 60:.1f} min" \
        if seconds >= 90 else f"{seconds:.0f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Smaller samples.")
    parser.add_argument("--no-advisor", action="store_true", help="Skip the advisor game.")
    parser.add_argument("--json", type=Path, help="Write the figures here too.")
    parser.add_argument("--efficiency", type=float,
                        help="Parallel efficiency for the projection on 2+ workers (default: "
                             "the measured ratio to the trivially parallel job, at most 1).")
    args = parser.parse_args()
    figures: dict[str, Any] = {"cores": os.cpu_count(), "load": os.getloadavg()}

    # -- work per CPU second -------------------------------------------------------------------
    sample = 10 if args.quick else 20
    per_candidate = {}
    for level in ("easy", "medium", "hard"):
        job = BookJob(None, level, 0, "standard", sample)
        seconds, lines = cpu(job.run_chunk, range(sample))
        per_candidate[level] = seconds / sample
        figures[f"book_{level}"] = {"candidate_cpu_s": seconds / sample,
                                    "candidates_per_cpu_s": sample / seconds,
                                    "line_bytes": sum(len(x) + 1 for x in lines) / sample}
    quick = games_job(QUICK_CHUNK)
    seconds, lines = cpu(quick.run_chunk, range(QUICK_CHUNK))
    figures["games_greedy_random"] = {"game_cpu_s": seconds / QUICK_CHUNK,
                                      "games_per_cpu_s": QUICK_CHUNK / seconds,
                                      "line_bytes": sum(len(x) + 1 for x in lines) / len(lines)}
    if not args.no_advisor:
        advisor = games_job(1, 1, ("advisor", "greedy"))
        seconds, lines = cpu(advisor.run_chunk, range(1))
        figures["games_advisor_greedy"] = {"game_cpu_s": seconds, "games_per_cpu_s": 1 / seconds,
                                           "line_bytes": len(lines[0]) + 1}

    # -- speed-up on 2 workers, next to the trivially parallel job -------------------------------
    chunks = 8 if args.quick else 12
    work = games_job(chunks * QUICK_CHUNK)
    burn_cpu, _ = cpu(Burn(1, 2_000_000).run_chunk, range(1))
    game_chunk_cpu = figures["games_greedy_random"]["game_cpu_s"] * QUICK_CHUNK
    burn = Burn(chunks, int(2_000_000 * game_chunk_cpu / burn_cpu))  # chunks of the same size
    engines = {"1 worker": {"workers": 1}, "2 local": {"workers": 2},
               "2 Dask": {"dask": "local:2"}}
    walls: dict[str, dict[str, float]] = {}
    for name, how in engines.items():
        try:
            with open_engine(**how) as engine:
                wall_on(engine, Burn(2, 1000))  # warm: workers started, modules imported
                walls[name] = {"games": wall_on(engine, work), "burn": wall_on(engine, burn)}
                empty = Burn(200, 0)
                walls[name]["overhead_s"] = wall_on(engine, empty) / 200
        except Exception as error:  # Dask not installed: the local figures still count
            print(f"{name}: skipped ({error})")
    figures["walls"] = walls
    one = walls["1 worker"]
    for name in walls:
        if name != "1 worker":
            games_up = one["games"] / walls[name]["games"]
            burn_up = one["burn"] / walls[name]["burn"]
            walls[name].update(games_speedup=games_up, burn_speedup=burn_up,
                               ratio=games_up / burn_up)
    if "2 Dask" in walls:
        figures["dask"] = dask_start_and_memory()

    # -- projections -----------------------------------------------------------------------------
    best = walls.get("2 Dask", walls.get("2 local", {}))
    efficiency = args.efficiency or min(1.0, best.get("ratio", 1.0))
    overhead = best.get("overhead_s", 0.0)
    start = figures.get("dask", {}).get("start_s", 0.0)
    book_candidates = 10_000 * 1.05  # repeats passed over: about 1 candidate in 20 (assumed)
    rows = {
        "100,000 games greedy,random": project(
            100_000 // QUICK_CHUNK, game_chunk_cpu, efficiency, overhead, start),
        "10,000 puzzles medium": project(
            int(book_candidates / CHUNK), per_candidate["medium"] * CHUNK, efficiency,
            overhead, start),
        "10,000 puzzles hard": project(
            int(book_candidates / CHUNK), per_candidate["hard"] * CHUNK, efficiency,
            overhead, start),
    }
    if "games_advisor_greedy" in figures:
        rows["100,000 games advisor,greedy"] = project(
            100_000, figures["games_advisor_greedy"]["game_cpu_s"], efficiency, overhead, start)
    figures["projection"] = rows

    print(json.dumps(figures, indent=1, default=float))
    print("\n| job | " + " | ".join(f"{w} workers" for w in PROJECT) + " |")
    print("|---|" + "---|" * len(PROJECT))
    for name, by_workers in rows.items():
        print(f"| {name} | " + " | ".join(hours(by_workers[w]) for w in PROJECT) + " |")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1, default=float) + "\n")


if __name__ == "__main__":
    main()
