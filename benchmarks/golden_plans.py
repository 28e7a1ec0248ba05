"""The turn planner's golden master: every plan of the benchmark's kept states, recorded once
before a refactor of the planner and compared after it (issue 34).

Run: python benchmarks/golden_plans.py record [--jobs 2]   (writes the master)
     python benchmarks/golden_plans.py check [--jobs 2] [--every N] [--slack S]   (compares,
     exit 1 on a difference)

For each of `benchmarks/plan_states/*.json`, a plan for the player to move as `castell plan`
makes it (`planner.turns.plan`, under the state's own readings, one worker, CP-SAT seed 0, each
call cold), per goal (festival, score) and horizon (1, 2, 3 turns and the default horizon): its
goal, horizon, status, objective, bound and actions. Plans are deterministic where no wall
clock stopped a solve (`clock_hit`, recorded too): the master was recorded on a quiet machine
(2026-12-03, before the planner's refactor into goal strategies and one budget), and a plan
whose clock hit is left out of the comparison. `check` gives the wall clock `--slack` times
the limit (`PlanBudget.wall_slack`, default 5) so that a loaded machine answers as a quiet one.
The test suite compares a sample (`tests/planner/turns/test_golden_master.py`); this script
compares all of them (about 10 minutes on two quiet cores).
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.game import format_action, load_board, load_state
from planner.clock import Clock
from planner.tower import bounds
from planner.turns import DEFAULT_PLAN_TIME_LIMIT, Goal, PlanBudget, PlanRequest, plan

STATES = Path(__file__).resolve().parent / "plan_states"
MASTER = (Path(__file__).resolve().parent.parent
          / "tests/planner/turns/data/golden_plans.json")
GOALS = ("festival", "score")
HORIZONS: tuple[int | None, ...] = (1, 2, 3, None)


def cold() -> None:
    """Forget the in-process caches, so that each plan is made as a fresh command makes it."""
    from planner.turns.full import model
    from planner.turns.lean import model as lean_model
    bounds.festival_cap.cache_clear()
    bounds.tile_in_reach.cache_clear()
    model._bounded_precheck.cache_clear()
    lean_model._walks.cache_clear()


def golden(state_name: str, goal: str, turns: int | None, slack: float = 1.0,
           time_limit: float = DEFAULT_PLAN_TIME_LIMIT) -> dict[str, object]:
    """One plan, as the master keeps it (the wall clock `slack` times the limit)."""
    board = load_board()
    state = load_state(STATES / f"{state_name}.json", board)
    budget = PlanBudget(wall_slack=slack)
    cold()
    # the wall clock `budget.wall(time_limit)`: the goal's answer sets it (`GoalStrategy`)
    request = PlanRequest(state, board, state.turn.player, state.game_rules, goal=Goal(goal),
                          turns=turns, budget=budget)
    found = plan(request, Clock.start(time_limit)).plan
    return {"state": state_name, "goal": goal, "turns": turns, "horizon": found.horizon,
            "status": found.status.value, "objective": found.objective, "bound": found.bound,
            "actions": [[format_action(a, board) for a in turn.actions] for turn in found.turns],
            "clock_hit": found.clock_hit}


def cases(every: int = 1) -> list[tuple[str, str, int | None]]:
    """Every (state, goal, horizon) of the master, or every `every`-th state's."""
    names = sorted(p.stem for p in STATES.glob("*.json"))[::every]
    return [(name, goal, turns) for goal in GOALS for turns in HORIZONS for name in names]


def _run(case: tuple[str, str, int | None, float]) -> dict[str, object]:
    return golden(*case)


def compare(expected: dict[str, object], got: dict[str, object]) -> list[str]:
    """The fields in which a plan differs from the master's (none when either met the clock)."""
    if expected["clock_hit"] or got["clock_hit"]:
        return []
    return [key for key in ("horizon", "status", "objective", "bound", "actions")
            if expected[key] != got[key]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("record", "check"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--every", type=int, default=1, help="every N-th state only")
    parser.add_argument("--slack", type=float, default=5.0,
                        help="check: the wall clock as a multiple of the limit")
    args = parser.parse_args()
    slack = 1.0 if args.mode == "record" else args.slack
    todo = [(*case, slack) for case in cases(args.every)]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(_run, todo, chunksize=1))
    if args.mode == "record":
        MASTER.parent.mkdir(parents=True, exist_ok=True)
        MASTER.write_text(json.dumps({"time_limit": DEFAULT_PLAN_TIME_LIMIT, "plans": rows},
                                     indent=1) + "\n", encoding="utf-8")
        hit = sum(bool(r["clock_hit"]) for r in rows)
        print(f"recorded {len(rows)} plans in {MASTER} ({hit} met the wall clock)")
        return
    master = {(r["state"], r["goal"], r["turns"]): r
              for r in json.loads(MASTER.read_text(encoding="utf-8"))["plans"]}
    differ = 0
    for row in rows:
        fields = compare(master[(row["state"], row["goal"], row["turns"])], row)
        if fields:
            differ += 1
            print(f"{row['state']} {row['goal']} {row['turns']}: {', '.join(fields)} differ")
    print(f"{len(rows) - differ} of {len(rows)} plans as the master has them")
    raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
