"""Turn planner proofs at the CLI's default limit, on the benchmark's kept states (issue 23).

Run: python benchmarks/bench_plan.py [--set kept|heldout|both] [--quick] [--states GLOB]
                                     [--no-long] [--out FILE]

States: `benchmarks/plan_states/*.json` (91 files: 2, 3 and 4 players, rounds 1-10, and
examples/game/round3.json; written once by make_plan_states.py, never regenerated, so that
figures from different sessions compare). For each state a plan for the player to move, under
the state's own readings, as `castell plan` makes it: `DEFAULT_PLAN_TIME_LIMIT`, one worker,
CP-SAT seed 0, each call cold (the festival caps' and pre-checks' in-process caches cleared).
Per goal (festival, score) and horizon (1, 2, 3 turns and the default horizon `turns=None`;
festival also 10 turns unless `--no-long`): the proven share, the gaps (bound - objective) of
the plans left unproven, and the median and worst CPU time of the whole call
(`time.process_time`, in process: on a shared machine the wall clock measures the load; the
wall times are kept in the JSON). Plans are deterministic (deterministic CP-SAT budgets), so
the statuses and values repeat on any machine where no wall clock stops a solve (`clock_hit`);
the times depend on the machine. So that runs on different days compare, each run first
measures the machine (`calibrate`): the CPU seconds one deterministic unit of CP-SAT's work
takes on the lean score model and on the full plan model's score stage (fixed solves of
examples/game/round3.json over 3 turns), written to the JSON and printed.
`--quick`: every fifth state (18 states), festival and score on 1-3 turns and the default.
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

from models.files import write_atomic
from models.game import load_board, load_state
from planner.clock import Clock
from planner.stopping import time_limited
from planner.tower import bounds
from planner.turns import DEFAULT_PLAN_TIME_LIMIT, Goal, PlanRequest, build_horizon, plan
from planner.turns.full import model as plan_model
from planner.turns.full.stages import StageRun, solve_stages
from planner.turns.lean import model as plan_lean
from planner.turns.plan import goal_stages
from planner.turns.replay import advance_to, visible
from planner.turns.score.lean import lean_score

STATES = Path(__file__).resolve().parent / "plan_states"
# never used to choose a budget (`make_plan_states.py --set heldout`): the figures on them say
# how the tuning holds away from the states it was fitted to (issue 34)
HELDOUT = Path(__file__).resolve().parent / "heldout_states"
SETS = {"kept": (STATES,), "heldout": (HELDOUT,), "both": (STATES, HELDOUT)}
LONG = 10


def cold() -> None:
    """Forget the festival caps, pre-checks and turn walks (cached in the process): each call
    is timed as a fresh command would run it."""
    bounds.festival_cap.cache_clear()
    bounds.tile_in_reach.cache_clear()
    plan_model._bounded_precheck.cache_clear()
    plan_lean._walks.cache_clear()


def run(path: Path, goal: str, turns: int | None) -> dict[str, object]:
    """One cold plan for the player to move, as `castell plan` makes it, and its figures."""
    board = load_board()
    state = load_state(path, board)
    cold()
    cpu, wall = time.process_time(), time.perf_counter()
    # as `service.castell.plans.plan` asks it (`planner.turns.plan`): the default horizon goes
    # on past a festival proven out of reach, all within the one limit
    request = PlanRequest(state, board, state.turn.player, state.game_rules, goal=Goal(goal),
                          turns=turns)
    with time_limited(DEFAULT_PLAN_TIME_LIMIT):
        found = plan(request, Clock.start(DEFAULT_PLAN_TIME_LIMIT)).plan
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    gap = (None if found.bound is None or found.objective is None
           else found.bound - found.objective)
    return {"state": path.stem, "set": path.parent.name, "goal": goal, "turns": turns,
            "horizon": found.horizon,
            "status": found.status.value, "objective": found.objective, "bound": found.bound,
            "gap": gap, "cpu_s": round(cpu, 3), "wall_s": round(wall, 3),
            "goal_cpu_s": round(found.goal_cpu_s, 3), "clock_hit": found.clock_hit}


CALIBRATION = Path(__file__).resolve().parent.parent / "examples/game/round3.json"
CALIBRATION_WORK = 1.0  # deterministic units of each calibration solve


def calibrate() -> dict[str, float]:
    """CPU seconds per deterministic unit on this machine, now: the lean score model and the
    full plan model's score stage of `CALIBRATION` over 3 turns, each on `CALIBRATION_WORK`
    units (a ratio of the CPU to the units each spent, whether or not it proved first; the
    lean one's time counts the building of its model, as `lean_score` measures it, the full
    model's does not). Each gets a plan model of its own: the full model's solve changes its
    model's objective and hint."""
    board = load_board()
    state = load_state(CALIBRATION, board)
    player, rules = state.turn.player, state.game_rules
    start = advance_to(visible(state), board, player, rules)
    cold()
    seconds: dict[str, float] = {}
    horizon = build_horizon(start, board, player, 3, rules)
    plan = plan_model.build_plan_model(horizon)
    cpu = time.process_time()
    lean = lean_score(plan, work=CALIBRATION_WORK, time_limit=120).result
    seconds["lean_score_s_per_unit"] = round((time.process_time() - cpu) / lean.work, 3)
    plan = plan_model.build_plan_model(horizon)
    plan_model.hint_idle(plan)
    cpu = time.process_time()
    _, solver = solve_stages(plan.model, goal_stages(plan, Goal("score"))[:1],
                             StageRun(Clock.start(120, CALIBRATION_WORK), linearization=0))
    seconds["full_model_s_per_unit"] = round(
        (time.process_time() - cpu) / solver.response_proto.deterministic_time, 3)
    return seconds


def summary(rows: list[dict[str, object]]) -> list[str]:
    """Plans, proven share, gaps of the unproven, median and worst CPU s."""
    proven = sum(r["status"] == "optimal" for r in rows)
    gaps = sorted((r["gap"] for r in rows if r["status"] != "optimal"),
                  key=lambda g: -1 if g is None else g)  # type: ignore[operator]
    cpu = [float(r["cpu_s"]) for r in rows]  # type: ignore[arg-type]
    return [str(len(rows)), f"{proven} ({100 * proven / len(rows):.0f}%)",
            ", ".join("?" if g is None else str(g) for g in gaps) or "-",
            f"{statistics.median(cpu):.2f}", f"{max(cpu):.2f}"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), default="kept",
                        help="the kept states (tuned on), the held-out ones, or both")
    parser.add_argument("--states", default="*.json", help="a glob in the set's folders")
    parser.add_argument("--quick", action="store_true", help="every fifth state, no 10 turns")
    parser.add_argument("--no-long", action="store_true", help="skip the 10-turn plans")
    parser.add_argument("--goals", default="festival,score")
    parser.add_argument("--horizons", default="1,2,3,default",
                        help="turns, comma-separated ('default': turns=None)")
    parser.add_argument("--out", default="benchmarks/results/plan.json")
    return parser


def main() -> None:
    args = _parser().parse_args()
    paths = [path for folder in SETS[args.set] for path in sorted(folder.glob(args.states))]
    if args.quick:
        paths = paths[::5]
    if not paths:
        raise SystemExit(f"no state matches {args.states} in the {args.set} set")
    console = Console()
    cases = _cases(args)
    loads = [os.getloadavg()]
    speed = calibrate()
    console.print(f"this machine: {speed}")
    rows = []
    for goal, turns in cases:
        for path in paths:
            row = run(path, goal, turns)
            rows.append(row)
            console.print(row)
        loads.append(os.getloadavg())
    console.print(_table(args, cases, rows))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, json.dumps({"machine": platform.processor() or platform.machine(),
                                  "cpus": os.cpu_count(), "python": platform.python_version(),
                                  "load_averages": loads, "time_limit": DEFAULT_PLAN_TIME_LIMIT,
                                  "cpu_s_per_unit": speed, "plans": rows}, indent=2) + "\n")
    console.print(f"wrote {out}")


def _cases(args: argparse.Namespace) -> list[tuple[str, int | None]]:
    """(goal, turns) of each plan asked: every goal at every horizon, and the festival goal's
    long horizon unless `--quick` or `--no-long`."""
    cases: list[tuple[str, int | None]] = []
    for goal in args.goals.split(","):
        cases += [(goal, None if h == "default" else int(h))
                  for h in args.horizons.split(",")]
        if goal == "festival" and not (args.quick or args.no_long or (goal, LONG) in cases):
            cases.append((goal, LONG))
    return cases


def _table(args: argparse.Namespace, cases: list[tuple[str, int | None]],
           rows: list[dict[str, object]]) -> Table:
    """A line per set, goal and horizon: `summary`'s columns."""
    table = Table(title=f"turn plans at the default limit ({DEFAULT_PLAN_TIME_LIMIT:g} s), "
                        "1 worker, seed 0 (CPU s of the whole call)")
    for column in ("goal", "turns", "plans", "proven", "gaps of the unproven", "median s",
                   "worst s"):
        table.add_column(column, justify="right")
    table.add_column("set")
    for folder in SETS[args.set]:
        for goal, turns in cases:
            group = [r for r in rows if r["goal"] == goal and r["turns"] == turns
                     and r["set"] == folder.name]
            if group:
                table.add_row(goal, "default" if turns is None else str(turns),
                              *summary(group), folder.name)
    return table


if __name__ == "__main__":
    main()
