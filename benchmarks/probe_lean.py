"""Probe: the festival goal's first stage on the full plan model against the lean model
(`planner.turns.lean`), on the turn planner benchmark's 12 states.

Run: python benchmarks/probe_lean.py [--games 3] [--rounds 1,3,5,7] [--work 8]
     [--linearization 0,1,2] [--no-full] [--no-rank-caps]

For each state (`bench_plan.py`'s: 4-player games, seeds 0..games-1, at the start of each
round; a 3-turn horizon for the player to move): the full model's goal stage (as `plan_turns`
solves it: the idle hint, the goal's held dominance, linearization 0) and the lean model at
each linearization level, each on `--work` deterministic units, one worker, seed 0. Prints
value, status, deterministic units (the load-independent measure) and CPU seconds; the optima
must agree wherever both are proven.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.tower import STANDARD
from planner.tower import bounds
from planner.turns import Goal, build_horizon
from planner.turns import lean as lean_model
from planner.turns.goals import goal_stages
from planner.turns.lean import build_lean_model, hint_idle, solve_lean
from planner.turns.model import build_plan_model
from planner.turns.model import hint_idle as hint_full
from planner.turns.replay import advance_to, visible
from planner.turns.stages import solve_stages
from tests.planner.turns.game_states import BOARD, played


def full(horizon: object, work: float) -> tuple[str, int | None, float, float]:
    cpu = time.process_time()
    plan = build_plan_model(horizon)  # type: ignore[arg-type]
    hint_full(plan)
    stages = goal_stages(plan, Goal("festival"))[:1]
    built = time.process_time() - cpu
    result, solver = solve_stages(plan.model, stages, time_limit=120, linearization=0,
                                  work=work)
    value = result.values[0] if result.values else None
    return (result.status.value, value, solver.response_proto.deterministic_time,
            result.first_cpu_s + built)


def lean(horizon: object, work: float, linearization: int
         ) -> tuple[str, int | None, float, float, int | None]:
    cpu = time.process_time()
    model = build_lean_model(horizon)  # type: ignore[arg-type]
    hint_idle(model)
    result, _ = solve_lean(model, work=work, time_limit=120, linearization=linearization)
    return (result.status.value, result.value, result.work, time.process_time() - cpu,
            result.bound)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--rounds", default="1,3,5,7")
    parser.add_argument("--work", type=float, default=8.0)
    parser.add_argument("--linearization", default="0,1,2")
    parser.add_argument("--no-full", action="store_true")
    parser.add_argument("--no-rank-caps", action="store_true",
                        help="the lean model without its festival cap per rank vector")
    args = parser.parse_args()
    lean_model.RANK_CAPS = not args.no_rank_caps
    levels = [int(x) for x in args.linearization.split(",")]
    rows = []
    for seed in range(args.games):
        for first in (int(r) for r in args.rounds.split(",")):
            state = played(seed, 4, first)
            player = state.turn.player
            start = advance_to(visible(state), BOARD, player, STANDARD)
            horizon = build_horizon(start, BOARD, player, 3, STANDARD)
            bounds.festival_cap.cache_clear()
            row: dict[str, object] = {"seed": seed, "round": first}
            if not args.no_full:
                row["full"] = full(horizon, args.work)
            for level in levels:
                bounds.festival_cap.cache_clear()
                row[f"lean{level}"] = lean(horizon, args.work, level)
            rows.append(row)
            print(row, flush=True)
    print()
    head = f"{'state':>10} " + ("" if args.no_full else f"{'full':>26} ") + " ".join(
        f"{'lean lin ' + str(v):>26}" for v in levels)
    print(head)
    for row in rows:
        cells = [] if args.no_full else [row["full"]]
        cells += [row[f"lean{v}"] for v in levels]
        text = " ".join(f"{c[1]!s:>3} {c[0][:4]:>4} {c[2]:6.3f} u {c[3]:6.2f} s"  # type: ignore
                        for c in cells)
        print(f"s{row['seed']} r{row['round']:<6} {text}")
        values = {c[1] for c in cells if c[0] == "optimal"}  # type: ignore[index]
        if len(values) > 1:
            print("  MISMATCH between proven optima:", values)
    for key in ([] if args.no_full else ["full"]) + [f"lean{v}" for v in levels]:
        cells = [row[key] for row in rows]
        proven = sum(c[0] == "optimal" for c in cells)  # type: ignore[index]
        print(f"{key}: proven {proven}/{len(cells)}, median units "
              f"{statistics.median(c[2] for c in cells):.3f}, max "  # type: ignore[index]
              f"{max(c[2] for c in cells):.3f}; median CPU "  # type: ignore[index]
              f"{statistics.median(c[3] for c in cells):.2f} s, max "  # type: ignore[index]
              f"{max(c[3] for c in cells):.2f} s")  # type: ignore[index]


if __name__ == "__main__":
    main()
