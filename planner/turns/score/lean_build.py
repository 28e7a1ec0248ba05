"""The score goal on the lean model: the most end-of-game points by a model that follows the
pawn's route turn by turn (`planner.turns.lean.solve`), a relaxation of the full plan model.

The full model's score stage ends unproven at 3 turns with its bound at the caps
(`planner.turns.score.caps`): those add each part at its most anywhere in reach, while a pawn
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

from ortools.sat.python import cp_model

from models.game import RECRUIT_LIMIT, SPECIAL
from models.tower import Skill
from planner.turns.full.model import SPECIALS, PlanModel, flag
from planner.turns.lean.model import (
    LeanModel,
    build_lean_model,
)
from planner.turns.score.caps import ScoreCaps, score_caps
from planner.turns.score.dominance import dominances
from planner.turns.score.lean_model import LeanClaim, LeanScore
from planner.turns.score.stages import card
from planner.turns.score.tiles import claim_towers

Var = cp_model.IntVar
Expr = cp_model.LinearExpr


def build_lean_score(plan: PlanModel, order: bool = False, first_cuts: bool = True
                     ) -> LeanScore:
    """The lean score model of `plan`'s horizon (its tiles are `plan.claims`', its caps
    `score_caps(plan)`); its objective `points` is to maximise. `order`: with the order of
    each turn's visits (`_claim_teams`, `_collected_by_region`): tighter, and slower.
    `first_cuts`: with the cuts of the player's team now (`lean_tiles.claim_towers`; in
    `LeanScore.cuts`)."""
    horizon, caps = plan.horizon, score_caps(plan)
    claims: list[LeanClaim] = []
    lean = build_lean_model(horizon, turns=len(horizon.turns),
                            claims=lambda lean: claims.extend(_claims(lean, plan, caps)),
                            order=order, budget=plan.budget)
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


