"""Dominances of the score goal in the lean score model (`planner.turns.score.lean`): plans
that lose nothing, so that the search need not try the others (a casteller or a rank more
never loses a tower, a tile or a point)."""

from __future__ import annotations

from ortools.sat.python import cp_model

from models.game import RECRUIT_LIMIT, SPECIAL
from models.tower import Skill
from planner.turns.lean.model import LeanModel

Expr = cp_model.LinearExpr


def dominances(lean: LeanModel) -> None:
    """The score goal's dominances, those switched on (`PlanBudget.train_where_visited`,
    `recruit_when_able`)."""
    if lean.budget.train_where_visited:
        trains_where_visited(lean)
    if lean.budget.recruit_when_able:
        recruits_when_able(lean)


def trains_where_visited(lean: LeanModel) -> None:
    """Dominance: a turn whose walk passes where a skill is offered trains (that skill at
    that stop, if nothing else: a rank more never loses a tower, a tile or a point)."""
    model, horizon = lean.model, lean.horizon
    for turn in lean.turns:
        slot = turn.slot
        if not slot.can_train:
            continue
        trainings = [*turn.train.values(), turn.free_move, *turn.free_recruit.values(),
                     *turn.free_claims]
        offering = {g for tile, where in slot.offered.items()
                    if tile != SPECIAL and horizon.always_trainable(Skill(tile)) for g in where}
        for g in sorted(offering & set(turn.visited)):
            model.add(sum(trainings) >= turn.visited[g])


def recruits_when_able(lean: LeanModel) -> None:
    """Dominance: a turn's Recruit action, when its walk passes a region with castellers left,
    recruits as many as it may there (a casteller more never loses a tower, a tile or a
    point, and recruiting costs nothing else: no token, no training)."""
    model, horizon = lean.model, lean.horizon
    taken: dict[str, list[Expr | int]] = {g: [] for g in horizon.regions}  # recruited before
    for t, turn in enumerate(lean.turns):
        slot = turn.slot
        open_here = []
        for g in horizon.regions:
            supply = horizon.supply[g]
            if not (slot.can_recruit and supply.total) or (t, g) in horizon.at_risk:
                taken[g].append(sum(v for (h, _), v in turn.recruit.items() if h == g)
                                + sum(v for (h, _), v in turn.extra.items() if h == g))
                continue
            left = model.new_int_var(0, supply.total, f"left{t}_{g}")
            model.add(left == supply.total - sum(taken[g]))
            mine = sum(v for (h, _), v in turn.recruit.items() if h == g)
            for most in range(1, RECRUIT_LIMIT + 1):  # at least `most` when that many are left
                enough = model.new_bool_var(f"left{t}_{g}_{most}")
                model.add(left >= most).only_enforce_if(enough)
                model.add(left <= most - 1).only_enforce_if(enough.Not())
                model.add(mine >= most).only_enforce_if([enough, turn.recruit_at[g]])
                if most == 1:
                    able = model.new_bool_var(f"able{t}_{g}")
                    model.add_bool_and([enough, turn.visited[g]]).only_enforce_if(able)
                    model.add_bool_or([enough.Not(), turn.visited[g].Not()]
                                      ).only_enforce_if(able.Not())
                    open_here.append(able)
            taken[g].append(mine + sum(v for (h, _), v in turn.extra.items() if h == g))
        for able in open_here:
            model.add(sum(turn.recruit_at.values()) >= able)
