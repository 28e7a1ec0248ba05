"""The claims' towers in the lean score model (`planner.turns.score.lean`): what a claim of a
tile in a turn asks of the team and ranks at the end of that turn.

Either a tower layout per tile (exact, but its proofs are slow: the search tries towers for
tiles it could never claim) or cuts: where the tower dynamic program proves that a tile has no
tower on a team and ranks, those are grown as far as the tile still has none, and the claim is
cut off every team and ranks below them. The player's team now gives the first cuts; each
solution claiming on a team that stands no tower gives more (`wrong_claims`), and the model is
solved again from that solution. Both are sound: the DP says no only when no tower exists.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from models.game import PerformanceTile
from models.tower import Pool, ShapeTile, Skill, SkillRanks
from planner.tower import LayoutCaps, build_layout
from planner.tower.bounds import tile_in_reach
from planner.turns.score.lean_model import LeanClaim, LeanScore, claim_values

# (`PlanBudget.tile_check`; measured and dropped: what each tile needs of each size, 1 s of DP
# calls a model and no fewer units; caps per rank vector for claims, 0.5 s)


def claim_towers(score: LeanScore, first_cuts: bool = True
                 ) -> list[tuple[LeanClaim, Pool, SkillRanks]]:
    """What a claim in turn t asks of the team and ranks at the end of t: the tile's tower
    (`PlanBudget.tile_check` "layouts": a tower layout each tile; "cuts": with `first_cuts`,
    the cuts of the player's team and ranks now where they stand no tower of it, then those of each
    solution's claims that no team stands, `lean_score`), and at least the castellers it
    holds. Returns the cuts made."""
    made = []
    budget = score.lean.budget
    for claim in score.claims:
        if budget.tile_check == "layouts":
            _tile_layout(score, claim)
        elif first_cuts:
            me, rules = score.horizon.me, score.horizon.rules
            if not tile_in_reach(claim.tile.spec, me.team, me.ranks, rules,
                                 state_limit=score.lean.budget.tile_reach_states,
                                 budget=score.lean.budget.tower):
                # the cuts the solves would find first
                made += [(claim, *grown) for grown in cut(score, claim, me.team, me.ranks)]
        if budget.tile_castellers:
            least = _least_castellers(claim.tile)
            for t, at in claim.at.items():
                score.model.add(sum(score.team_at(claim, t).values()) >= least
                                ).only_enforce_if(at)
    return made


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
                          limits=LayoutCaps(counts, ranks, base_any))
    for t, at in claim.at.items():
        for size, n in counts.items():
            model.add(n <= score.team_at(claim, t)[size]).only_enforce_if(at)
        for skill, rank in ranks.items():
            model.add(rank <= score.ranks_at(claim, t)[skill]).only_enforce_if(at)
    claimed = model.new_bool_var(f"{name}_claimed")
    model.add(claimed == claim.claimed)
    for slot in layout.slots:
        model.add_implication(slot.active, claimed)
    layout.require_tile(claim.tile.spec, when=claimed)
    claim.layout = layout


def cut(score: LeanScore, claim: LeanClaim, team: Pool, ranks: SkillRanks
        ) -> list[tuple[Pool, SkillRanks]]:
    """No claim of the tile on a team within `team` and ranks within `ranks`, where the tower
    dynamic program proves no tower: each grown to as much as still stands none (a casteller
    or a rank at a time, within what is in reach; the sizes once smallest first, once largest
    first: two cuts), so that one cut rules out every team below it. Returns the cuts made
    (`add_cut` makes them in another model of the same horizon)."""
    upper = score.horizon.upper_pool()
    made: list[tuple[Pool, SkillRanks]] = []
    for sizes in (upper.sizes, tuple(reversed(upper.sizes))):
        grown = _grown(score, claim, team, ranks, sizes)
        if grown not in made:
            made.append(grown)
            add_cut(score, claim, *grown)
    return made


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
            if tile_in_reach(spec, more, ranks, rules,
                             state_limit=score.lean.budget.tile_reach_states,
                             budget=score.lean.budget.tower):
                break
            counts[size] = counts.get(size, 0) + 1
    team = Pool.from_counts(counts)
    for skill in Skill:
        while ranks[skill] < top[skill]:
            if tile_in_reach(spec, team, ranks.plus(skill), rules,
                             state_limit=score.lean.budget.tile_reach_states,
                             budget=score.lean.budget.tower):
                break
            ranks = ranks.plus(skill)
    return team, ranks


def add_cut(score: LeanScore, claim: LeanClaim, team: Pool, ranks: SkillRanks) -> None:
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
                model.add(score.team_at(claim, t)[size] >= team.count(size) + 1
                          ).only_enforce_if(var)
                grown.append(var)
        for skill in Skill:
            if ranks[skill] < top[skill]:
                var = model.new_bool_var(f"cut{t}_{claim.tile.id}_{skill.value}")
                model.add(score.ranks_at(claim, t)[skill] >= ranks[skill] + 1
                          ).only_enforce_if(var)
                grown.append(var)
        model.add_bool_or(grown).only_enforce_if(at)


def wrong_claims(score: LeanScore, solver: cp_model.CpSolver
                  ) -> list[tuple[LeanClaim, Pool, SkillRanks]]:
    """The solution's claims whose team and ranks (at the end of their turn) stand no tower
    of the tile, by the tower dynamic program."""
    wrong = []
    rules = score.horizon.rules
    for claim in score.claims:
        for t, at in claim.at.items():
            if not solver.boolean_value(at):
                continue
            team, ranks = claim_values(score, claim, t, solver.value)
            if not tile_in_reach(claim.tile.spec, team, ranks, rules,
                                 state_limit=score.lean.budget.tile_reach_states,
                                 budget=score.lean.budget.tower):
                wrong.append((claim, team, ranks))
    return wrong


def _least_castellers(tile: PerformanceTile) -> int:
    """No tower for the tile has fewer castellers: a shape's count, an exhibition's levels."""
    spec = tile.spec
    return sum(spec.counts) if isinstance(spec, ShapeTile) else spec.height
