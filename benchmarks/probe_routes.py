"""Would a search over the pawn's routes prove 3-turn festival plans faster? A measurement.

Run: python benchmarks/probe_routes.py [--sample N]

For the 3-turn states the planner leaves unproven in `bench_plan.py` (4 players, seed 0 and 1
at round 1, seed 2 at round 7; goal festival), with the incumbent the planner's own plan
(20 s limit: 2.4 deterministic units for the goal):

1. the pawn's route skeletons, turn by turn: per turn, up to three moves (the Move, a paid
   special move while tokens last, the free move after a special tile offered on the way), and
   what the festival can use of a route: the regions it passes (recruits) and the skills offered
   there (trainings). A route group is (festival, regions passed through its turn, skills
   offered, counted per turn) for routes ending the festival's turn in its region;
2. each group's optimistic bound by the tower DP (`planner.tower.bounds.festival_cap`, a budget
   in DP states): the team plus every casteller of the regions passed (at most what the horizon
   holds of each size), the ranks plus one for every turn a skill is offered on the route. A
   superset of every team the group's routes can have ("a free recruit never hurts"), so the
   bound is valid; groups at or below the incumbent are pruned;
3. a fixed-seed sample of the groups left, each solved by the planner's CP-SAT goal stage with
   the pawn kept to the group's regions up to the festival and asked to beat the incumbent
   (infeasible proves the group): the deterministic work one surviving group costs.

The figures are in the README ("Turn planner", under Speed).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.game import SPECIAL, FestivalSpace, RegionGraph
from models.tower import STANDARD, Pool, Skill
from planner.clock import Clock
from planner.tower.bounds import festival_cap
from planner.turns import Goal, build_horizon, plan_turns
from planner.turns.full.model import OFF, STOPS, build_plan_model, hint_idle
from planner.turns.full.stages import StageRun, solve_stages
from planner.turns.horizon import Horizon, TurnSlot
from planner.turns.plan import goal_stages
from planner.turns.replay import advance_to, visible
from tests.planner.turns.game_states import BOARD, played

UNPROVEN = ((0, 1), (1, 1), (2, 7))  # (seed, round): bench_plan.py's unproven 3-turn states
# (end region, regions passed, skills offered on the way, a paid special move taken)
TurnRoute = tuple[str | None, frozenset[str], frozenset[str], bool]
# (end region, regions passed so far, skills offered per turn, tokens spent)
Route = tuple[str | None, frozenset[str], tuple[frozenset[str], ...], int]


def turn_routes(graph: RegionGraph, horizon: Horizon, start: str | None, slot: TurnSlot,
                tokens: int) -> set[TurnRoute]:
    """Every way one turn can take the pawn: up to a Move, a paid special move (a token) and
    the free move of a special tile offered where the pawn stood before it, in any order."""
    found: set[TurnRoute] = set()

    def walk(here: str | None, passed: frozenset[str], normal: bool, paid: bool, free: bool,
             special: bool) -> None:
        skills = frozenset(k for k, where in slot.offered.items()
                           if k != SPECIAL and passed & set(where))
        found.add((here, passed, skills, can_pay and not paid))
        special = special or (here is not None and here in slot.offered.get(SPECIAL, ()))
        for to in horizon.regions if here is None else graph.neighbours(here):
            for left in ((False, paid, free) if normal else (),
                         (normal, False, free) if paid else (),
                         (normal, paid, False) if free and special else ()):
                if left:
                    walk(to, passed | {to}, *left, special)

    can_pay = slot.can_special and tokens > 0
    walk(start, frozenset({start} if start else ()), slot.can_move, can_pay, slot.can_train,
         False)
    return found


def routes_by_turn(horizon: Horizon) -> list[set[Route]]:
    graph, me = RegionGraph(horizon.board), horizon.me
    routes: set[Route] = {(me.pawn, frozenset({me.pawn} if me.pawn else ()), (), 0)}
    by_turn = []
    for slot in horizon.turns:
        grown: set[Route] = set()
        steps: dict[tuple[str | None, int], set[TurnRoute]] = {}
        for end, passed, skills, spent in routes:
            key = (end, me.special_tokens - spent)
            if key not in steps:
                steps[key] = turn_routes(graph, horizon, end, slot, key[1])
            for to, more, offered, paid in steps[key]:
                grown.add((to, passed | more, (*skills, offered), spent + paid))
        routes = grown
        by_turn.append(routes)
    return by_turn


Group = tuple[int, frozenset[str], tuple[tuple[str, int], ...]]


def groups(horizon: Horizon, by_turn: list[set[Route]]) -> dict[Group, FestivalSpace]:
    """Route groups: what a festival can use of a route (see the module's docstring)."""
    found: dict[Group, FestivalSpace] = {}
    for t, space in horizon.festivals:
        for end, passed, skills, _ in by_turn[t]:
            if end == space.region:
                counted = Counter(k for offered in skills for k in offered)
                found[t, passed, tuple(sorted(counted.items()))] = space
    return found


def bound(horizon: Horizon, group: Group, space: FestivalSpace) -> int:
    t, passed, skills = group
    team, upper = horizon.me.team.counts(), horizon.upper_pool(t + 1).counts()
    counts = {z: min(team.get(z, 0) + sum(horizon.supply[g].count(z) for g in passed),
                     upper.get(z, 0)) for z in set(team) | set(upper)}
    ranks = horizon.me.ranks
    for skill, times in skills:
        ranks = ranks.plus(Skill(skill), times)
    return festival_cap(space.festival, Pool.from_counts(counts), ranks, STANDARD) or 0


def group_work(horizon: Horizon, group: Group, incumbent: int) -> tuple[str, float]:
    """The planner's goal stage with the pawn kept to the group's regions, asked to beat the
    incumbent: its status and deterministic work."""
    plan = build_plan_model(horizon)
    hint_idle(plan)
    stages = goal_stages(plan, Goal("festival"))
    t, passed, _ = group
    for i in range((t + 1) * STOPS):
        for g, var in plan.at[i].items():
            if g not in passed and g != OFF:
                plan.model.add(var == 0)
    plan.model.add(stages[0].expr >= incumbent + 1)
    result, solver = solve_stages(plan.model, stages[:1],
                                  StageRun(Clock.start(60, 2.4), linearization=0))
    return result.status.value, solver.response_proto.deterministic_time


def median(values: Iterable[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=12, help="surviving groups solved")
    args = parser.parse_args()
    for seed, round_ in UNPROVEN:
        state = played(seed, 4, round_)
        player = state.turn.player
        incumbent = plan_turns(state, BOARD, player, rules=state.game_rules,
                      turns=3, goal=Goal("festival"),
                               time_limit=20).objective or 0
        start = advance_to(visible(state), BOARD, player, STANDARD)
        horizon = build_horizon(start, BOARD, player, 3, STANDARD)
        cpu = time.process_time()
        by_turn = routes_by_turn(horizon)
        found = groups(horizon, by_turn)
        left = [g for g, space in found.items() if bound(horizon, g, space) > incumbent]
        bounds_s = time.process_time() - cpu
        print(f"seed {seed} round {round_}: incumbent {incumbent}; route states per turn "
              f"{[len(r) for r in by_turn]}; {len(found)} groups, {len(found) - len(left)} "
              f"pruned by the DP bound, {len(left)} left ({bounds_s:.1f} s CPU)", flush=True)
        sample = random.Random(0).sample(left, min(args.sample, len(left)))
        solved = [group_work(horizon, g, incumbent) for g in sample]
        print(f"  {len(sample)} groups left, solved: {dict(Counter(s for s, _ in solved))}; "
              f"work median {median(w for _, w in solved):.2f} units, max "
              f"{max((w for _, w in solved), default=0):.2f}", flush=True)


if __name__ == "__main__":
    main()
