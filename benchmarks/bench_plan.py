"""Turn planner speed on 4-player games of the default board: 3-turn plans and whole-game plans.

Run: python benchmarks/bench_plan.py [--games N] [--out FILE] [--quick]

States: `state new` deals (4 players, seeds 0..N-1) played forward by seeded random legal
actions (recruiting favoured, no claims) to the start of rounds 1, 3, 5 and 7. For each state:
a 3-turn plan for the player to move (goal festival, one worker, seed 0, 20 s limit), timed
in CPU time (time.process_time, in-process: on the shared machine the wall clock measures the
load; the wall times are kept in the JSON): the time to prove the goal (the first stage), the
whole call
(model building, the tie-break stages, the replay through the referee, the explanations), and
the floor measured in the same run on the same state: building the horizon and the CP-SAT model
without solving it (the part no search can avoid). Then the time to a first plan (a 1 s limit:
what comes back, and when). Then, from each round-1 state, a plan to the end of the game
(10 turns) with a 10 s limit: its status, objective, bound (the optimality gap), the special
tokens it spends (a tie-break) and wall time (the limit bounds the whole call). Plans are
deterministic (a deterministic CP-SAT budget), so the statuses and values repeat; the times
depend on the machine's load. The exhaustive search is not run here: it is exponential in the
turns; the tests compare it with the planner on 1- and 2-turn horizons.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.game import GameState
from models.tower import STANDARD
from planner.tower import bounds
from planner.turns import Goal, Plan, build_horizon, plan_turns
from planner.turns import model as plan_model
from planner.turns.model import build_plan_model
from planner.turns.replay import advance_to, visible
from tests.planner.turns.game_states import BOARD, played


def cold() -> None:
    """Forget the festival caps and pre-checks (cached in the process): each call is timed as
    a fresh command would run it."""
    bounds.festival_cap.cache_clear()
    bounds.tile_in_reach.cache_clear()
    plan_model._bounded_precheck.cache_clear()


def floor_s(state: object, player: str, turns: int) -> float:
    """Building the horizon and the plan model, no solve: the planner's fixed cost (CPU)."""
    cold()
    started = time.process_time()
    start = advance_to(visible(state), BOARD, player, STANDARD)  # type: ignore[arg-type]
    build_plan_model(build_horizon(start, BOARD, player, turns, STANDARD))
    return time.process_time() - started


def timed(state: GameState, turns: int, limit: float) -> tuple[Plan, float]:
    """A cold plan for the player to move, goal festival, and its CPU time."""
    cold()
    started = time.process_time()
    plan = plan_turns(state, BOARD, state.turn.player, rules=state.game_rules,
                      turns=turns, goal=Goal("festival"),
                      time_limit=limit)
    return plan, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--rounds", default="1,3,5,7")
    parser.add_argument("--out", default="benchmarks/results/plan.json")
    parser.add_argument("--quick", action="store_true", help="2 games, rounds 1 and 3")
    args = parser.parse_args()
    games = 2 if args.quick else args.games
    rounds = [1, 3] if args.quick else [int(r) for r in args.rounds.split(",")]
    console = Console()

    short = []
    for seed in range(games):
        for first in rounds:
            state = played(seed, 4, first)
            floor = floor_s(state, state.turn.player, 3)
            plan, cpu = timed(state, 3, 20)
            quick, quick_cpu = timed(state, 3, 1)
            row = {"seed": seed, "round": state.round, "status": plan.status.value,
                   "objective": plan.objective, "bound": plan.bound,
                   "goal_s": round(plan.goal_cpu_s, 3), "total_s": round(cpu, 3),
                   "goal_wall_s": round(plan.goal_time_s, 3),
                   "total_wall_s": round(plan.wall_time_s, 3),
                   "floor_s": round(floor, 3), "clock_hit": plan.clock_hit,
                   "first_plan_s": round(quick_cpu, 3),
                   "first_plan_wall_s": round(quick.wall_time_s, 3),
                   "first_plan_objective": quick.objective}
            short.append(row)
            console.print(row)
    whole = []
    for seed in range(games):
        plan, cpu = timed(played(seed, 4, 1), 10, 10)
        gap = None if plan.bound is None or plan.objective is None else plan.bound - plan.objective
        tokens = next((t.value for t in plan.tie_breaks if t.name == "special tokens spent"),
                      None)
        row = {"seed": seed, "status": plan.status.value, "objective": plan.objective,
               "bound": plan.bound, "gap": gap, "tokens": tokens,
               "goal_s": round(plan.goal_cpu_s, 3), "total_s": round(cpu, 3),
               "total_wall_s": round(plan.wall_time_s, 3), "clock_hit": plan.clock_hit}
        whole.append(row)
        console.print(row)

    table = Table(title="3-turn plans, 4 players, goal festival, 1 worker, 20 s limit (CPU s)")
    for column in ("round", "plans", "proven", "median goal s", "max goal s", "median total s",
                   "max total s", "median floor s", "total / floor", "first plan s"):
        table.add_column(column, justify="right")
    groups = [(str(first), [r for r in short if r["round"] == first]) for first in rounds]
    for name, rows in [*groups, ("all", short)]:
        table.add_row(name, str(len(rows)), str(sum(r["status"] == "optimal" for r in rows)),
                      f"{statistics.median(r['goal_s'] for r in rows):.2f}",
                      f"{max(r['goal_s'] for r in rows):.2f}",
                      f"{statistics.median(r['total_s'] for r in rows):.2f}",
                      f"{max(r['total_s'] for r in rows):.2f}",
                      f"{statistics.median(r['floor_s'] for r in rows):.2f}",
                      f"{statistics.median(r['total_s'] / r['floor_s'] for r in rows):.1f}",
                      f"{statistics.median(r['first_plan_s'] for r in rows):.2f}")
    console.print(table)
    table = Table(title="10-turn plans from round 1, 10 s limit, 1 worker (goal, total: CPU)")
    columns = ("seed", "status", "objective", "bound", "gap", "tokens", "goal_s", "total_s",
               "total_wall_s", "clock_hit")
    for column in columns:
        table.add_column(column.replace("_s", " s").replace("_", " "), justify="right")
    for r in whole:
        table.add_row(*(str(r[c]) for c in columns))
    console.print(table)

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"machine": platform.processor() or platform.machine(),
                               "python": platform.python_version(),
                               "load_average": os.getloadavg(), "three_turns": short,
                               "whole_game": whole}, indent=2) + "\n", encoding="utf-8")
    console.print(f"wrote {out}")


if __name__ == "__main__":
    main()
