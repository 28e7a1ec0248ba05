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

import time
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from models.game import RECRUIT_LIMIT, SPECIAL, PerformanceTile
from models.tower import Pool, ShapeTile, Skill, SkillRanks
from planner.stopping import solve_stoppable
from planner.tower import (
    STATUS,
    Limits,
    Status,
    TowerLayout,
    build_layout,
    configure,
    stopped_by_clock,
)
from planner.tower.bounds import tile_in_reach
from planner.turns.horizon import Horizon
from planner.turns.lean import (
    LeanFestival,
    LeanModel,
    LeanResult,
    build_lean_model,
    hint_idle,
    lean_holds,
)
from planner.turns.model import TILE_REACH_STATES, PlanModel, flag
from planner.turns.score_caps import ScoreCaps, score_caps
from planner.turns.stages import LIGHT_PROBING, _hint_solution

Var = cp_model.IntVar
Expr = cp_model.LinearExpr
# no LP relaxation: with it (level 1) a 2-turn proof took 2.8 units against 2.1, level 2
# did not prove in 4 (p4-s43-r08, tile layouts); 3 turns did not prove in 8 (p3-s32-r04)
LINEARIZATION = 0
# a claim's tower: "layouts" (a tower layout per tile, exact: proofs of 2 units and more on
# 2-turn horizons, p4-s43-r08, p2-s22-r05) or "cuts" (a cut off the teams and ranks that the
# tower dynamic program proves stand no tower, where a solution claims on one: the same
# optima in 0.2-0.3 units there); measured and dropped: what each tile needs of each size
# (1 s of DP calls a model, no fewer units), caps per rank vector for claims (0.5 s)
TILE_CHECK = "cuts"
MOST_SOLVES = 20  # solves with cuts (each cuts every claim found wrong)
# one presolve pass and a short probing (`stages.LIGHT_PROBING`): CP-SAT's default presolve
# probed twice for about half a unit each, and a 3-turn model at 1.5 units then ended with
# no search at all (p2-s22-r05); on 8 of the benchmark's 2- and 3-turn plans the proofs took
# 0.4-2.1 units with the short probing against 0.9-2.4 with one pass of the default one
PRESOLVE_ITERATIONS = 1
PROBING = LIGHT_PROBING
# a claim only on a team of at least the castellers the tile holds (redundant, to prune)
TILE_CASTELLERS = True
# dominances the score goal allows (`_trains_where_visited`, `_recruits_when_able`)
TRAIN_WHERE_VISITED = True
RECRUIT_WHEN_ABLE = True


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
    if TRAIN_WHERE_VISITED:
        _trains_where_visited(lean)
    if RECRUIT_WHEN_ABLE:
        _recruits_when_able(lean)
    _claim_towers(score)
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
            claimable = tile.id in caps.claimable[t] and g in turn.visited
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


def _claim_towers(score: LeanScore) -> None:
    """What a claim in turn t asks of the team and ranks at the end of t: the tile's tower
    (`TILE_CHECK` "layouts": a tower layout each tile; "cuts": the cuts of the player's team
    and ranks now where they stand no tower of it, then those of each solution's claims that
    no team stands, `lean_score`), and at least the castellers it holds."""
    _team_vars(score)
    for claim in score.claims:
        if TILE_CHECK == "layouts":
            _tile_layout(score, claim)
        else:
            me, rules = score.horizon.me, score.horizon.rules
            if not tile_in_reach(claim.tile.spec, me.team, me.ranks, rules,
                                 state_limit=TILE_REACH_STATES):
                _cut(score, claim, me.team, me.ranks)  # the cuts the solves would find first
        if TILE_CASTELLERS:
            least = _least_castellers(claim.tile)
            for t, at in claim.at.items():
                score.model.add(sum(score.teams[t].values()) >= least).only_enforce_if(at)


def _tile_layout(score: LeanScore, claim: LeanClaim) -> None:
    """The tile's tower as a layout on the team and ranks of the turn it is claimed in."""
    model, horizon = score.model, score.horizon
    upper, top_ranks = horizon.upper_pool(), horizon.upper_ranks()
    name = f"lean_tile_{claim.tile.id}"
    counts = {s: model.new_int_var(0, upper.count(s), f"{name}_n{s}") for s in upper.sizes}
    ranks = {k: model.new_int_var(0, top_ranks[k], f"{name}_{k.value}") for k in Skill}
    base_any = model.new_bool_var(f"{name}_base_any")
    model.add(base_any <= ranks[Skill.BASE])
    layout = build_layout(model, upper, top_ranks, horizon.rules,
                          limits=Limits(counts, ranks, base_any))
    for t, at in claim.at.items():
        for size, n in counts.items():
            model.add(n <= score.teams[t][size]).only_enforce_if(at)
        for skill, rank in ranks.items():
            model.add(rank <= score.ranks[t][skill]).only_enforce_if(at)
    claimed = model.new_bool_var(f"{name}_claimed")
    model.add(claimed == claim.claimed)
    for slot in layout.slots:
        model.add_implication(slot.active, claimed)
    layout.require_tile(claim.tile.spec, when=claimed)
    claim.layout = layout


def _cut(score: LeanScore, claim: LeanClaim, team: Pool, ranks: SkillRanks) -> None:
    """No claim of the tile on a team within `team` and ranks within `ranks`, where the tower
    dynamic program proves no tower: each grown to as much as still stands none (a casteller
    or a rank at a time, within what is in reach; the sizes once smallest first, once largest
    first: two cuts), so that one cut rules out every team below it."""
    upper = score.horizon.upper_pool()
    seen = set()
    for sizes in (upper.sizes, tuple(reversed(upper.sizes))):
        grown = _grown(score, claim, team, ranks, sizes)
        if grown not in seen:
            seen.add(grown)
            _add_cut(score, claim, *grown)


def _grown(score: LeanScore, claim: LeanClaim, team: Pool, ranks: SkillRanks,
           sizes: tuple[int, ...]) -> tuple[Pool, SkillRanks]:
    """`team` and `ranks` grown, size by size in the order `sizes` and then skill by skill,
    as far as the tile still has no tower on them."""
    horizon, rules, spec = score.horizon, score.horizon.rules, claim.tile.spec
    upper, top = horizon.upper_pool(), horizon.upper_ranks()
    counts = team.counts()
    for size in sizes:
        while counts.get(size, 0) < upper.count(size):
            more = Pool.from_counts({**counts, size: counts.get(size, 0) + 1})
            if tile_in_reach(spec, more, ranks, rules, state_limit=TILE_REACH_STATES):
                break
            counts[size] = counts.get(size, 0) + 1
    team = Pool.from_counts(counts)
    for skill in Skill:
        while ranks[skill] < top[skill]:
            if tile_in_reach(spec, team, ranks.plus(skill), rules,
                             state_limit=TILE_REACH_STATES):
                break
            ranks = ranks.plus(skill)
    return team, ranks


def _add_cut(score: LeanScore, claim: LeanClaim, team: Pool, ranks: SkillRanks) -> None:
    """A claim of the tile in any turn needs a casteller of some size more than `team`, or a
    rank of some skill more than `ranks` (none when the tile then stands on nothing in
    reach)."""
    model, horizon = score.model, score.horizon
    upper, top = horizon.upper_pool(), horizon.upper_ranks()
    for t, at in claim.at.items():
        grown = []
        for size in upper.sizes:
            if team.count(size) < upper.count(size):
                var = model.new_bool_var(f"cut{t}_{claim.tile.id}_{size}")
                model.add(score.teams[t][size] >= team.count(size) + 1).only_enforce_if(var)
                grown.append(var)
        for skill in Skill:
            if ranks[skill] < top[skill]:
                var = model.new_bool_var(f"cut{t}_{claim.tile.id}_{skill.value}")
                model.add(score.ranks[t][skill] >= ranks[skill] + 1).only_enforce_if(var)
                grown.append(var)
        model.add_bool_or(grown).only_enforce_if(at)


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
    while True:
        left = max(0.01, time_limit - (time.perf_counter() - wall))
        solver = _solver(left, max(0.01, work - spent), linearization, seed, workers)
        code = solve_stoppable(solver, model)
        if code == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT rejected the lean score model: {model.validate()}")
        solves += 1
        spent += solver.response_proto.deterministic_time
        branches += int(solver.num_branches)
        clock = clock or stopped_by_clock(solver)
        status = STATUS.get(code, Status.UNKNOWN)
        found = status in (Status.OPTIMAL, Status.FEASIBLE)
        if found:
            solved = int(solver.best_objective_bound + 1e-6)
            bound = solved if bound is None else min(bound, solved)
        wrong = _wrong_claims(score, solver) if found and TILE_CHECK == "cuts" else []
        if not wrong or spent >= work or clock or solves >= MOST_SOLVES:
            break
        for claim, team, ranks in wrong:
            _cut(score, claim, team, ranks)
        _hint_solution(model, solver)
    if wrong and status is Status.OPTIMAL:  # optimal without the cuts still to come
        status = Status.FEASIBLE
    value = round(solver.objective_value) if found else None
    result = LeanResult(status, value, bound, spent, time.process_time() - cpu,
                        time.perf_counter() - wall, branches, clock)
    return LeanScoreGoal(result, route(plan, lean, solver) if found else ())


def _solver(time_limit: float, work: float, linearization: int, seed: int, workers: int
            ) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    configure(solver, time_limit=time_limit, workers=workers, seed=seed, deterministic=work)
    solver.parameters.linearization_level = linearization
    solver.parameters.cp_model_probing_level = 1  # as the full model's stages
    solver.parameters.max_presolve_iterations = PRESOLVE_ITERATIONS
    solver.parameters.probing_deterministic_time_limit = PROBING
    return solver


def _wrong_claims(score: LeanScore, solver: cp_model.CpSolver
                  ) -> list[tuple[LeanClaim, Pool, SkillRanks]]:
    """The solution's claims whose team and ranks (at the end of their turn) stand no tower
    of the tile, by the tower dynamic program."""
    wrong = []
    rules = score.horizon.rules
    for claim in score.claims:
        for t, at in claim.at.items():
            if not solver.boolean_value(at):
                continue
            team = Pool.from_counts({z: solver.value(v) for z, v in score.teams[t].items()})
            ranks = SkillRanks(**{k.value: solver.value(v) for k, v in score.ranks[t].items()})
            if not tile_in_reach(claim.tile.spec, team, ranks, rules,
                                 state_limit=TILE_REACH_STATES):
                wrong.append((claim, team, ranks))
    return wrong


def route(plan: PlanModel, lean: LeanModel, solver: cp_model.CpSolver
          ) -> tuple[tuple[Var, int], ...]:
    """The lean plan's walk as the full model's place at every stop (`lean_holds`' places)."""
    places = {var.index for stop in plan.at for var in stop.values()}
    return tuple((var, value) for var, value in lean_holds(plan, lean, solver)
                 if var.index in places)


def _trains_where_visited(lean: LeanModel) -> None:
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
        for g in offering & set(turn.visited):
            model.add(sum(trainings) >= turn.visited[g])


def _recruits_when_able(lean: LeanModel) -> None:
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


def _least_castellers(tile: PerformanceTile) -> int:
    """No tower for the tile has fewer castellers: a shape's count, an exhibition's levels."""
    spec = tile.spec
    return sum(spec.counts) if isinstance(spec, ShapeTile) else spec.height
