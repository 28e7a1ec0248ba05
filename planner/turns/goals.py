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

from dataclasses import dataclass, replace
from itertools import product

from ortools.sat.python import cp_model

from models.errors import SpecError
from models.game import (
    SPECIAL,
    Board,
    FestivalSpace,
    GameState,
    regions_within,
    score_player,
    size_token_points,
)
from models.tower import Skill
from models.tower.skills import MAX_RANK
from planner.tower import configure
from planner.tower.bounds import tile_in_reach
from planner.turns.horizon import Goal
from planner.turns.model import (
    OFF,
    STOPS,
    TILE_REACH_STATES,
    FestivalEntry,
    PlanModel,
    castellers_at_end,
    end_layout,
    flag,
    goal_turns,
    idle_after,
    train_every_turn,
)
from planner.turns.replay import cached_finder
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


@dataclass(frozen=True)
class Rival:
    """What a festival's competing opponents (who take no actions) make the player need."""

    score_for_prize: int | None  # None: no prize for the player at any score
    count_for_token: tuple[tuple[int, int], ...]  # (token size, castellers of it needed)
    # (score needed, points added): reaching each score needed adds its points, so the sum
    # over the scores reached is the prize's points at the rank they give
    prize_steps: tuple[tuple[int, int], ...] = ()


def rivals(plan: PlanModel, space: FestivalSpace) -> Rival:
    """What a festival's competing opponents make the player need for each prize and token."""
    horizon = plan.horizon
    state, rules = horizon.state, horizon.rules
    order = state.turn_order
    me_first = {o: order.index(horizon.player) < order.index(o) for o in order}
    finder = cached_finder()
    towers = {}
    for other in state.players:
        if other.name != horizon.player and other.pawn == space.region:
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


def points(plan: PlanModel) -> Expr:
    """The player's end-of-game card at the end of the horizon."""
    model, horizon = plan.model, plan.horizon
    me, board = horizon.me, horizon.board
    scoring = board.scoring
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
    best = model.new_int_var(0, caps.best, "best_tower")
    model.add_max_equality(best, [me.best_tower_score, *[f.score for f in plan.festivals]])
    earned_by: dict[str, list[cp_model.IntVar]] = {g: [] for g in horizon.regions}
    won_of_size: dict[int, list[cp_model.IntVar]] = {}
    prizes: list[Expr] = []
    for festival in plan.festivals:
        rival = rivals(plan, festival.space)
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
    scoring, me, rules = board.scoring, horizon.me, horizon.rules
    turns = horizon.turns
    walked = regions_within(horizon.state, board, horizon.player, rules, len(turns))
    reach = tuple(frozenset(r) for r in walked)
    card = score_player(me, board)
    paid = min(sum(slot.can_special for slot in turns), me.special_tokens)
    free = sum(slot.can_train and SPECIAL in slot.offered for slot in turns)
    claims_room = paid + free if rules.free_special_is_extra else min(paid + free, len(turns))
    needs = tile_needs(plan)
    trained_by = [sum(slot.can_train for slot in turns[:t + 1]) for t in range(len(turns))]
    claimable = tuple(frozenset(c.tile.id for c in plan.claims if c.region in reach[t]
                                and needs.get(c.tile.id, trained_by[t] + 1) <= trained_by[t]
                                and tile_in_reach(c.tile.spec, horizon.upper_pool(t + 1),
                                                  horizon.upper_ranks(t + 1), rules,
                                                  state_limit=TILE_REACH_STATES))
                      for t in range(len(turns)))
    in_reach = [c for c in plan.claims if any(c.tile.id in ids for ids in claimable)]
    claims = min(claims_room, len(in_reach))
    tiles = sum(sorted((c.tile.points for c in in_reach), reverse=True)[:claims])
    claim_regions = {c.region for c in in_reach}
    lying = sorted((horizon.state.regions[g].special_tokens for g in claim_regions),
                   reverse=True)
    collected = sum(lying[:claims]) + paid if claims else 0
    best = me.best_tower_score
    size_points = 0
    # the pawn stands in one region when a turn's round ends: of the festivals of one turn
    # the player competes only in those of one region (turn -> region -> prize, size wins)
    held_at: dict[int, dict[str, tuple[int, dict[int, int]]]] = {}
    festival_regions = set()
    for festival in plan.festivals:
        if festival.space.region not in reach[festival.turn]:
            continue
        festival_regions.add(festival.space.region)
        best = max(best, festival.cap)
        rival = rivals(plan, festival.space)
        prize, sizes = held_at.setdefault(festival.turn, {}).get(festival.space.region, (0, {}))
        prize += sum(p for need, p in rival.prize_steps if need <= festival.cap and p > 0)
        pool = horizon.upper_pool(festival.turn + 1)
        sizes = dict(sizes)
        for size, need in rival.count_for_token:
            if need <= pool.count(size):
                sizes[size] = sizes.get(size, 0) + 1
        held_at[festival.turn][festival.space.region] = (prize, sizes)
    prizes = sum(max(p for p, _ in regions.values()) for regions in held_at.values())
    wins: dict[int, int] = {}
    for regions in held_at.values():  # a size's wins a turn: the most any one region gives
        for size in {z for _, sizes in regions.values() for z in sizes}:
            wins[size] = wins.get(size, 0) + max(sizes.get(size, 0)
                                                 for _, sizes in regions.values())
    for size, won in wins.items():
        values = [size_token_points([size] * (me.size_tokens.count(size) + n), board)
                  - size_token_points([size] * me.size_tokens.count(size), board)
                  for n in range(won + 1)]
        size_points += max(values)
    earned = set(me.earned_regions)
    candidates = (claim_regions | festival_regions) - earned
    new_regions = min(len(candidates), claims + len(held_at))
    variety = max(scoring.variety(n) for n in range(len(earned), len(earned) + new_regions + 1))
    joint = _claims_relaxed(plan, reach, claimable, needs, paid, festival_regions,
                            len(held_at))
    return ScoreCaps(card.size_tokens + card.local_performances + card.prizes, best, prizes,
                     size_points, variety, tiles, collected * scoring.special_token, claims,
                     new_regions, reach, claimable, needs, joint)


# the most rank vectors tried for a tile's trainings needed (`tile_needs`; 56 at 3 turns);
# with more the tile needs none (sound: the caps stay those of the biggest ranks)
NEED_VECTORS = 300


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
        if len(extras) > NEED_VECTORS:
            needs[claim.tile.id] = 0
            continue
        for extra in extras:
            vector = me.ranks
            for skill, n in zip(Skill, extra, strict=True):
                vector = vector.plus(skill, min(n, MAX_RANK - vector[skill]))
            if tile_in_reach(claim.tile.spec, pool, vector, rules,
                             state_limit=TILE_REACH_STATES):
                needs[claim.tile.id] = sum(extra)
                break
    return needs


# the claims' relaxation is a small assignment (at most 2 special actions a turn, 14 tiles):
# proven optimal in 0.016 units at most (5 benchmark states, 1-3 turns); its bound if not
RELAXED_WORK = 0.05


def _claims_relaxed(plan: PlanModel, reach: tuple[frozenset[str], ...],
                    claimable: tuple[frozenset[str], ...], needs: dict[str, int],
                    paid: int, festival_regions: set[str], festival_turns: int) -> int:
    """Tiles, collected tokens and variety together at their most, in a relaxation of the
    plan: each turn's paid special action claims a tile claimable that turn, its free one
    (a turn that can train) one in a region in reach where the wheel offers a special tile
    (the free action is taken at once, where the tile was trained); a tile once, paid claims
    within the tokens held; a region's lying tokens collected once, by a claim there; every
    paid special action places at most one token a claim collects; a region newly earned
    has a claim there or is a festival's in reach (one a turn with festivals at most). No
    path, team or timing beyond that."""
    horizon = plan.horizon
    rules, me, scoring = horizon.rules, horizon.me, horizon.board.scoring
    model = cp_model.CpModel()
    tiles = {c.tile.id: c for c in plan.claims}
    x: dict[tuple[int, str, str], cp_model.IntVar] = {}
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
    model.add(sum(v for (_, kind, _), v in x.items() if kind == "paid") <= me.special_tokens)
    claimed: dict[str, list[cp_model.IntVar]] = {}
    for (_, _, i), v in x.items():
        claimed.setdefault(i, []).append(v)
    by_region: dict[str, list[cp_model.IntVar]] = {}
    for i, vs in claimed.items():
        model.add(sum(vs) <= 1)
        by_region.setdefault(tiles[i].region, []).extend(vs)
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
    model.maximize(sum(points))
    solver = cp_model.CpSolver()
    configure(solver, time_limit=1.0, workers=1, seed=0, deterministic=RELAXED_WORK)
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):  # never infeasible: no claim fits
        return max(table)
    return int(solver.best_objective_bound + 1e-6)



def score_cap(plan: PlanModel) -> int:
    """No plan of the horizon ends with more points than this (`score_caps`)."""
    return score_caps(plan).total


def _prize_points(plan: PlanModel, festival: FestivalEntry, rival: Rival) -> list[Expr]:
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


def _contest(plan: PlanModel, festival: FestivalEntry, rival: Rival
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
