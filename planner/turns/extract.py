"""A solved plan model, read back as each turn's actions in an order the referee accepts.

Within a stop: the Recruit action, a paid special recruit, the training, the free special
action it grants, then paid claims (before the training when the free special is a move,
which leaves the stop; a special tile adds no rank, so nothing is lost). Then the move on.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from models.game import Action, Move, Recruit, Special, Train
from planner.turns.full.model import STOPS, PlanModel


def turn_actions(plan: PlanModel, solver: cp_model.CpSolver, turn: int) -> list[Action]:
    """A planned turn's actions, read from the solved model as referee actions."""
    value = solver.value
    actions: list[Action] = []
    for s in range(STOPS):
        i = turn * STOPS + s
        if s and not any(value(plan.moves[i - 1, k]) for k in ("move", "paid", "free")):
            break
        normal: list[int] = []
        extra: list[int] = []
        for (j, _, size), var in plan.recruit.items():
            if j == i:
                normal += [size] * value(var)
        for (j, _, size), var in plan.extra.items():
            if j == i:
                extra += [size] * value(var)
        free_recruit = [extra.pop()] if value(plan.free_recruit[i]) else []
        trained = [tile for (j, tile), var in plan.train.items() if j == i and value(var)]
        paid_claims: list[Action] = []
        free_claims: list[Action] = []
        for claim in plan.claims:
            if value(claim.at[i]):
                special = Special(kind="claim", tile=claim.tile.id,
                                  tower=str(claim.layout.tower(solver)))
                (free_claims if value(claim.free[i]) else paid_claims).append(special)
        leaves = s < STOPS - 1
        free_move = leaves and bool(value(plan.moves[i, "free"]))
        nxt = _place(plan, solver, i + 1) if leaves else None

        if normal:
            actions.append(Recruit(sizes=sorted(normal, reverse=True)))
        actions += [Special(kind="recruit", size=size) for size in extra]
        if free_move:
            actions += paid_claims
        actions += [Train(skill=tile) for tile in trained]
        actions += [Special(kind="recruit", size=size) for size in free_recruit]
        actions += free_claims
        if free_move:
            assert nxt is not None
            actions.append(Special(kind="move", to=nxt))
        else:
            actions += paid_claims
        if leaves and value(plan.moves[i, "move"]):
            assert nxt is not None
            actions.append(Move(to=nxt))
        if leaves and value(plan.moves[i, "paid"]):
            assert nxt is not None
            actions.append(Special(kind="move", to=nxt))
    return actions


def _place(plan: PlanModel, solver: cp_model.CpSolver, stop: int) -> str:
    return next(g for g, var in plan.at[stop].items() if solver.value(var))
