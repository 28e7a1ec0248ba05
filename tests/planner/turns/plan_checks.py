"""Checks of a plan at the table, shared by the tests and `benchmarks/bench_table.py` (every
benchmark state): the festival it names as the next one the player could compete in, and its
moves' explanations. Each returns the problems found (none: an empty list)."""

from __future__ import annotations

from models.game import Board, Move, Special
from planner.tower import Status
from planner.turns import Plan, PlanResult, goal_strategy


def _last_round(plan: Plan) -> int:
    return plan.start.round + plan.horizon - 1


def named_festival_problems(found: PlanResult, default_horizon: bool = True) -> list[str]:
    """Item 1: the plan never names, as the next festival the player could compete in, one
    it has shown they cannot compete in; on the default horizon, a plan proven to reach no
    festival tower has gone on to the next festival within reach, or says it had no time."""
    plan, problems = found.plan, []
    proven_none = (goal_strategy(plan.goal).builds_toward_next
                   and plan.status is Status.OPTIMAL and plan.found and not plan.objective)
    named = found.next_festival
    marked = {(a.space.round, a.space.location): a for a in found.ahead}
    if named is not None:
        entry = marked.get((named.round, named.location))
        if entry is None or not entry.within_reach:
            problems.append(f"names {named.location} (round {named.round}), out of reach: "
                            f"{None if entry is None else entry.out_of_reach}")
        if proven_none and named.round <= _last_round(plan):
            problems.append(f"names {named.location} (round {named.round}) inside a horizon "
                            "proven to reach no festival tower")
    if proven_none:
        inside = [a for a in found.ahead if a.within_reach and a.space.round <= _last_round(plan)]
        if inside:
            problems.append(f"{inside[0].space.location} is still marked within reach")
        later = [a for a in found.ahead if a.within_reach and a.space.round > _last_round(plan)]
        if default_horizon and later and found.untried is None:
            problems.append(f"stopped before {later[0].space.location}, within reach, "
                            "without saying why")
    return problems


def explanation_problems(plan: Plan, board: Board) -> list[str]:
    """Item 6: a move's reason names the region it serves only when the pawn ends in it or
    nearer to it (graph distance); a move serving nothing names no festival; every step of
    the plan is explained, in order."""
    graph, names = board.graph, {r.id: r.name for r in board.regions}
    problems = []
    pawn = plan.start.player(plan.player).pawn
    target = plan.target
    for turn, steps in zip(plan.turns, plan.steps, strict=True):
        if [s.action for s in steps] != list(turn.actions):
            problems.append(f"round {turn.round}: the steps are not the plan's actions")
        for step in steps:
            if not step.reason:
                problems.append(f"round {turn.round}: {step.action} has no reason")
            action = step.action
            if not (isinstance(action, Move) or (isinstance(action, Special)
                                                 and action.kind == "move")):
                continue
            assert action.to is not None
            serves = step.serves
            if serves is not None and serves != action.to and pawn is not None and \
                    graph.distance(action.to, serves) >= graph.distance(pawn, serves):
                problems.append(f"round {turn.round}: the move to {action.to} is said to "
                                f"serve {serves}, but ends no nearer to it")
            if serves is None and target is not None and "festival" in step.reason:
                problems.append(f"round {turn.round}: the move to {action.to} names a "
                                f"festival it does not serve: {step.reason}")
            if target is not None and names[target.region] in step.reason \
                    and serves != target.region and action.to != target.region:
                problems.append(f"round {turn.round}: the move to {action.to} names "
                                f"{names[target.region]} without serving it")
            pawn = action.to
    return problems
