"""The score goal on the lean model: the most end-of-game points by a model that follows the
pawn's route turn by turn (`planner.turns.lean`), a relaxation of the full plan model.

The full model's score stage ends unproven at 3 turns with its bound at the caps
(`planner.turns.score_caps`): those add each part at its most anywhere in reach, while a pawn
stands in one place at a time. Here each turn's walk is the lean model's table (the regions it
visits, where it ends, the special moves it spends), and the rest is the full model's rules per
turn: recruits and trainings as the lean model has them; a claim of a tile of a region the walk
visits, with the paid special action (a token, one paid special a turn) or with the free one of
a special tile trained there (the turn trains nothing else), on the team and ranks of the end
of its turn (a relaxation: recruits after the claim count); a region's lying tokens collected
by a claim there, and each paid special action's token by a claim in a later or the same turn
(anywhere: a relaxation); festivals, prizes, size tokens, variety and the best tower as the
full model's points (`goals.card`, the same rivals and caps).

Every plan of the full model is a plan of this one with at least its points, so its bound
bounds the score goal (tests/planner/turns/test_lean_score.py checks it against long-limit
plans of the full model); and its route, held in the full model, is a cheap place for the full
model's search to start.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from models.game import SPECIAL, PerformanceTile
from models.tower import Pool, Skill, SkillRanks
from planner.stopping import solve_stoppable
from planner.tower import STATUS, Status, TowerLayout, stopped_by_clock
from planner.turns import lean_tiles
from planner.turns.horizon import Horizon
from planner.turns.lean import LeanResult, _lean_solver, lean_holds
from planner.turns.lean_dominance import dominances
from planner.turns.lean_model import LeanFestival, LeanModel, build_lean_model, hint_idle
from planner.turns.lean_tiles import claim_towers, cut, wrong_claims
from planner.turns.model import PlanModel, flag
from planner.turns.score_caps import ScoreCaps, score_caps
from planner.turns.stages import _hint_solution

Var = cp_model.IntVar
Expr = cp_model.LinearExpr
# no LP relaxation: with it (level 1) a 2-turn proof took 2.8 units against 2.1, level 2
# did not prove in 4 (p4-s43-r08, tile layouts); 3 turns did not prove in 8 (p3-s32-r04)
LINEARIZATION = 0
MOST_SOLVES = 20  # solves with cuts (each cuts every claim found wrong)
# its solves take the lean model's short presolve (`lean._lean_solver`, light: one pass, a
# short probing): CP-SAT's default presolve probed twice for about half a unit each, and a
# 3-turn model at 1.5 units then ended with no search at all (p2-s22-r05); on 8 of the
# benchmark's 2- and 3-turn plans the proofs took 0.4-2.1 units with the short probing
# against 0.9-2.4 with one pass of the default one


@dataclass
class LeanClaim:
    """A tile the lean score model may claim: a literal per turn, and the tile's layout."""

    tile: PerformanceTile
    region: str
    at: dict[int, Var]  # turn -> claimed in it
    layout: TowerLayout | None = None

    @property
    def claimed(self) -> Expr:
        """Whether the tile is claimed, as a model expression."""
        return cp_model.LinearExpr.sum(list(self.at.values()))


@dataclass
class LeanScore:
    """The lean score model: the lean model, its claims, the tokens collected, the points."""

    lean: LeanModel
    claims: list[LeanClaim] = field(default_factory=list)
    collected: Expr | int = 0
    points: Expr | int = 0
    teams: list[dict[int, Var]] = field(default_factory=list)  # turn -> size -> at its end
    ranks: list[dict[Skill, Var]] = field(default_factory=list)  # turn -> skill -> at its end

    @property
    def model(self) -> cp_model.CpModel:
        """The CP-SAT model."""
        return self.lean.model

    @property
    def horizon(self) -> Horizon:
        """The horizon planned."""
        return self.lean.horizon

    @property
    def festivals(self) -> list[LeanFestival]:
        """The festivals a team in reach can compete in."""
        return self.lean.festivals

    def tile_points(self) -> Expr:
        """Points of the tiles claimed, as a model expression."""
        return cp_model.LinearExpr.sum([c.claimed * c.tile.points for c in self.claims])

    def local_points(self) -> Expr:
        """Local performance points: tiles claimed and tokens collected."""
        per_token = self.horizon.board.scoring.special_token
        return self.tile_points() + self.collected * per_token


def build_lean_score(plan: PlanModel) -> LeanScore:
    """The lean score model of `plan`'s horizon (its tiles are `plan.claims`', its caps
    `score_caps(plan)`); its objective `points` is to maximise."""
    from planner.turns.goals import card  # goals builds on the full model's modules

    horizon, caps = plan.horizon, score_caps(plan)
    claims: list[LeanClaim] = []
    lean = build_lean_model(horizon, turns=len(horizon.turns),
                            claims=lambda lean: claims.extend(_claims(lean, plan, caps)))
    score = LeanScore(lean, claims)
    dominances(lean)
    _team_vars(score)
    claim_towers(score)
    score.collected = _collected(score)
    score.points = card(score, caps)
    return score


def _claims(lean: LeanModel, plan: PlanModel, caps: ScoreCaps) -> list[LeanClaim]:
    """A literal per tile and turn (claimed then), with the paid special action or the free
    one of a special tile trained in the tile's region, which the walk visits; only in a turn
    the caps find the tile claimable in (a team in reach stands it, with the trainings it
    needs by then)."""
    model, me = lean.model, lean.horizon.me
    claims = []
    for full in plan.claims:
        tile, g = full.tile, full.region
        claim = LeanClaim(tile, g, {})
        for t, turn in enumerate(lean.turns):
            slot = turn.slot
            claimable = tile.id in caps.claimable[t]
            name = f"claim{t}_{tile.id}"
            paid = flag(model, claimable and slot.can_special and me.special_tokens > 0,
                        f"{name}_paid")
            free = flag(model, claimable and slot.can_train
                        and g in slot.offered.get(SPECIAL, ()), f"{name}_free")
            if claimable:
                model.add_implication(paid, turn.visited[g])
                model.add_implication(free, turn.visited[g])
            turn.paid_claims.append(paid)
            turn.free_claims.append(free)
            at = model.new_bool_var(name)
            model.add(at == paid + free)
            claim.at[t] = at
        model.add(claim.claimed <= 1)
        claims.append(claim)
    return claims


def _team_vars(score: LeanScore) -> None:
    """The team and ranks at the end of each turn, as variables (`LeanScore.teams`, `ranks`)."""
    lean, model, horizon = score.lean, score.model, score.horizon
    me = horizon.me
    for t in range(len(lean.turns)):
        upper, top = horizon.upper_pool(t + 1), horizon.upper_ranks(t + 1)
        team = {}
        for size in horizon.upper_pool().sizes:
            joined = [turn.recruit[g, size] + turn.extra[g, size] for turn in lean.turns[:t + 1]
                      for g in horizon.regions if (g, size) in turn.recruit]
            var = model.new_int_var(me.team.count(size), max(me.team.count(size),
                                                              upper.count(size)),
                                    f"team{t}_{size}")
            model.add(var == me.team.count(size) + sum(joined))
            team[size] = var
        ranks = {}
        for skill in Skill:
            trained = [turn.train[skill.value] for turn in lean.turns[:t + 1]
                       if skill.value in turn.train]
            var = model.new_int_var(me.ranks[skill], max(me.ranks[skill], top[skill]),
                                    f"ranks{t}_{skill.value}")
            model.add(var == me.ranks[skill] + sum(trained))
            ranks[skill] = var
        score.teams.append(team)
        score.ranks.append(ranks)


def _collected(score: LeanScore) -> Expr | int:
    """Special tokens the claims collect, at most: a region's lying tokens by a claim there;
    each paid special move or recruit's token (and a paid claim's, by the readings) by a claim
    in the same turn or later, anywhere (a relaxation of the full model's chain per region)."""
    lean, model, horizon = score.lean, score.model, score.horizon
    rules = horizon.rules
    terms: list[Expr | Var | int] = []
    for g in horizon.regions:
        here = [v for c in score.claims if c.region == g for v in c.at.values()]
        lying = horizon.state.regions[g].special_tokens
        if lying and here:
            any_claim = model.new_bool_var(f"collects_{g}")
            model.add(any_claim <= sum(here))
            terms.append(lying * any_claim)
    count = len(lean.turns)
    later: list[Var | int] = [0] * (count + 1)  # a claim in turn t or after
    for t in reversed(range(count)):
        now = [c.at[t] for c in score.claims]
        if not now and isinstance(later[t + 1], int):
            continue
        var = model.new_bool_var(f"claim_from{t}")
        model.add(var <= later[t + 1] + sum(now))
        later[t] = var
    for t, turn in enumerate(lean.turns):
        if isinstance(later[t], int):
            continue
        placers = [turn.paid_move, *turn.paid_recruit.values()]
        if not rules.claim_collects_own_token:
            placers += turn.paid_claims
        placed = model.new_int_var(0, 1, f"placed{t}")
        model.add(placed <= sum(placers))
        model.add(placed <= later[t])
        terms.append(placed)
    if rules.claim_collects_own_token:
        terms += [v for turn in lean.turns for v in turn.paid_claims]
    return cp_model.LinearExpr.sum(terms) if terms else 0


@dataclass(frozen=True)
class LeanScoreGoal:
    """The score goal on the lean model: its result (a sound bound on every plan's points),
    and its plan's route as values of the full model's places (`PlanModel.at`)."""

    result: LeanResult
    route: tuple[tuple[Var, int], ...]


def lean_score(plan: PlanModel, *, work: float, time_limit: float, seed: int = 0,
               workers: int = 1, linearization: int = LINEARIZATION) -> LeanScoreGoal:
    """The most points of `plan`'s horizon by the lean score model, within `work`
    deterministic units (and `time_limit` wall seconds, the safety net). With the "cuts"
    tile check, a solution claiming a tile on a team and ranks that stand no tower of it is
    cut off (`_cut`) and the model solved again from it, while the budget lasts: proven
    optimal only when the last solve is and its claims all stand. No route when the budget
    ended before any plan. Its times include building the model."""
    cpu, wall = time.process_time(), time.perf_counter()
    score = build_lean_score(plan)
    lean, model = score.lean, score.model
    hint_idle(lean)
    for claim in score.claims:  # no claim, no tile tower (a search that tries towers first
        # takes seconds to find any plan)
        for var in claim.at.values():
            model.add_hint(var, 0)
        for slot in claim.layout.slots if claim.layout is not None else ():
            model.add_hint(slot.active, 0)
    # on the caps' domain: the search's bound starts at the caps, not at the parts' sum
    points = model.new_int_var(0, score_caps(plan).total, "points")
    model.add(points == score.points)
    model.maximize(points)
    spent, branches, clock, solves = 0.0, 0, False, 0
    bound: int | None = None
    kept: cp_model.CpSolver | None = None  # the last solve that found a plan
    wrong: list[tuple[LeanClaim, Pool, SkillRanks]] = []
    status = Status.UNKNOWN
    while True:
        left = max(0.01, time_limit - (time.perf_counter() - wall))
        solver = _lean_solver(left, max(0.01, work - spent), linearization, seed, workers,
                              light=True)
        code = solve_stoppable(solver, model)
        if code == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT rejected the lean score model: {model.validate()}")
        solves += 1
        spent += solver.response_proto.deterministic_time
        branches += int(solver.num_branches)
        clock = clock or stopped_by_clock(solver)
        found = STATUS.get(code, Status.UNKNOWN) in (Status.OPTIMAL, Status.FEASIBLE)
        if code != cp_model.INFEASIBLE and math.isfinite(solver.best_objective_bound):
            solved = int(solver.best_objective_bound + 1e-6)  # bounds every plan, found or not
            bound = solved if bound is None else min(bound, solved)
        if not found:  # the budget ended first: the plan found before (its claims cut) stays
            break
        kept, status = solver, STATUS[code]
        wrong = wrong_claims(score, solver) if lean_tiles.TILE_CHECK == "cuts" else []
        if not wrong or spent >= work or clock or solves >= MOST_SOLVES:
            break
        for claim, team, ranks in wrong:
            cut(score, claim, team, ranks)
        _hint_solution(model, solver)
    if wrong or kept is not solver:  # its claims stand no tower, or a later solve found none
        status = Status.FEASIBLE if kept is not None else Status.UNKNOWN
    value = round(kept.objective_value) if kept is not None else None
    result = LeanResult(status, value, bound, spent, time.process_time() - cpu,
                        time.perf_counter() - wall, branches, clock)
    return LeanScoreGoal(result, route(plan, lean, kept) if kept is not None else ())


def route(plan: PlanModel, lean: LeanModel, solver: cp_model.CpSolver
          ) -> tuple[tuple[Var, int], ...]:
    """The lean plan's walk as the full model's place at every stop (`lean_holds`' places)."""
    places = {var.index for stop in plan.at for var in stop.values()}
    return tuple((var, value) for var, value in lean_holds(plan, lean, solver)
                 if var.index in places)

