"""Probe: the score goal on the lean score model (`planner.turns.score.lean`) against the full
plan model's score stage, on kept states of the turn planner benchmark.

Run: python benchmarks/probe_lean_score.py [--states GLOB] [--turns 1,2,3] [--work 4]
     [--full-work 6] [--linearization 1] [--off SWITCH,...]

For each state (`benchmarks/plan_states/`, the player to move, the state's readings) and
horizon: the lean score model's value, status, bound, deterministic units and CPU; and the
full model's score stage as `plan_turns` solves it (the idle hint, linearization 0) on
`--full-work` units, its value and bound. The lean bound must never be below a value the full
model finds (it is a relaxation); a lean value above the full model's is a plan to look for.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.game import load_board, load_state
from planner.clock import Clock
from planner.tower import bounds
from planner.turns import DEFAULT_BUDGET, Goal, PlanBudget, build_horizon
from planner.turns.full.model import build_plan_model, hint_idle
from planner.turns.full.stages import StageRun, solve_stages
from planner.turns.plan import goal_stages
from planner.turns.replay import advance_to, visible
from planner.turns.score.caps import score_cap
from planner.turns.score.lean import lean_score

STATES = Path(__file__).resolve().parent / "plan_states"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", default="*-r05.json")
    parser.add_argument("--turns", default="3")
    parser.add_argument("--work", type=float, default=4.0)
    parser.add_argument("--full-work", type=float, default=0.0, help="0: no full model")
    parser.add_argument("--linearization", type=int, default=0)
    parser.add_argument("--off", default="",
                        help="the budget's switches off, comma-separated (e.g. "
                             "train_where_visited,tile_castellers)")
    args = parser.parse_args()
    budget: PlanBudget = replace(DEFAULT_BUDGET,
                                 **{name: False for name in filter(None, args.off.split(","))})
    board = load_board()
    for path in sorted(STATES.glob(args.states)):
        state = load_state(path, board)
        player, rules = state.turn.player, state.game_rules
        start = advance_to(visible(state), board, player, rules)
        for turns in (int(t) for t in args.turns.split(",")):
            bounds.festival_cap.cache_clear()
            horizon = build_horizon(start, board, player, turns, rules)
            plan = build_plan_model(horizon, budget=budget)
            cpu = time.process_time()
            got = lean_score(plan, work=args.work, time_limit=120,
                             linearization=args.linearization)
            r = got.result
            line = (f"{path.stem:>14} {turns}t cap {score_cap(plan):>3} lean {r.status.value[:4]}"
                    f" {r.value!s:>3} bound {r.bound!s:>3} {r.work:5.2f} u "
                    f"{time.process_time() - cpu:5.2f} s")
            if args.full_work:
                hint_idle(plan)
                stages = goal_stages(plan, Goal("score"))[:1]
                result, _ = solve_stages(plan.model, stages,
                                         StageRun(Clock.start(120, args.full_work),
                                                  linearization=0))
                value = result.values[0] if result.values else None
                line += f" | full {result.status.value[:4]} {value!s:>3} bound {result.first_bound}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
