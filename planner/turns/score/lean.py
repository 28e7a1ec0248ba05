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

With the order of visits (`build_lean_score(order=True)`, slower), each walk also tells which
region it reaches first before it last stands in which (`lean_model.Outcome.seen`): a claim
then stands on the turn before's team and ranks and this turn's recruits and training made
before it (`_claim_teams`), and a placed token counts only when a later claim in its own
region collects it (`_collected_by_region`; a paid move's, in a region the walk visits).

Every plan of the full model is a plan of this one with at least its points, so its bound
bounds the score goal (tests/planner/turns/test_lean_score.py checks it against long-limit
plans of the full model); and its route, held in the full model, is a cheap place for the full
model's search to start.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from models.game import RECRUIT_LIMIT, SPECIAL, PerformanceTile
from models.tower import Pool, Skill, SkillRanks
from planner.stopping import cancel_requested, solve_stoppable
from planner.tower import STATUS, Status, TowerLayout, stopped_by_clock
from planner.tower.bounds import tile_in_reach
from planner.turns import lean_tiles
from planner.turns.horizon import Horizon
from planner.turns.lean import LeanResult, _lean_solver, lean_holds
from planner.turns.lean_dominance import dominances
from planner.turns.lean_model import (
    LeanFestival,
    LeanModel,
    build_lean_model,
    hint_idle,
    seen_pairs,
)
from planner.turns.lean_tiles import add_cut, claim_towers, cut, wrong_claims
from planner.turns.model import OFF, SPECIALS, TILE_REACH_STATES, PlanModel, flag
from planner.turns.score_caps import ScoreCaps, score_caps
from planner.turns.stages import hint_solution

Var = cp_model.IntVar
Expr = cp_model.LinearExpr
Cuts = tuple[tuple[str, Pool, SkillRanks], ...]  # (tile, team, ranks): no tower on less
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
    paid: dict[int, Var] = field(default_factory=dict)  # turn -> claimed with a paid token

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
    # (turn, region) -> what a claim there stands its tower on (`_claim_teams`)
    claim_teams: dict[tuple[int, str], dict[int, Var]] = field(default_factory=dict)
    claim_ranks: dict[tuple[int, str], dict[Skill, Var]] = field(default_factory=dict)
    cuts: Cuts = ()  # those made while building it (`lean_tiles.claim_towers`)

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

    def team_at(self, claim: LeanClaim, t: int) -> dict[int, Var]:
        """Size -> castellers a claim of `claim`'s tile in turn `t` stands its tower on."""
        return self.claim_teams.get((t, claim.region), self.teams[t])

    def ranks_at(self, claim: LeanClaim, t: int) -> dict[Skill, Var]:
        """Skill -> the rank a claim of `claim`'s tile in turn `t` stands its tower on."""
        return self.claim_ranks.get((t, claim.region), self.ranks[t])

    def tile_points(self) -> Expr:
        """Points of the tiles claimed, as a model expression."""
        return cp_model.LinearExpr.sum([c.claimed * c.tile.points for c in self.claims])

    def local_points(self) -> Expr:
        """Local performance points: tiles claimed and tokens collected."""
        per_token = self.horizon.board.scoring.special_token
        return self.tile_points() + self.collected * per_token


def build_lean_score(plan: PlanModel, order: bool = False, first_cuts: bool = True
                     ) -> LeanScore:
    """The lean score model of `plan`'s horizon (its tiles are `plan.claims`', its caps
    `score_caps(plan)`); its objective `points` is to maximise. `order`: with the order of
    each turn's visits (`_claim_teams`, `_collected_by_region`): tighter, and slower.
    `first_cuts`: with the cuts of the player's team now (`lean_tiles.claim_towers`; in
    `LeanScore.cuts`)."""
    from planner.turns.goals import card  # goals builds on the full model's modules

    horizon, caps = plan.horizon, score_caps(plan)
    claims: list[LeanClaim] = []
    lean = build_lean_model(horizon, turns=len(horizon.turns),
                            claims=lambda lean: claims.extend(_claims(lean, plan, caps)),
                            order=order)
    score = LeanScore(lean, claims)
    dominances(lean)
    _team_vars(score)
    if order:
        _claim_teams(score, caps)
    score.cuts = tuple((c.tile.id, team, ranks)
                       for c, team, ranks in claim_towers(score, first_cuts))
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
            claim.at[t], claim.paid[t] = at, paid
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


def _claim_teams(score: LeanScore, caps: ScoreCaps) -> None:
    """What a claim in region g in turn t stands its tower on, at most (`LeanScore.claim_teams`,
    `claim_ranks`): the team and ranks at the end of the turn before, with those of the
    turn's recruits and training that the walk can make before it: in g, or in a region it
    reaches first before it last stands in g (`LeanTurn.seen`)."""
    lean, model, horizon = score.lean, score.model, score.horizon
    me = horizon.me
    for t, turn in enumerate(lean.turns):
        regions = {c.region for c in score.claims if c.tile.id in caps.claimable[t]}
        upper, top = horizon.upper_pool(t + 1), horizon.upper_ranks(t + 1)
        for g in sorted(regions):
            team = {}
            for size in score.teams[t]:
                before = score.teams[t - 1][size] if t else me.team.count(size)
                made: list[Var | Expr] = []
                for a in horizon.regions:
                    if (a, size) not in turn.recruit:
                        continue
                    got = turn.recruit[a, size] + turn.extra[a, size]
                    if a == g:
                        made.append(got)
                        continue
                    var = model.new_int_var(0, RECRUIT_LIMIT + SPECIALS,
                                            f"seen_rec{t}_{g}_{a}_{size}")
                    model.add(var <= got)
                    model.add(var <= (RECRUIT_LIMIT + SPECIALS) * turn.seen[a, g])
                    made.append(var)
                var = model.new_int_var(me.team.count(size), max(me.team.count(size),
                                                                  upper.count(size)),
                                        f"claim_team{t}_{g}_{size}")
                model.add(var == before + sum(made))
                team[size] = var
            ranks = {}
            for skill, end in score.ranks[t].items():
                where = turn.slot.offered.get(skill.value, ())
                if skill.value not in turn.train or g in where:
                    ranks[skill] = end
                    continue
                var = model.new_int_var(me.ranks[skill], max(me.ranks[skill], top[skill]),
                                        f"claim_rank{t}_{g}_{skill.value}")
                model.add(var <= end)
                model.add(var <= end - turn.train[skill.value]
                          + sum(turn.seen[r, g] for r in where))
                ranks[skill] = var
            score.claim_teams[t, g], score.claim_ranks[t, g] = team, ranks


def claim_values(score: LeanScore, claim: LeanClaim, t: int, value: Callable[[Var], int],
                 seen: frozenset[tuple[str, str]] | None = None) -> tuple[Pool, SkillRanks]:
    """The most a claim of `claim`'s tile in turn `t` of a solution (`value`) stands its
    tower on: the end of its turn less the recruits and training made where the walk comes
    only after it (by `seen`, else by the model's order of visits, `_claim_teams`; with
    neither, the end of its turn)."""
    turn, g = score.lean.turns[t], claim.region
    team = {z: value(v) for z, v in score.teams[t].items()}
    ranks = {k: value(v) for k, v in score.ranks[t].items()}
    if seen is None and (t, g) in score.claim_teams:
        seen = frozenset(p for p, v in turn.seen.items() if value(v))
    if seen is not None:
        for (a, size), var in turn.recruit.items():
            if a != g and (a, g) not in seen:
                team[size] -= value(var) + value(turn.extra[a, size])
        for skill in Skill:
            where = turn.slot.offered.get(skill.value, ())
            if (skill.value in turn.train and value(turn.train[skill.value]) and g not in where
                    and not any((r, g) in seen for r in where)):
                ranks[skill] -= 1
    return Pool.from_counts(team), SkillRanks(**{k.value: n for k, n in ranks.items()})


def claims_in_order(score: LeanScore, value: Callable[[Var], int]) -> bool:
    """A solution's claims stand their towers in the order of the walks its route takes
    (`lean.lean_holds`' walks): on the recruits and training made before each of them."""
    lean, rules = score.lean, score.horizon.rules
    place = score.horizon.me.pawn or OFF
    for t, turn in enumerate(lean.turns):
        outcome = turn.outcome(lean.places, value)
        seen = seen_pairs(place, turn.walks[place, outcome])
        for claim in score.claims:
            if value(claim.at[t]):
                team, ranks = claim_values(score, claim, t, value, seen)
                if not tile_in_reach(claim.tile.spec, team, ranks, rules,
                                     state_limit=TILE_REACH_STATES):
                    return False
        place = outcome.end
    return True


def _collected(score: LeanScore) -> Expr | int:
    """Special tokens the claims collect, at most: a region's lying tokens by a claim there;
    each paid special move or recruit's token (and a paid claim's, by the readings) by a claim
    in the same turn or later: with the order of visits, one in the region it is placed in
    (`_collected_by_region`), else anywhere."""
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
    own = rules.claim_collects_own_token
    if own:
        terms += [v for turn in lean.turns for v in turn.paid_claims]
    if lean.order:
        return cp_model.LinearExpr.sum(terms + _collected_by_region(score, own))
    count = len(lean.turns)
    later = _claims_from(model, [[c.at[t] for c in score.claims] for t in range(count)], "")
    for t, turn in enumerate(lean.turns):
        if isinstance(later[t], int):
            continue
        placers = [turn.paid_move, *turn.paid_recruit.values()]
        if not own:
            placers += turn.paid_claims
        placed = model.new_int_var(0, 1, f"placed{t}")
        model.add(placed <= sum(placers))
        model.add(placed <= later[t])
        terms.append(placed)
    return cp_model.LinearExpr.sum(terms) if terms else 0


def _claims_from(model: cp_model.CpModel, claims: list[list[Var]], name: str
                 ) -> list[Var | int]:
    """Turn t -> whether one of `claims` (per turn) is made in turn t or later (0: none
    can be)."""
    later: list[Var | int] = [0] * (len(claims) + 1)
    for t in reversed(range(len(claims))):
        if not claims[t] and isinstance(later[t + 1], int):
            continue
        var = model.new_bool_var(f"claim_from{t}{name}")
        model.add(var <= later[t + 1] + sum(claims[t]))
        later[t] = var
    return later


def _collected_by_region(score: LeanScore, own: bool) -> list[Var]:
    """Each turn's placed token collected by a claim in its region in the same turn or later:
    a paid recruit's where it recruits, a paid special move's in a region the walk visits (a
    relaxation: which one the walks do not tell), a paid claim's (unless the claim collects
    it back) by another claim there."""
    lean, model, horizon = score.lean, score.model, score.horizon
    count = len(lean.turns)
    terms = []
    moved: list[list[Var]] = [[] for _ in range(count)]  # turn -> its move's token, per region
    for g in horizon.regions:
        mine = [c for c in score.claims if c.region == g]
        if not mine:
            continue
        later = _claims_from(model, [[c.at[t] for c in mine] for t in range(count)], f"_{g}")
        for t, turn in enumerate(lean.turns):
            if isinstance(later[t], int):
                continue
            var = model.new_bool_var(f"collected{t}_{g}")
            model.add(var <= turn.paid_recruit[g])
            model.add(var <= later[t])
            move = model.new_bool_var(f"collected_move{t}_{g}")
            model.add(move <= turn.visited[g])
            model.add(move <= later[t])
            moved[t].append(move)
            terms += [var, move]
            if own:
                continue
            # a paid claim's token, by a claim in g after it: the free one of its turn, or
            # one in a later turn
            after = [later[t + 1]] + [c.at[t] - c.paid[t] for c in mine]
            for c in mine:
                var = model.new_bool_var(f"collected_claim{t}_{c.tile.id}")
                model.add(var <= c.paid[t])
                model.add(var <= sum(after))
                terms.append(var)
    for t, turn in enumerate(lean.turns):
        if moved[t]:
            model.add(sum(moved[t]) <= turn.paid_move)
    return terms


@dataclass(frozen=True)
class LeanScoreGoal:
    """The score goal on the lean model: its result (a sound bound on every plan's points),
    and its plan's route as values of the full model's places (`PlanModel.at`)."""

    result: LeanResult
    route: tuple[tuple[Var, int], ...]
    cuts: Cuts = ()  # the cuts its solves made (`lean_tiles.cut`)
    # its plan's claims stand in the order of its route's walks (`claims_in_order`; always,
    # with the order of visits)
    in_order: bool = True


def lean_score(plan: PlanModel, *, work: float, time_limit: float, seed: int = 0,
               workers: int = 1, linearization: int = LINEARIZATION, order: bool = False,
               cuts: Cuts = (), least: int = 0, most: int | None = None) -> LeanScoreGoal:
    """The most points of `plan`'s horizon by the lean score model (with the order of
    visits when `order`), within `work` deterministic units (and `time_limit` wall seconds,
    the safety net). With the "cuts" tile check, a solution claiming a tile on a team and
    ranks that stand no tower of it is cut off (`lean_tiles.cut`) and the model solved again
    from it, while the budget lasts: proven optimal only when the last solve is and its
    claims all stand. `cuts`: made at once (those of an earlier solve of the same horizon,
    `LeanScoreGoal.cuts`). `least`, `most`: only plans of that many points (a plan found
    elsewhere, a bound known): when none has `least`, the bound is one less (a proof that no
    plan has more). No route when the budget ended before any plan. Its times include
    building the model."""
    cpu, wall = time.process_time(), time.perf_counter()
    score = build_lean_score(plan, order, first_cuts=not cuts)  # given cuts include them
    lean, model = score.lean, score.model
    made = [*score.cuts, *cuts]
    by_tile = {claim.tile.id: claim for claim in score.claims}
    for tile, team, ranks in cuts:
        add_cut(score, by_tile[tile], team, ranks)
    hint_idle(lean)
    for claim in score.claims:  # no claim, no tile tower (a search that tries towers first
        # takes seconds to find any plan)
        for var in claim.at.values():
            model.add_hint(var, 0)
        for slot in claim.layout.slots if claim.layout is not None else ():
            model.add_hint(slot.active, 0)
    # on the caps' domain: the search's bound starts at the caps, not at the parts' sum
    top = score_caps(plan).total if most is None else min(most, score_caps(plan).total)
    points = model.new_int_var(min(least, top), top, "points")
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
        # a solve that found no plan may not have searched at all (stopped in its presolve:
        # its bound is then 0, not a bound); one that found a plan bounds every plan
        if found and math.isfinite(solver.best_objective_bound):
            solved = int(solver.best_objective_bound + 1e-6)
            bound = solved if bound is None else min(bound, solved)
        elif code == cp_model.INFEASIBLE:  # no plan of `least` points: none has more
            bound, status = max(0, least - 1), Status.INFEASIBLE
            break
        if not found:  # the budget ended first: the plan found before (its claims cut) stays
            break
        kept, status = solver, STATUS[code]
        wrong = wrong_claims(score, solver) if lean_tiles.TILE_CHECK == "cuts" else []
        if not wrong or spent >= work or clock or solves >= MOST_SOLVES or cancel_requested():
            break
        for claim, team, ranks in wrong:
            made += [(claim.tile.id, *grown) for grown in cut(score, claim, team, ranks)]
        hint_solution(model, solver)
    if status is Status.INFEASIBLE:  # the route of a plan cut before stays, as a start
        value = None
    else:
        if wrong or kept is not solver:  # its claims stand no tower, or a later solve found
            # none
            status = Status.FEASIBLE if kept is not None else Status.UNKNOWN
        value = round(kept.objective_value) if kept is not None else None
    result = LeanResult(status, value, bound, spent, time.process_time() - cpu,
                        time.perf_counter() - wall, branches, clock)
    in_order = kept is None or order or claims_in_order(score, kept.value)
    return LeanScoreGoal(result, route(plan, lean, kept) if kept is not None else (),
                         tuple(made), in_order)


def route(plan: PlanModel, lean: LeanModel, solver: cp_model.CpSolver
          ) -> tuple[tuple[Var, int], ...]:
    """The lean plan's walk as the full model's place at every stop (`lean_holds`' places)."""
    places = {var.index for stop in plan.at for var in stop.values()}
    return tuple((var, value) for var, value in lean_holds(plan, lean, solver)
                 if var.index in places)

