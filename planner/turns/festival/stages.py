"""The festival goal's stages on the full plan model: the best festival tower score in the
horizon; when that is 0 (no festival tower in reach), progress toward one (`progress_stages`);
then more local performance points; then fewer special tokens spent (the tie-breaks as one
weighted stage: one solve). Every goal ends with "more castellers in the team": a free recruit
never hurts (the tokens are fixed by then, so only free recruits are added), and a plan never
leaves one out for nothing.
"""

from __future__ import annotations

from dataclasses import replace

from ortools.sat.python import cp_model

from models.game import (
    FestivalSpace,
)
from planner.turns.full.model import (
    PlanModel,
    castellers_at_end,
    end_layout,
    goal_turns,
    idle_after,
    train_every_turn,
)
from planner.turns.full.spent import spent_stage
from planner.turns.full.stages import Stage, fold

Expr = cp_model.LinearExpr


def festival_stages(plan: PlanModel, spare_tokens: bool = False) -> list[Stage]:
    """The festival goal's stages, in order. `spare_tokens`: the goal's own search prefers
    plans that spend fewer special tokens (the tie-break still decides; for a long horizon,
    whose goal search ends unproven and leaves the tie-breaks little: without it such plans
    spent 5-6 tokens they did not need)."""
    # a claim never raises a festival score: the first stage leaves claims out, and with
    # them the order of a turn's Move and paid special move (it only decides where the token
    # lands), which keeps its proof small; the tie-breaks then free both. With the "any"
    # reading of special moves the order also decides where the pawn can go (a far jump,
    # then a step), so it is never held then
    ordered = plan.horizon.rules.special_move != "any"
    held: tuple[tuple[cp_model.IntVar, int], ...] = ((plan.claims_on, 0),
                                                     (plan.move_order, int(ordered)))
    # dominance: the goal's stage trains every turn that can, and takes no action after the
    # last festival (neither changes any festival score); the tie-breaks free both
    trains = train_every_turn(plan)
    held += _upto(plan, trains, goal_turns(plan))
    first = Stage("best festival score", best_festival(plan), "max", held)
    if spare_tokens:
        first = replace(first, secondary=plan.tokens_spent(),
                        weight=plan.horizon.me.special_tokens + 1)
    return [first, *tie_breaks(plan)]


def tie_breaks(plan: PlanModel, progress: tuple[Stage, int, int] | None = None
               ) -> list[Stage]:
    """The festival goal's tie-breaks, after `progress` when given, as one weighted stage
    (`stages.fold`: one solve of the full model instead of two or three; its parts are
    reported apart)."""
    parts = [*([progress] if progress else []), *_tie_breaks(plan)]
    name = " then ".join(stage.name for stage, _, _ in parts)
    return [fold(name, parts)]


def _tie_breaks(plan: PlanModel) -> list[tuple[Stage, int, int]]:
    """The festival goal's tie-breaks with their objectives' ranges: more local performance
    points (no more than every tile in reach and every token lying on the board or placed by
    a paid special action), then `_spent`."""
    horizon = plan.horizon
    lying = sum(r.special_tokens for r in horizon.state.regions.values())
    most = (sum(c.tile.points for c in plan.claims)
            + horizon.board.scoring.special_token * (lying + horizon.me.special_tokens + 1))
    local = Stage("local performance points", plan.local_points(), "max")
    return [(local, 0, most), spent_stage(plan)]


def _upto(plan: PlanModel, trains: list[cp_model.IntVar], turns: int
          ) -> tuple[tuple[cp_model.IntVar, int], ...]:
    """A festival goal stage looking `turns` turns ahead: those turns train (the dominance of
    `train_every_turn`), the turns after take no action."""
    return tuple((lit, 1) for lit in trains[:turns]) + tuple(idle_after(plan, turns))


TALLEST = "tallest valid tower at the end"


def progress_stages(plan: PlanModel, target: FestivalSpace | None) -> list[Stage]:
    """Progress toward a festival tower, when none is in reach in the horizon: the tallest
    valid tower the team at the end stands, then the most castellers of `target`'s token
    sizes (the next festival's); then the goal's tie-breaks. One stage, weighted (a level
    more outweighs any number of castellers of the sizes; no tower is taller than the team
    has castellers), in place of the tie-breaks' own."""
    layout = end_layout(plan, "progress")
    upper = plan.horizon.upper_pool().total
    tallest = (TALLEST, layout.height())
    if target is None:
        return tie_breaks(plan, (Stage(tallest[0], tallest[1], "max"), 0, upper))
    sizes = ", ".join(map(str, sorted(set(target.size_tokens), reverse=True)))
    of_sizes = castellers_at_end(plan, target.size_tokens)
    weight = upper + 1
    progress = Stage("progress toward a festival tower", weight * tallest[1] + of_sizes, "max",
                     parts=(tallest, (f"castellers of size {sizes} (round {target.round} "
                                      "festival)", of_sizes)))
    return tie_breaks(plan, (progress, 0, weight * upper + upper))


def best_festival(plan: PlanModel) -> Expr | int:
    """The best festival score: the player competes in (at most) the one festival the plan
    aims at, so the best is a sum, not a max (the LP relaxation of a max is weak). The
    replay lets the player compete wherever the pawn stands, which can only add."""
    if not plan.festivals:
        return 0
    model = plan.model
    model.add(sum(f.eligible for f in plan.festivals) <= 1)
    # one variable per festival score and one for the best, on the caps' domains: the
    # search's objective bound starts at the best cap, not at the layouts' sum of terms
    scores = []
    for f in plan.festivals:
        score = model.new_int_var(0, f.cap, f"score{f.space.round}_{f.space.location}")
        model.add(score == f.score)
        scores.append(score)
    best = model.new_int_var(0, plan.best_cap(), "best_festival_score")
    model.add(best == sum(scores))
    return best


