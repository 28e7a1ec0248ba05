"""The turn planner at the table (issue 23, items 1, 4 and 6), on every benchmark state.

Run: python benchmarks/bench_table.py [--every K] [--offset I] [--out FILE]

For each state of `benchmarks/plan_states/` (kept as files, not regenerated): the plain
`castell plan STATE` (the player to move, the default horizon and time limit, goal festival)
through `planner.turns.plan_ahead`, as the service asks it. Reports per state: the status,
best festival score, horizon, how many plans the default horizon took (a plan proven to reach
no festival tower goes on to the next festival within reach), the festival named as the next
one the player could compete in, the forecast's rivals, CPU time (time.process_time); and
checks each plan with `tests/planner/turns/plan_checks.py`: the named festival (item 1) and
the moves' explanations (item 6). Exit 1 when a check fails. Also counts, for comparison, the
states where the plan's first horizon alone ends at best score 0 while naming a festival of
that horizon (the issue's measure, the behaviour before item 1).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from planner.turns import plan_ahead
from service.castell import Game
from tests.planner.turns.plan_checks import (
    explanation_problems,
    named_festival_problems,
)

STATES = Path(__file__).resolve().parent / "plan_states"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--every", type=int, default=1, help="one state in K")
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="JSON Lines, one per state")
    args = parser.parse_args()
    files = sorted(STATES.glob("*.json"))[args.offset::args.every]
    rows, failed = [], 0
    for path in files:
        game = Game.load(path)
        started = time.process_time()
        found = plan_ahead(game.position(), game.board, game.state.turn.player,
                           rules=game.rules)
        cpu = time.process_time() - started
        plan = found.plan
        problems = named_festival_problems(found) + explanation_problems(plan, game.board)
        failed += bool(problems)
        named = found.next_festival
        row = {"state": path.name, "status": plan.status.value, "objective": plan.objective,
               "horizon": plan.horizon, "named": None if named is None else named.round,
               "untried": None if found.untried is None else found.untried.round,
               "out_of_reach": [[a.space.round, a.out_of_reach] for a in found.ahead
                                if not a.within_reach],
               "rivals": [[f.round, [(r.name, r.score_now, r.score_bound) for r in f.rivals]]
                          for f in found.forecasts],
               "cpu_s": round(cpu, 2), "problems": problems}
        rows.append(row)
        print(json.dumps(row, ensure_ascii=False), flush=True)
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    zero = sum(1 for r in rows if not r["objective"])
    print(f"states {len(rows)}; checks failed on {failed}; best festival score 0 on {zero}; "
          f"proven {sum(r['status'] == 'optimal' for r in rows)}; CPU median "
          f"{statistics.median(r['cpu_s'] for r in rows):.2f} s, worst "
          f"{max(r['cpu_s'] for r in rows):.2f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
