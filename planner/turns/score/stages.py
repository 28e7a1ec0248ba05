"""The score goal's stages on the full plan model: the most end-of-game points at the end of
the horizon (rules page section 6), prizes included; then fewer special tokens spent.
Opponents standing in a festival's region compete with the best tower their team allows now
(they take no actions): that is the bar each prize and size token is won against; the
player's towers are the plan's own, so that prizes and size tokens can be aimed at. The card
(`card`) is read from the full model or the lean score model alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ortools.sat.python import cp_model

from models.game import Board, FestivalSpace, GameState, score_player
from planner.tower import TowerLayout
from planner.turns.full.model import OFF, STOPS, PlanModel, train_every_turn
from planner.turns.full.spent import spent_stage
from planner.turns.full.stages import Stage
from planner.turns.horizon import Horizon
from planner.turns.score.caps import Rival, ScoreCaps, rivals, score_caps

Expr = cp_model.LinearExpr


def score_stages(plan: PlanModel) -> list[Stage]:
    """The score goal's stages, in order. Dominance, as the festival goal's: a turn that can
    train, trains (a rank more never loses a tower, a tile or a point, and training costs
    nothing else)."""
    every_turn = tuple((lit, 1) for lit in train_every_turn(plan))
    return [Stage("points", points(plan), "max", every_turn), spent_stage(plan)[0]]


def points(plan: PlanModel) -> Expr:
    """The player's end-of-game card at the end of the horizon."""
    model = plan.model
    caps = score_caps(plan)
    # without the LP the search's bound is the parts' domains: each part on its cap, and the
    # pawn only where it can stand (sound, `score_caps`), so that the search can close the gap
    for i, stop in enumerate(plan.at):
        for g, var in stop.items():
            if g != OFF and g not in caps.reach[i // STOPS]:
                model.add(var == 0)
    # a claim only in a turn a team in reach stands its tower, after the trainings it needs
    # (as a linear constraint on the ranks a stop, claim.at => sum of ranks >= need, the
    # presolve of a 1-turn plan at round 10 took the whole budget: p3-s33-r10, 0 branches)
    for claim in plan.claims:
        for i, var in claim.at.items():
            if claim.tile.id not in caps.claimable[i // STOPS]:
                model.add(var == 0)
    return card(plan, caps)


class Contest(Protocol):
    """A festival of a plan model, as the card reads it (the full or the lean model's)."""

    @property
    def space(self) -> FestivalSpace: ...
    @property
    def eligible(self) -> cp_model.IntVar: ...
    @property
    def layout(self) -> TowerLayout: ...
    @property
    def score(self) -> Expr | cp_model.IntVar: ...


class Claimed(Protocol):
    """A tile a plan model may claim, as the card reads it."""

    @property
    def region(self) -> str: ...
    @property
    def claimed(self) -> Expr: ...


class Card(Protocol):
    """What the card's points are read from: the full plan model, or the lean score model
    (`planner.turns.score.lean`)."""

    @property
    def model(self) -> cp_model.CpModel: ...
    @property
    def horizon(self) -> Horizon: ...
    @property
    def festivals(self) -> Sequence[Contest]: ...
    @property
    def claims(self) -> Sequence[Claimed]: ...
    @property
    def collected(self) -> Expr | int: ...
    def tile_points(self) -> Expr: ...
    def local_points(self) -> Expr: ...


def card(plan: Card, caps: ScoreCaps) -> Expr:
    """The end-of-game card at the end of the horizon, as a model expression: the best tower,
    variety, prizes and size tokens against the festivals' rivals, and local performances,
    each part within its cap (`score_caps`)."""
    model, horizon = plan.model, plan.horizon
    me, board = horizon.me, horizon.board
    scoring = board.scoring
    best = model.new_int_var(0, caps.best, "best_tower")
    model.add_max_equality(best, [me.best_tower_score, *[f.score for f in plan.festivals]])
    earned_by: dict[str, list[cp_model.IntVar]] = {g: [] for g in horizon.regions}
    won_of_size: dict[int, list[cp_model.IntVar]] = {}
    prizes: list[Expr] = []
    for festival in plan.festivals:
        rival = rivals(plan.horizon, festival.space)
        won = _contest(plan, festival, rival)
        prizes += _prize_points(plan, festival, rival)
        for size, var in won[1:]:
            won_of_size.setdefault(size, []).append(var)
        earned_by[festival.space.region] += [v for _, v in won]
    for claim in plan.claims:
        earned_by[claim.region].append(claim.claimed)  # type: ignore[arg-type]
    earned = []
    for g in horizon.regions:
        if g in me.earned_regions:
            continue
        var = model.new_bool_var(f"earned_{g}")
        model.add_max_equality(var, [0, *earned_by[g]])
        earned.append(var)
    model.add(cp_model.LinearExpr.sum(earned) <= caps.new_regions)
    model.add(cp_model.LinearExpr.sum([c.claimed for c in plan.claims]) <= caps.claims)
    regions = len(set(me.earned_regions)) + cp_model.LinearExpr.sum(earned)
    table = [scoring.variety(n) for n in range(len(horizon.regions) + 1)]
    variety = model.new_int_var(min(min(table), caps.variety), caps.variety, "variety")
    model.add_element(regions, table, variety)
    size_points: list[Expr | int] = []
    for size, wins in won_of_size.items():
        held = me.size_tokens.count(size)
        total = cp_model.LinearExpr.sum(wins)
        if held:
            size_points.append(scoring.size_token_repeat * total)
        else:
            has = model.new_bool_var(f"has_size{size}")
            model.add_max_equality(has, wins)
            size_points.append((scoring.size_token_first - scoring.size_token_repeat) * has
                               + scoring.size_token_repeat * total)
    won_sizes = cp_model.LinearExpr.sum(size_points)
    prize_points = cp_model.LinearExpr.sum(prizes)
    model.add(won_sizes <= caps.size_tokens)
    model.add(prize_points <= caps.prizes)
    model.add(plan.tile_points() <= caps.tiles)
    model.add(plan.collected * scoring.special_token <= caps.tokens)
    model.add(plan.local_points() + variety <= caps.local_and_variety)
    total = (best + variety + won_sizes + caps.held + plan.local_points() + prize_points)
    model.add(total <= caps.total)  # so the bound means something without the LP
    return total


def _prize_points(plan: Card, festival: Contest, rival: Rival) -> list[Expr]:
    """The prize's points at the rank the festival score gives against the rivals' towers."""
    model = plan.model
    name = f"{festival.space.location}{festival.space.round}"
    terms = []
    for number, (need, points_) in enumerate(rival.prize_steps):
        var = model.new_bool_var(f"prize_{name}_{number}")
        model.add_implication(var, festival.eligible)
        model.add(festival.score >= need).only_enforce_if(var)
        model.add(festival.score <= need - 1).only_enforce_if([var.Not(), festival.eligible])
        terms.append(points_ * var)
    return terms


def _contest(plan: Card, festival: Contest, rival: Rival
             ) -> list[tuple[int, cp_model.IntVar]]:
    """Exact literals: the player wins a prize (size 0) and each size token."""
    model, layout = plan.model, festival.layout
    name = f"{festival.space.location}{festival.space.round}"
    won = []
    wanted: list[tuple[int, Expr, int | None]] = [(0, festival.score, rival.score_for_prize)]
    wanted += [(size, layout.of_size(size), need) for size, need in rival.count_for_token]
    for size, value, need in wanted:
        var = model.new_bool_var(f"won_{name}_{size}")
        if need is None:
            model.add(var == 0)
        else:
            model.add_implication(var, festival.eligible)
            model.add(value >= need).only_enforce_if(var)
            model.add(value <= need - 1).only_enforce_if([var.Not(), festival.eligible])
        won.append((size, var))
    return won


def points_now(state: GameState, board: Board, player: str) -> int:
    """The player's end-of-game points if the game ended in `state`."""
    return score_player(state.player(player), board).total
