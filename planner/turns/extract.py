"""A solved plan model, read back as each turn's actions in an order the referee accepts.

Within a stop: the Recruit action, a paid special recruit, the training, the free special
action it grants, then paid claims (before the training when the free special is a move,
which leaves the stop; a special tile adds no rank, so nothing is lost). Then the move on.
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from models.game import Action, Move, Recruit, Special, Train
from planner.turns.full.model import STOPS, PlanModel


@dataclass(frozen=True)
class _Stop:
    """What the solution does at one stop, before it is put in the referee's order."""

    normal: list[int]  # the Recruit action's sizes
    extra: list[int]  # paid special recruits' sizes
    free_recruit: list[int]  # the free special recruit's size (at most one)
    trained: list[str]  # the tiles trained
    paid_claims: list[Action]
    free_claims: list[Action]


def turn_actions(plan: PlanModel, solver: cp_model.CpSolver, turn: int) -> list[Action]:
    """A planned turn's actions, read from the solved model as referee actions."""
    value = solver.value
    actions: list[Action] = []
    for s in range(STOPS):
        i = turn * STOPS + s
        if s and not any(value(plan.moves[i - 1, k]) for k in ("move", "paid", "free")):
            break
        actions += _ordered(plan, solver, i, _stop(plan, solver, i), leaves=s < STOPS - 1)
    return actions


def _sizes(recruits: dict[tuple[int, str, int], cp_model.IntVar], solver: cp_model.CpSolver,
           stop: int) -> list[int]:
    """The sizes recruited at `stop`, one per casteller."""
    sizes: list[int] = []
    for (j, _, size), var in recruits.items():
        if j == stop:
            sizes += [size] * solver.value(var)
    return sizes


def _stop(plan: PlanModel, solver: cp_model.CpSolver, i: int) -> _Stop:
    """The solution's actions at stop `i`."""
    value = solver.value
    extra = _sizes(plan.extra, solver, i)
    free_recruit = [extra.pop()] if value(plan.free_recruit[i]) else []
    trained = [tile for (j, tile), var in plan.train.items() if j == i and value(var)]
    paid_claims: list[Action] = []
    free_claims: list[Action] = []
    for claim in plan.claims:
        if value(claim.at[i]):
            special = Special(kind="claim", tile=claim.tile.id,
                              tower=str(claim.layout.tower(solver)))
            (free_claims if value(claim.free[i]) else paid_claims).append(special)
    return _Stop(_sizes(plan.recruit, solver, i), extra, free_recruit, trained, paid_claims,
                 free_claims)


def _ordered(plan: PlanModel, solver: cp_model.CpSolver, i: int, stop: _Stop,
             leaves: bool) -> list[Action]:
    """Stop `i`'s actions in the referee's order, then the move on (when the pawn `leaves`)."""
    value = solver.value
    free_move = leaves and bool(value(plan.moves[i, "free"]))
    nxt = _place(plan, solver, i + 1) if leaves else None
    actions: list[Action] = []
    if stop.normal:
        actions.append(Recruit(sizes=sorted(stop.normal, reverse=True)))
    actions += [Special(kind="recruit", size=size) for size in stop.extra]
    if free_move:
        actions += stop.paid_claims
    actions += [Train(skill=tile) for tile in stop.trained]
    actions += [Special(kind="recruit", size=size) for size in stop.free_recruit]
    actions += stop.free_claims
    if free_move:
        assert nxt is not None
        actions.append(Special(kind="move", to=nxt))
    else:
        actions += stop.paid_claims
    if leaves and value(plan.moves[i, "move"]):
        assert nxt is not None
        actions.append(Move(to=nxt))
    if leaves and value(plan.moves[i, "paid"]):
        assert nxt is not None
        actions.append(Special(kind="move", to=nxt))
    return actions


def _place(plan: PlanModel, solver: cp_model.CpSolver, stop: int) -> str:
    return next(g for g, var in plan.at[stop].items() if solver.value(var))
