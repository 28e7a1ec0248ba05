"""How fast Ctrl-C and SIGTERM stop a command (documented: exit 130/143 within 2 s), measured
here rather than asserted in the tests (issue 53: a test's `< 2` failed at load 5-11).

Run: python benchmarks/bench_stop.py [--runs N] [--margin S]

Each case runs `castell` in a process of its own (the tests' entry point that marks when the
command has begun its solve, `tests/cli/test_interrupts.py`), sends the signal once it has,
and times signal to exit (`time.monotonic`). Reports per case the median and worst time and
how many runs took longer than `--margin` (default 2 s, the documented bound), with the load
average at the start; exit 1 when any run was over the margin or exited with another code.
The `serve` cases start `castell serve` on 127.0.0.1, ask advice on 8 games, and send the
signal once a solve has begun (`tests/web/test_serve_stop.py`'s entry point and marker).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.cli.test_interrupts import ALL_SKILLS, BAG, HANG, start, wait_ready  # noqa: E402
from tests.web import test_serve_stop as serve  # noqa: E402

SOLVE = ["best", "--pool", BAG, "--skills", ALL_SKILLS, "--engine", "search", "--time-limit",
         "600", "--json"]
PLAN = ["plan", "examples/game/round3.json", "--goal", "score", "--turns", "6", "--time-limit",
        "600", "--json"]
CASES: list[tuple[str, list[str], str, signal.Signals, int]] = [
    ("best, Ctrl-C", SOLVE, "solve", signal.SIGINT, 130),
    ("best, SIGTERM", SOLVE, "solve", signal.SIGTERM, 143),
    ("plan, Ctrl-C", PLAN, "solve", signal.SIGINT, 130),
    ("puzzle generate, Ctrl-C", ["puzzle", "generate", "--count", "5000"], "start",
     signal.SIGINT, 130),
    ("serve, 8 advice, Ctrl-C", ["serve"], "serve", signal.SIGINT, 130),
    ("serve, 8 advice, SIGTERM", ["serve"], "serve", signal.SIGTERM, 143),
]


def serve_stop(stop: signal.Signals) -> tuple[float, int]:
    """`castell serve` with advice running on 8 games: seconds from the signal to the exit,
    and the exit code."""
    with tempfile.TemporaryDirectory() as folder:
        games = Path(folder) / "games"
        games.mkdir()
        names = [f"g{i}.json" for i in range(serve.GAMES)]
        for name in names:
            shutil.copy(serve.ROUND3, games / name)
        ready, port = Path(folder) / "ready", serve.free_port()
        process = serve.serving(games, ready, port)
        try:
            serve.ask_advice(port, names)
            serve.wait_ready(process, ready)
            sent = time.monotonic()
            process.send_signal(stop)
            process.communicate(timeout=HANG)
        finally:
            if process.poll() is None:
                process.kill()
        return time.monotonic() - sent, process.returncode


def one_stop(args: list[str], at: str, stop: signal.Signals) -> tuple[float, int]:
    """Seconds from the signal to the exit, and the exit code."""
    if at == "serve":
        return serve_stop(stop)
    with tempfile.TemporaryDirectory() as folder:
        ready = Path(folder) / "ready"
        process = start(*args, ready=ready, at=at, cwd=ROOT)
        wait_ready(process, ready)
        sent = time.monotonic()
        process.send_signal(stop)
        process.communicate(timeout=HANG)
        return time.monotonic() - sent, process.returncode


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--margin", type=float, default=2.0)
    options = parser.parse_args()
    os.chdir(ROOT)
    print(f"load average {os.getloadavg()[0]:.1f}; {options.runs} runs a case; "
          f"margin {options.margin:.1f} s")
    failed = False
    for name, args, at, stop, code in CASES:
        times, codes = [], []
        for _ in range(options.runs):
            took, got = one_stop(args, at, stop)
            times.append(took)
            codes.append(got)
        over = sum(t > options.margin for t in times)
        wrong = sum(c != code for c in codes)
        failed |= bool(over or wrong)
        print(f"{name:30} median {statistics.median(times):5.2f} s  worst {max(times):5.2f} s"
              f"  over the margin {over}/{options.runs}  other exit codes {wrong}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
