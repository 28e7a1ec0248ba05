"""The planner's goals as lexicographic objectives on the plan model.

festival: the best festival tower score in the horizon; when that is 0 (no festival tower in
    reach), progress toward one (`progress_stages`); then more local performance points; then
    fewer special tokens spent (the tie-breaks as one weighted stage: one solve).
tile: claim the tile in the earliest turn; then fewer special tokens spent.
score: the most end-of-game points at the end of the horizon (rules page section 6), prizes
    included; then fewer special tokens spent. Opponents standing in a festival's region
    compete with the best tower their team allows now (they take no actions): that is the bar
    each prize and size token is won against; the player's towers are the plan's own, so
    that prizes and size tokens can be aimed at.
Every goal ends with "more castellers in the team": a free recruit never hurts (the tokens are
fixed by then, so only free recruits are added), and a plan never leaves one out for nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from ortools.sat.python import cp_model

from models.errors import SpecError
from models.game import (
    Board,
    FestivalSpace,
    GameState,
    score_player,
)
from planner.tower import TowerLayout
from planner.turns.horizon import Goal, Horizon
from planner.turns.model import (
    OFF,
    STOPS,
    PlanModel,
    castellers_at_end,
    end_layout,
    goal_turns,
    idle_after,
    train_every_turn,
)
from planner.turns.score_caps import Rival, ScoreCaps, rivals, score_caps
from planner.turns.stages import Stage, fold

Expr = cp_model.LinearExpr


def goal_stages(plan: PlanModel, goal: Goal, spare_tokens: bool = False) -> list[Stage]:
    """The goal's stages, in order. `spare_tokens`: the festival goal's own search prefers
    plans that spend fewer special tokens (the tie-break still decides; for a long horizon,
    whose goal search ends unproven and leaves the tie-breaks little: without it such plans
    spent 5-6 tokens they did not need)."""
    if goal.kind == "festival":
        # a claim never raises a festival score: the first stage leaves claims out, and
        # with them the order of a turn's Move and paid special move (it only decides where
        # the token lands), which keeps its proof small; the tie-breaks then free both. With
        # the "any" reading of special moves the order also decides where the pawn can go
        # (a far jump, then a step), so it is never held then
        ordered = plan.horizon.rules.special_move != "any"
        held: tuple[tuple[cp_model.IntVar, int], ...] = ((plan.claims_on, 0),
                                                         (plan.move_order, int(ordered)))
        # dominance: the goal's stage trains every turn that can, and takes no action after
        # the last festival (neither changes any festival score); the tie-breaks free both
        trains = train_every_turn(plan)
        held += _upto(plan, trains, goal_turns(plan))
        first = Stage("best festival score", best_festival(plan), "max", held)
        if spare_tokens:
            first = replace(first, secondary=plan.tokens_spent(),
                            weight=plan.horizon.me.special_tokens + 1)
        return [first, *tie_breaks(plan)]
    if goal.kind == "tile":
        return [Stage("turn of the claim", claim_turn(plan, goal.tile), "min"),
                _spent(plan)[0]]
    # dominance, as the festival goal's: a turn that can train, trains (a rank more never
    # loses a tower, a tile or a point, and training costs nothing else)
    every_turn = tuple((lit, 1) for lit in train_every_turn(plan))
    return [Stage("points", points(plan), "max", every_turn), _spent(plan)[0]]


def _spent(plan: PlanModel) -> tuple[Stage, int, int]:
    """Fewer special tokens spent, then more castellers in the team: one stage, weighted (a
    casteller more never outweighs a token: no more than `most` castellers join in the
    horizon), with the least and most its objective can be."""
    tokens, team = plan.tokens_spent(), castellers_at_end(plan)
    upper = plan.horizon.upper_pool().total
    most = upper - plan.horizon.me.team.total + 1
    stage = Stage("special tokens spent, then castellers in the team", most * tokens - team,
                  "min", parts=(("special tokens spent", tokens),
                                ("castellers in the team", team)))
    return stage, -upper, most * plan.horizon.me.special_tokens


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
    return [(local, 0, most), _spent(plan)]


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


def claim_turn(plan: PlanModel, tile: str | None) -> Expr:
    """The tile goal's objective: the turn the tile is claimed in (the claim required)."""
    horizon = plan.horizon
    horizon.board.tile(tile or "")  # an unknown tile is a SpecError naming it
    row = next((g for g, tiles in horizon.tiles.items() if tile in [t.id for t in tiles]),
               None)
    if row is None:
        raise SpecError(f"tile {tile} lies in no region's row (it was claimed already)",
                        token=tile)
    claim = next((c for c in plan.claims if c.tile.id == tile), None)
    if claim is None:  # no team in reach can build it: proven at once
        plan.model.add_bool_or([])
        return cp_model.LinearExpr.constant(0)
    plan.model.add(claim.claimed == 1)
    return cp_model.LinearExpr.sum([var * (i // STOPS) for i, var in claim.at.items()])


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
    (`planner.turns.lean_score`)."""

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
