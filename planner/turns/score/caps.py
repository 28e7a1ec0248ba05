"""The score goal's bounds: what each part of the end-of-game points can add in a plan's
horizon (reach, claims a turn, the trainings a tile needs, winnable prizes and size tokens,
one festival region a turn, a joint relaxation of tiles, tokens and variety), each part
sound; and what a festival's competing opponents make the player need (`rivals`), which
both the caps and the score objective read."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from ortools.sat.python import cp_model

from models.game import (
    SPECIAL,
    FestivalSpace,
    regions_within,
    score_player,
    size_token_points,
)
from models.tower import Skill
from models.tower.skills import MAX_RANK
from planner.tower import configure
from planner.tower.bounds import tile_in_reach
from planner.turns.full.model import PlanModel, TileClaim, flag
from planner.turns.horizon import Horizon
from planner.turns.replay import cached_finder

Expr = cp_model.LinearExpr


@dataclass(frozen=True)
class Rival:
    """What a festival's competing opponents (who take no actions) make the player need."""

    score_for_prize: int | None  # None: no prize for the player at any score
    count_for_token: tuple[tuple[int, int], ...]  # (token size, castellers of it needed)
    # (score needed, points added): reaching each score needed adds its points, so the sum
    # over the scores reached is the prize's points at the rank they give
    prize_steps: tuple[tuple[int, int], ...] = ()


def rivals(horizon: Horizon, space: FestivalSpace) -> Rival:
    """What a festival's competing opponents make the player need for each prize and token."""
    state, rules = horizon.state, horizon.rules
    order = state.turn_order
    me_first = {o: order.index(horizon.player) < order.index(o) for o in order}
    finder = cached_finder()
    towers = {}
    # those standing in its region (the others take no actions); cautious, also every
    # opponent who could stand there when it is held (`Horizon.coming`, empty otherwise)
    coming = horizon.coming.get((space.round, space.location), ())
    for other in state.players:
        if other.name != horizon.player and (other.pawn == space.region or other.name in coming):
            tower = finder(other.team, other.ranks, space.festival, rules)
            if tower is not None:
                towers[other.name] = tower
    chart = horizon.board.prize_chart.get(space.type, {}).get(len(state.players), [])
    needs = sorted((space.festival.score(t) + (0 if rules.prize_ties == "share"
                                              or me_first[name] else 1)
                    for name, t in towers.items()), reverse=True)
    prize = None  # the chart gives no prize at this festival
    if chart:  # the player needs to beat all but len(chart) - 1 of the rivals
        prize = needs[len(chart) - 1] if len(needs) >= len(chart) else 0
    worth = [horizon.board.scoring.prizes.get(p, 0) for p in chart] + [0]
    steps = tuple((needs[q] if q < len(needs) else 0, worth[q] - worth[q + 1])
                  for q in range(len(chart)) if worth[q] != worth[q + 1])
    tokens = []
    for size in space.size_tokens:
        need = 1
        for name, tower in towers.items():
            ties_mine = rules.size_token_ties == "turn-order" and me_first[name]
            need = max(need, tower.size_counts()[size] + (0 if ties_mine else 1))
        tokens.append((size, need))
    return Rival(prize, tuple(tokens), steps)


@dataclass(frozen=True)
class ScoreCaps:
    """The most each part of the score goal's points can add in the horizon (`score_caps`);
    `total` bounds the whole card at the end."""

    held: int  # the card's size tokens, local performances and prizes now: kept
    best: int  # the best tower score
    prizes: int
    size_tokens: int
    variety: int
    tiles: int
    tokens: int  # special tokens collected (their points)
    claims: int  # the most claims the horizon has room for
    new_regions: int  # the most regions newly earned
    reach: tuple[frozenset[str], ...]  # turn -> where the pawn can stand during it
    # turn -> the tiles a team in reach by then stands, in a row in reach
    claimable: tuple[frozenset[str], ...]
    needs: dict[str, int]  # tile -> the fewest trainings a tower for it needs (`tile_needs`)
    local_and_variety: int  # tiles, tokens and variety together (`_claims_relaxed`)

    @property
    def total(self) -> int:
        """No plan of the horizon ends with more points than this."""
        return (self.held + self.best + self.prizes + self.size_tokens
                + min(self.variety + self.tiles + self.tokens, self.local_and_variety))


def score_caps(plan: PlanModel) -> ScoreCaps:
    """The score goal's caps (`_score_caps`), computed once a model."""
    if not isinstance(plan.score_caps, ScoreCaps):
        plan.score_caps = _score_caps(plan)
    return plan.score_caps


def _score_caps(plan: PlanModel) -> ScoreCaps:
    """Each part of the end-of-game card at its most, each sound on its own (both for the
    model and for any legal play the referee replays, opponents idle):
    - reach: in turn t the pawn stands only in `regions_within`'s set for turn t (walked move
      by move on the readings' moves, every stop of the turn included: a claim or a festival
      elsewhere is out of reach);
    - claims: a claim is a special action, the paid one (a token each, and tokens spent never
      exceed those held: collected tokens are points, not tokens) or a special tile's free
      one (a turn that can train where the wheel offers a special tile); with the free one
      not extra, one special action a turn;
    - tiles: the best `claims` tiles of the rows in reach whose tower a team in reach stands
      (`plan.claims`); tokens: a claim collects its region's lying tokens once (the best
      `claims` regions with such a tile), and every paid special action places at most one
      token a later claim can collect (or its own claim collects, by the readings);
    - festivals: only those whose region is in reach at their turn's end and where a team in
      reach competes (`plan.festivals`: its cap); the best tower is the best of those caps
      and the score now; a prize step and a size token only where the rivals' bar is within
      the cap (the size's castellers in reach), a size's first token once;
    - variety: regions newly earned are claim or festival regions in reach, one a claim or a
      festival at most."""
    horizon, board = plan.horizon, plan.horizon.board
    scoring, me = board.scoring, horizon.me
    walked = regions_within(horizon.state, board, horizon.player, horizon.rules,
                            len(horizon.turns))
    reach = tuple(frozenset(r) for r in walked)
    card = score_player(me, board)
    tiles = _tile_caps(plan, reach)
    fests = _festival_caps(plan, reach)
    earned = set(me.earned_regions)
    candidates = (tiles.regions | fests.regions) - earned
    new_regions = min(len(candidates), tiles.claims + fests.turns)
    variety = max(scoring.variety(n) for n in range(len(earned), len(earned) + new_regions + 1))
    joint = _claims_relaxed(plan, reach, tiles.claimable, tiles.needs, tiles.paid,
                            fests.regions, fests.turns)
    if joint is None:  # its solve found nothing: the parts' own caps, together
        joint = tiles.points + tiles.collected * scoring.special_token + variety
    return ScoreCaps(card.size_tokens + card.local_performances + card.prizes, fests.best,
                     fests.prizes, fests.size_points, variety, tiles.points,
                     tiles.collected * scoring.special_token, tiles.claims, new_regions,
                     reach, tiles.claimable, tiles.needs, joint)


@dataclass(frozen=True)
class _TileCaps:
    """The claims' part of the caps: the paid special actions, the claims' room, the tiles
    claimable each turn and the trainings each needs, their best points, the tokens their
    claims can collect, and the regions of the tiles in reach."""

    paid: int
    claims: int
    claimable: tuple[frozenset[str], ...]
    needs: dict[str, int]
    points: int
    collected: int
    regions: set[str]


def _tile_caps(plan: PlanModel, reach: tuple[frozenset[str], ...]) -> _TileCaps:
    horizon, me, rules = plan.horizon, plan.horizon.me, plan.horizon.rules
    turns = horizon.turns
    paid = min(sum(slot.can_special for slot in turns), me.special_tokens)
    free = sum(slot.can_train and SPECIAL in slot.offered for slot in turns)
    claims_room = paid + free if rules.free_special_is_extra else min(paid + free, len(turns))
    needs = tile_needs(plan)
    trained_by = [sum(slot.can_train for slot in turns[:t + 1]) for t in range(len(turns))]
    claimable = tuple(frozenset(c.tile.id for c in plan.claims if c.region in reach[t]
                                and needs.get(c.tile.id, trained_by[t] + 1) <= trained_by[t]
                                and tile_in_reach(c.tile.spec, horizon.upper_pool(t + 1),
                                                  horizon.upper_ranks(t + 1), rules,
                                                  state_limit=plan.budget.tile_reach_states,
                                                  budget=plan.budget.tower))
                      for t in range(len(turns)))
    in_reach = [c for c in plan.claims if any(c.tile.id in ids for ids in claimable)]
    claims = min(claims_room, len(in_reach))
    points = sum(sorted((c.tile.points for c in in_reach), reverse=True)[:claims])
    regions = {c.region for c in in_reach}
    lying = sorted((horizon.state.regions[g].special_tokens for g in regions), reverse=True)
    collected = sum(lying[:claims]) + paid if claims else 0
    return _TileCaps(paid, claims, claimable, needs, points, collected, regions)


@dataclass(frozen=True)
class _FestivalCaps:
    """The festivals' part of the caps: the best tower, the prizes and size tokens' points,
    the regions of the festivals in reach and the turns that hold one."""

    best: int
    prizes: int
    size_points: int
    regions: set[str]
    turns: int


def _festival_caps(plan: PlanModel, reach: tuple[frozenset[str], ...]) -> _FestivalCaps:
    horizon, me = plan.horizon, plan.horizon.me
    best = me.best_tower_score
    # the pawn stands in one region when a turn's round ends: of the festivals of one turn
    # the player competes only in those of one region (turn -> region -> prize, size wins)
    held_at: dict[int, dict[str, tuple[int, dict[int, int]]]] = {}
    regions = set()
    for festival in plan.festivals:
        if festival.space.region not in reach[festival.turn]:
            continue
        regions.add(festival.space.region)
        best = max(best, festival.cap)
        rival = rivals(horizon, festival.space)
        prize, sizes = held_at.setdefault(festival.turn, {}).get(festival.space.region, (0, {}))
        prize += sum(p for need, p in rival.prize_steps if need <= festival.cap and p > 0)
        pool = horizon.upper_pool(festival.turn + 1)
        sizes = dict(sizes)
        for size, need in rival.count_for_token:
            if need <= pool.count(size):
                sizes[size] = sizes.get(size, 0) + 1
        held_at[festival.turn][festival.space.region] = (prize, sizes)
    prizes = sum(max(p for p, _ in at.values()) for at in held_at.values())
    return _FestivalCaps(best, prizes, _size_points(plan, held_at), regions, len(held_at))


def _size_points(plan: PlanModel, held_at: dict[int, dict[str, tuple[int, dict[int, int]]]]
                 ) -> int:
    """The most the size tokens won can add: a size's wins a turn are the most any one
    region gives, and each size's tokens count at their best number."""
    me, board = plan.horizon.me, plan.horizon.board
    wins: dict[int, int] = {}
    for regions in held_at.values():
        for size in {z for _, sizes in regions.values() for z in sizes}:
            wins[size] = wins.get(size, 0) + max(sizes.get(size, 0)
                                                 for _, sizes in regions.values())
    size_points = 0
    for size, won in wins.items():
        values = [size_token_points([size] * (me.size_tokens.count(size) + n), board)
                  - size_token_points([size] * me.size_tokens.count(size), board)
                  for n in range(won + 1)]
        size_points += max(values)
    return size_points


def tile_needs(plan: PlanModel) -> dict[str, int]:
    """Tile -> the fewest trainings any team in reach needs to stand its tower (the tower
    dynamic program on the biggest team in reach of the whole horizon, with the player's
    ranks plus each way to spend that many trainings on the skills the wheel offers); a
    tile no vector stands is left out. Sound: a rank more never loses a tower, and the DP
    says no only when no tower exists (out of states it says yes)."""
    horizon = plan.horizon
    me, rules = horizon.me, horizon.rules
    pool = horizon.upper_pool()
    chances = {k: sum(slot.can_train and k.value in slot.offered for slot in horizon.turns)
               for k in Skill}
    trainings = sum(slot.can_train for slot in horizon.turns)
    extras = sorted((e for e in product(*(range(chances[k] + 1) for k in Skill))
                     if sum(e) <= trainings), key=lambda e: (sum(e), e))
    needs = {}
    for claim in plan.claims:
        if len(extras) > plan.budget.need_vectors:
            needs[claim.tile.id] = 0
            continue
        for extra in extras:
            vector = me.ranks
            for skill, n in zip(Skill, extra, strict=True):
                vector = vector.plus(skill, min(n, MAX_RANK - vector[skill]))
            if tile_in_reach(claim.tile.spec, pool, vector, rules,
                             state_limit=plan.budget.tile_reach_states,
                             budget=plan.budget.tower):
                needs[claim.tile.id] = sum(extra)
                break
    return needs


def _claims_relaxed(plan: PlanModel, reach: tuple[frozenset[str], ...],
                    claimable: tuple[frozenset[str], ...], needs: dict[str, int],
                    paid: int, festival_regions: set[str], festival_turns: int
                    ) -> int | None:
    """Tiles, collected tokens and variety together at their most, in a relaxation of the
    plan: each turn's paid special action claims a tile claimable that turn, its free one
    (a turn that can train) one in a region in reach where the wheel offers a special tile
    (the free action is taken at once, where the tile was trained); a tile once, paid claims
    within the tokens held; a region's lying tokens collected once, by a claim there; every
    paid special action places at most one token a claim collects; a region newly earned
    has a claim there or is a festival's in reach (one a turn with festivals at most). No
    path, team or timing beyond that. None when its solve ends before any assignment (its
    bound then is no bound)."""
    model = cp_model.CpModel()
    tiles = {c.tile.id: c for c in plan.claims}
    x = _relaxed_claims(plan, model, reach, claimable, needs, tiles)
    by_region = _claimed_once(plan, model, x, tiles)
    points = _relaxed_points(plan, model, x, tiles, by_region, paid, festival_regions,
                             festival_turns)
    model.maximize(sum(points))
    solver = cp_model.CpSolver()
    configure(solver, time_limit=plan.budget.wall(1.0), workers=1, seed=0,
              deterministic=plan.budget.relaxed_work)
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):  # never infeasible (no claim
        # fits), but its budget may end first
        return None
    return int(solver.best_objective_bound + 1e-6)


Claims = dict[tuple[int, str, str], cp_model.IntVar]  # (turn, paid or free, tile) -> claimed


def _relaxed_claims(plan: PlanModel, model: cp_model.CpModel,
                    reach: tuple[frozenset[str], ...], claimable: tuple[frozenset[str], ...],
                    needs: dict[str, int], tiles: dict[str, TileClaim]) -> Claims:
    """Each turn's claims: with the paid special action (a tile claimable then), or the free
    one of a special tile trained where the wheel offers it (no other training that turn),
    after the trainings each tile needs; one a turn unless the free special is extra."""
    horizon = plan.horizon
    rules, me = horizon.rules, horizon.me
    x: Claims = {}
    skill = [flag(model, slot.can_train, f"skill{t}") for t, slot in enumerate(horizon.turns)]
    for t, slot in enumerate(horizon.turns):
        kinds = []
        if slot.can_special and me.special_tokens:
            kinds.append(("paid", claimable[t]))
        if slot.can_train and SPECIAL in slot.offered:
            where = set(slot.offered[SPECIAL]) & reach[t]
            kinds.append(("free", frozenset(i for i in claimable[t]
                                            if tiles[i].region in where)))
        turn = []
        for kind, ids in kinds:
            here = [model.new_bool_var(f"x{t}_{kind}_{i}") for i in sorted(ids)]
            x.update({(t, kind, i): v for i, v in zip(sorted(ids), here, strict=True)})
            model.add(sum(here) <= (1 - skill[t] if kind == "free" else 1))
            for i, v in zip(sorted(ids), here, strict=True):
                model.add(sum(skill[:t + 1]) >= needs.get(i, 0)).only_enforce_if(v)
            turn += here
        if not rules.free_special_is_extra:
            model.add(sum(turn) <= 1)
    return x


def _claimed_once(plan: PlanModel, model: cp_model.CpModel, x: Claims,
                  tiles: dict[str, TileClaim]) -> dict[str, list[cp_model.IntVar]]:
    """Paid claims within the tokens held, a tile claimed once; the claims by region."""
    model.add(sum(v for (_, kind, _), v in x.items() if kind == "paid")
              <= plan.horizon.me.special_tokens)
    claimed: dict[str, list[cp_model.IntVar]] = {}
    for (_, _, i), v in x.items():
        claimed.setdefault(i, []).append(v)
    by_region: dict[str, list[cp_model.IntVar]] = {}
    for i, vs in claimed.items():
        model.add(sum(vs) <= 1)
        by_region.setdefault(tiles[i].region, []).extend(vs)
    return by_region


def _relaxed_points(plan: PlanModel, model: cp_model.CpModel, x: Claims,
                    tiles: dict[str, TileClaim], by_region: dict[str, list[cp_model.IntVar]],
                    paid: int, festival_regions: set[str], festival_turns: int
                    ) -> list[cp_model.LinearExprT]:
    """The tiles' points, the tokens collected (a region's lying ones by a claim there, the
    paid special actions' when any claim is made) and the variety of the regions earned."""
    horizon = plan.horizon
    me, scoring = horizon.me, horizon.board.scoring
    any_claim = model.new_bool_var("any_claim")
    model.add(any_claim <= sum(x.values()))
    placed = model.new_int_var(0, paid, "placed")
    model.add(placed <= paid * any_claim)
    points: list[cp_model.LinearExprT] = [tiles[i].tile.points * v for (_, _, i), v in x.items()]
    points.append(scoring.special_token * placed)
    earned = set(me.earned_regions)
    new = []
    for g, vs in sorted(by_region.items()):
        lying = horizon.state.regions[g].special_tokens
        visited = model.new_bool_var(f"claims_in_{g}")
        model.add(visited <= sum(vs))
        points.append(scoring.special_token * lying * visited)
        if g not in earned and g not in festival_regions:
            new.append(visited)
    new_count = min(len(festival_regions - earned), festival_turns) + sum(new)
    table = [scoring.variety(n) for n in range(len(horizon.regions) + 1)]
    variety = model.new_int_var(min(table), max(table), "variety")
    model.add_element(len(earned) + new_count, table, variety)
    points.append(variety)
    return points


def score_cap(plan: PlanModel) -> int:
    """No plan of the horizon ends with more points than this (`score_caps`)."""
    return score_caps(plan).total
