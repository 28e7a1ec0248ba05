"""Probe: the festival goal's first stage on the full plan model against the lean model
(`planner.turns.lean.solve`), on the turn planner benchmark's 12 states.

Run: python benchmarks/probe_lean.py [--games 3] [--rounds 1,3,5,7] [--turns 3] [--work 8]
     [--linearization 0,1,2] [--no-full] [--no-rank-caps] [--rank-cap-vectors N] [--light]
     [--states GLOB] [--each]
     python benchmarks/probe_lean.py --whole --turns 5 --rounds 3,5 [--limit 10]

For each state (`bench_plan.py`'s: 4-player games, seeds 0..games-1, at the start of each
round; a `--turns`-turn horizon for the player to move, `auto` for `plan_turns`'s own): the
full model's goal stage (as `plan_turns` solves it: the idle hint, the goal's held dominance,
linearization 0; beyond `PlanBudget.long_horizon` turns with its short presolve and
fewer-tokens second wish) and the lean model at each linearization level (`--light`: with a
short presolve),
each on `--work` deterministic units, one worker, seed 0. `--states GLOB`: instead, the
kept states of `benchmarks/plan_states/` that match (bench_plan.py's 91), under each state's
own readings. `--each`: the lean model one festival at a time as the festival goal solves
it (`lean.best_of_each`, on `--work` units in all) in place of the levels. Prints value,
status, bound,
deterministic units (the load-independent measure) and CPU seconds; the optima must agree
wherever both are proven.

`--whole`: instead, whole `plan_turns` calls (festival goal, `--limit` seconds) with the
lean goal on long horizons off (`PlanBudget(lean_long_turns=0)`) and on (as configured; at least
the horizon): status, plan, bound, special tokens spent, goal and whole-call CPU.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.game import GameState, load_state
from models.tower import STANDARD, Rules
from planner.clock import Clock
from planner.tower import bounds
from planner.turns import DEFAULT_BUDGET, Goal, PlanBudget, build_horizon, plan_turns
from planner.turns.festival.lean import best_of_each
from planner.turns.full.model import build_plan_model
from planner.turns.full.model import hint_idle as hint_full
from planner.turns.full.stages import StageRun, solve_stages
from planner.turns.horizon import Horizon
from planner.turns.lean.model import build_lean_model, hint_idle
from planner.turns.lean.solve import solve_lean
from planner.turns.plan import auto_turns, goal_stages
from planner.turns.replay import advance_to, visible
from planner.turns.upcoming import aimed_festival
from tests.planner.turns.game_states import BOARD, played

STATES = Path(__file__).resolve().parent / "plan_states"


def probed(args: argparse.Namespace) -> list[tuple[str, GameState, Rules]]:
    """The states probed: name, state, readings (`--states`, else the seeded 4-player ones)."""
    if args.states:
        found = []
        for path in sorted(STATES.glob(args.states)):
            state = load_state(path, BOARD)
            found.append((path.stem, state, state.game_rules))
        return found
    return [(f"s{seed} r{first}", played(seed, 4, first), STANDARD)
            for seed in range(args.games) for first in (int(r) for r in args.rounds.split(","))]


def full(horizon: Horizon, work: float, budget: PlanBudget
         ) -> tuple[str, int | None, float, float, int | None]:
    cpu = time.process_time()
    plan = build_plan_model(horizon, budget=budget)
    hint_full(plan)
    long = len(horizon.turns) > budget.long_horizon
    stages = goal_stages(plan, Goal("festival"), spare_tokens=long)[:1]
    built = time.process_time() - cpu
    result, solver = solve_stages(plan.model, stages,
                                  StageRun(Clock.start(120, work), linearization=0,
                                           light_presolve=long))
    value = result.values[0] if result.values else None
    return (result.status.value, value, solver.response_proto.deterministic_time,
            result.first_cpu_s + built, result.first_bound)


def lean(horizon: Horizon, work: float, linearization: int, light: bool, budget: PlanBudget
         ) -> tuple[str, int | None, float, float, int | None]:
    cpu = time.process_time()
    model = build_lean_model(horizon, budget=budget)
    hint_idle(model)
    result, _ = solve_lean(model, work=work, time_limit=120, linearization=linearization,
                           light=light)
    return (result.status.value, result.value, result.work, time.process_time() - cpu,
            result.bound)


def each(horizon: Horizon, work: float, budget: PlanBudget
         ) -> tuple[str, int | None, float, float, int | None]:
    cpu = time.process_time()
    found = best_of_each(horizon, work=work, time_limit=120, budget=budget)
    if found is None:
        return ("none", None, 0.0, time.process_time() - cpu, None)
    result = found[0]
    return (result.status.value, result.value, result.work, time.process_time() - cpu,
            result.bound)


def whole(state: GameState, turns: int | None, limit: float, budget: PlanBudget) -> str:
    bounds.festival_cap.cache_clear()
    cpu = time.process_time()
    plan = plan_turns(state, BOARD, state.turn.player, rules=state.game_rules,
                      turns=turns, goal=Goal("festival"), time_limit=limit, budget=budget)
    cpu = time.process_time() - cpu
    tokens = next((t.value for t in plan.tie_breaks if t.name == "special tokens spent"),
                  None)
    return (f"{plan.horizon:>2} turns {plan.status.value[:4]:>4} {plan.objective!s:>3} "
            f"bound {plan.bound!s:>3} tokens {tokens!s:>2} goal {plan.goal_cpu_s:5.2f} s "
            f"call {cpu:5.2f} s{' clock' if plan.clock_hit else ''}")


def main_whole(args: argparse.Namespace, turns: int | None, budget: PlanBudget) -> None:
    configured = budget.lean_long_turns
    for name, state, _ in probed(args):
        off = whole(state, turns, args.limit, replace(budget, lean_long_turns=0))
        on = whole(state, turns, args.limit,
                   replace(budget, lean_long_turns=max(configured, turns or 0)))
        print(f"{name:>12} full: {off} | lean: {on}", flush=True)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--rounds", default="1,3,5,7")
    parser.add_argument("--work", type=float, default=8.0)
    parser.add_argument("--linearization", default="0,1,2")
    parser.add_argument("--no-full", action="store_true")
    parser.add_argument("--no-rank-caps", action="store_true",
                        help="the lean model without its festival cap per rank vector")
    parser.add_argument("--turns", default="3", help="the horizon; auto: plan_turns's own")
    parser.add_argument("--light", action="store_true",
                        help="the lean model with a short presolve (as long horizons)")
    parser.add_argument("--rank-cap-vectors", type=int,
                        default=DEFAULT_BUDGET.rank_cap_vectors)
    parser.add_argument("--whole", action="store_true",
                        help="whole plan_turns calls, the lean goal on long horizons off/on")
    parser.add_argument("--limit", type=float, default=10.0, help="--whole's time limit")
    parser.add_argument("--states", default="", help="a glob in benchmarks/plan_states")
    parser.add_argument("--each", action="store_true",
                        help="the lean model one festival at a time (best_of_each)")
    return parser


def main() -> None:
    args = _parser().parse_args()
    budget = replace(DEFAULT_BUDGET, rank_caps=not args.no_rank_caps,
                     rank_cap_vectors=args.rank_cap_vectors)
    turns = None if args.turns == "auto" else int(args.turns)
    if args.whole:
        main_whole(args, turns, budget)
        return
    levels = [] if args.each else [int(x) for x in args.linearization.split(",")]
    rows = []
    for name, state, rules in probed(args):
        row = probe_row(args, name, state, rules, turns, levels, budget)
        rows.append(row)
        print(row, flush=True)
    print()
    columns = ([] if args.no_full else ["full"]) + [f"lean{v}" for v in levels] + (
        ["each"] if args.each else [])
    print_rows(args, rows, columns, levels)
    print_summary(rows, columns)


def probe_row(args: argparse.Namespace, name: str, state: GameState, rules: Rules,
              turns: int | None, levels: list[int], budget: PlanBudget) -> dict[str, object]:
    """One state's probes: the full model's goal stage, the lean model at each level, and
    the lean model one festival at a time (as `args` asks)."""
    player = state.turn.player
    start = advance_to(visible(state), BOARD, player, rules)
    upcoming = aimed_festival(start, BOARD, player, rules)
    count = turns or auto_turns(start, BOARD, upcoming)
    horizon = build_horizon(start, BOARD, player, count, rules)
    bounds.festival_cap.cache_clear()
    row: dict[str, object] = {"state": name}
    if not args.no_full:
        row["full"] = full(horizon, args.work, budget)
    for level in levels:
        bounds.festival_cap.cache_clear()
        row[f"lean{level}"] = lean(horizon, args.work, level, args.light, budget)
    if args.each:
        bounds.festival_cap.cache_clear()
        row["each"] = each(horizon, args.work, budget)
    return row


def print_rows(args: argparse.Namespace, rows: list[dict[str, object]], columns: list[str],
               levels: list[int]) -> None:
    """A line per state: each probe's value, bound, status, units and CPU seconds; a mismatch
    between proven optima says so."""
    head = f"{'state':>12} " + ("" if args.no_full else f"{'full':>26} ") + " ".join(
        f"{'lean lin ' + str(v):>26}" for v in levels) + (f" {'each':>26}" if args.each else "")
    print(head)
    for row in rows:
        cells = [row[key] for key in columns]
        text = " ".join(f"{c[1]!s:>3} /{c[4]!s:>3} {c[0][:4]:>4} {c[2]:6.3f} u "  # type: ignore
                        f"{c[3]:6.2f} s" for c in cells)  # type: ignore[index]
        print(f"{row['state']!s:>12} {text}")
        values = {c[1] for c in cells if c[0] == "optimal"}  # type: ignore[index]
        if len(values) > 1:
            print("  MISMATCH between proven optima:", values)


def print_summary(rows: list[dict[str, object]], columns: list[str]) -> None:
    """Each probe's proofs, units and CPU seconds over every state."""
    for key in columns:
        cells = [row[key] for row in rows]
        proven = sum(c[0] == "optimal" for c in cells)  # type: ignore[index]
        print(f"{key}: proven {proven}/{len(cells)}, median units "
              f"{statistics.median(c[2] for c in cells):.3f}, max "  # type: ignore[index]
              f"{max(c[2] for c in cells):.3f}; median CPU "  # type: ignore[index]
              f"{statistics.median(c[3] for c in cells):.2f} s, max "  # type: ignore[index]
              f"{max(c[3] for c in cells):.2f} s")  # type: ignore[index]


if __name__ == "__main__":
    main()
