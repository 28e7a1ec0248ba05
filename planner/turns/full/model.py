"""The turn planner's CP-SAT model: the player's turns, time-expanded.

Each turn has `STOPS` stops: the pawn's region at the start, then after each of up to three
moves (the Move action, a paid special move, the free special move a special tile grants).
Every other action happens at a stop, in one order that loses nothing: recruits first, then
the training, then claims (a claim wants the biggest team and ranks, and collects the special
tokens recruits placed). A stop after no move is the same place as the one before, so actions
are only allowed at stops a move reached (no symmetric plans).

Recruits are counts per (stop, region, size), never per casteller. The team and ranks at each
stop feed one tower layout (with limits, see `planner.tower.layout`) per festival in the horizon and
per local performance tile in reach.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from ortools.sat.python import cp_model

from models.game import RECRUIT_LIMIT, SPECIAL, FestivalSpace, PerformanceTile, move_targets
from models.tower import Pool, Rules, Skill, SkillRanks
from planner.clock import now
from planner.stopping import solve_stoppable, stop_requested
from planner.tower import (
    STATUS,
    FestivalTower,
    LayoutCaps,
    Status,
    TowerLayout,
    build_layout,
    configure,
    max_height,
)
from planner.tower.bounds import festival_cap as dp_festival_cap
from planner.tower.bounds import tallest, tile_in_reach
from planner.turns.budget import DEFAULT_BUDGET, PlanBudget
from planner.turns.horizon import Horizon, TurnSlot

Var = cp_model.IntVar
Expr = cp_model.LinearExpr
STOPS = 4
OFF = "(off the board)"
MOVE_KINDS = ("move", "paid", "free")  # the Move action, a paid special move, a free one
SPECIALS = 2  # special actions a turn: the paid one, and the free one of a special tile


@dataclass
class TileClaim:
    """A tile the plan may claim: the tile, its region and a literal per stop."""
    tile: PerformanceTile
    region: str
    at: dict[int, Var]  # stop -> claimed there
    free: dict[int, Var]  # stop -> claimed with the free special action there
    layout: TowerLayout

    @property
    def claimed(self) -> Expr:
        """Whether the tile is claimed, as a model expression."""
        return cp_model.LinearExpr.sum(list(self.at.values()))


@dataclass
class FestivalEntry:
    """A festival in the horizon: its turn, space, eligibility and tower layout."""
    turn: int
    space: FestivalSpace
    eligible: Var
    layout: TowerLayout
    score: Expr  # 0 when the player does not compete (the layout is then empty)
    cap: int  # no team in reach by then scores more here


@dataclass
class PlanModel:
    """The time-expanded CP-SAT model of the planned turns."""
    horizon: Horizon
    model: cp_model.CpModel
    places: list[str]  # regions, and OFF while the pawn is off the board
    at: list[dict[str, Var]]  # stop -> place -> the pawn is there
    claims_on: Var  # false forbids every claim (a goal's stage may not need them)
    move_order: Var  # true: a turn's paid special move comes after its Move (symmetry)
    # (stop, kind) -> the pawn moves on to the next stop
    moves: dict[tuple[int, str], Var] = field(default_factory=dict)
    # (stop, region, size) -> castellers recruited by the Recruit action / a special action
    recruit: dict[tuple[int, str, int], Var] = field(default_factory=dict)
    extra: dict[tuple[int, str, int], Var] = field(default_factory=dict)
    extra_at: list[Expr] = field(default_factory=list)  # stop -> all its special recruits
    free_recruit: dict[int, Var] = field(default_factory=dict)  # stop -> one is the free one
    train: dict[tuple[int, str], Var] = field(default_factory=dict)  # (stop, tile) -> trained
    team: list[dict[int, Var]] = field(default_factory=list)  # stop -> size -> after the stop
    ranks: list[dict[Skill, Var]] = field(default_factory=list)  # stop -> skill -> rank
    paid: list[Expr] = field(default_factory=list)  # turn -> special tokens spent
    claims: list[TileClaim] = field(default_factory=list)
    festivals: list[FestivalEntry] = field(default_factory=list)
    collected: Expr | int = 0  # special tokens collected with claims
    score_caps: object = None  # the score goal's caps, once computed (`score_caps.score_caps`)
    budget: PlanBudget = DEFAULT_BUDGET  # the plan's tuning (its pre-checks', its lean models')

    @property
    def stops(self) -> int:
        """The number of stops (four a turn)."""
        return len(self.at)

    def best_cap(self) -> int:
        """No plan scores more than this at any festival of the horizon."""
        return max((f.cap for f in self.festivals), default=0)

    def tokens_spent(self) -> Expr:
        """Special tokens spent, as a model expression."""
        return cp_model.LinearExpr.sum(self.paid)

    def tile_points(self) -> Expr:
        """Points of the tiles claimed, as a model expression."""
        return cp_model.LinearExpr.sum([c.claimed * c.tile.points for c in self.claims])

    def local_points(self) -> Expr:
        """Local performance points: tiles claimed and tokens collected, as a model expression."""
        per_token = self.horizon.board.scoring.special_token
        return self.tile_points() + self.collected * per_token


def build_plan_model(horizon: Horizon, tiles: set[str] | None = None,
                     budget: PlanBudget = DEFAULT_BUDGET) -> PlanModel:
    """The model; only the tiles in `tiles` (default: all in reach) may be claimed. `budget`
    is kept with it: the models and solves built from it read their tuning there."""
    model = cp_model.CpModel()
    me = horizon.me
    places = list(horizon.regions) + ([OFF] if me.pawn is None else [])
    count = len(horizon.turns) * STOPS
    at = [{g: model.new_bool_var(f"at{i}_{g}") for g in places} for i in range(count)]
    for stop in at:
        model.add_exactly_one(stop.values())
    model.add(at[0][me.pawn or OFF] == 1)
    plan = PlanModel(horizon, model, places, at, model.new_bool_var("claims_on"),
                     model.new_bool_var("move_order"), budget=budget)
    live = _moves(plan)
    _recruits_and_training(plan, live)
    _team_and_ranks(plan)
    _claims(plan, live, tiles)
    _specials(plan)
    _festivals(plan)
    _collected_tokens(plan)
    return plan


def flag(model: cp_model.CpModel, allowed: bool, name: str) -> Var:
    """A Boolean held false when the rules do not allow it this turn (the lean model's too)."""
    var = model.new_bool_var(name)
    if not allowed:
        model.add(var == 0)
    return var


def _moves(plan: PlanModel) -> list[Var | int]:
    """The pawn's moves between stops; returns, per stop, whether a move reached it."""
    model, at, horizon = plan.model, plan.at, plan.horizon
    board, rules = horizon.board, horizon.rules

    def sources(special: bool) -> dict[str, list[str]]:
        """Place -> the places a move (`special`: a special move) reaches it from."""
        order = sorted(horizon.regions) + [OFF] * (OFF in plan.places)  # as the graph's
        reach = {h: move_targets(board, rules, None if h == OFF else h, special)
                 for h in order}
        return {g: [h for h in order if g in reach[h]] for g in plan.places}

    before, from_far = sources(False), sources(True)
    far = before != from_far  # the "any" reading of special moves: they reach further
    live: list[Var | int] = []
    for t, slot in enumerate(horizon.turns):
        allowed = {"move": slot.can_move, "paid": slot.can_special, "free": slot.can_train}
        moved_before: Var | int = 1
        for s in range(STOPS):
            i = t * STOPS + s
            live.append(moved_before)
            if s == STOPS - 1:
                if t + 1 < len(horizon.turns):
                    for g in plan.places:
                        model.add(at[i + 1][g] == at[i][g])
                continue
            kinds = {k: flag(model, allowed[k], f"move{i}_{k}") for k in MOVE_KINDS}
            plan.moves.update({(i, k): v for k, v in kinds.items()})
            moved = model.new_bool_var(f"moved{i}")
            model.add(moved == sum(kinds.values()))
            if s:
                model.add_implication(moved, moved_before)
            for g in plan.places:
                model.add(at[i + 1][g] == at[i][g]).only_enforce_if(moved.Not())
                if not far:
                    model.add(sum(at[i][h] for h in before[g]) >= 1).only_enforce_if(
                        [moved, at[i + 1][g]])
                    continue
                for kind, var in kinds.items():  # a stop's move is of one kind at most
                    origins = before[g] if kind == "move" else from_far[g]
                    model.add(sum(at[i][h] for h in origins) >= 1).only_enforce_if(
                        [var, at[i + 1][g]])
            moved_before = moved
        for kind in MOVE_KINDS:
            model.add(sum(plan.moves[t * STOPS + s, kind] for s in range(STOPS - 1)) <= 1)
        if slot.can_move:
            for s in range(STOPS - 1):
                earlier = [plan.moves[t * STOPS + r, "move"] for r in range(s)]
                model.add(sum(earlier) >= 1).only_enforce_if(
                    [plan.moves[t * STOPS + s, "paid"], plan.move_order])
    return live


def _recruits_and_training(plan: PlanModel, live: list[Var | int]) -> None:
    model, horizon = plan.model, plan.horizon
    for t, slot in enumerate(horizon.turns):
        normal_at = []
        for s in range(STOPS):
            i = t * STOPS + s
            here = model.new_bool_var(f"recruits{i}")
            model.add(here <= live[i])
            normal_at.append(here)
            normal, extra = [], []
            for g in horizon.regions:
                supply = horizon.supply[g]
                mine, more = [], []
                for size in supply.sizes:
                    mine.append(_count(model, slot.can_recruit,
                                       min(RECRUIT_LIMIT, supply.count(size)),
                                       f"rec{i}_{g}_{size}"))
                    more.append(_count(model, slot.can_special or slot.can_train,
                                       min(SPECIALS, supply.count(size)), f"ext{i}_{g}_{size}"))
                    plan.recruit[i, g, size], plan.extra[i, g, size] = mine[-1], more[-1]
                model.add(sum(mine) <= RECRUIT_LIMIT * plan.at[i][g])
                model.add(sum(more) <= SPECIALS * plan.at[i][g])
                normal += mine
                extra += more
            model.add(sum(normal) <= RECRUIT_LIMIT * here)
            model.add(sum(extra) <= SPECIALS * live[i])
            plan.extra_at.append(cp_model.LinearExpr.sum(extra))
            for tile, where in slot.offered.items():
                var = flag(model, slot.can_train, f"train{i}_{tile}")
                model.add(var <= live[i])
                model.add(sum(plan.at[i][g] for g in where) >= 1).only_enforce_if(var)
                plan.train[i, tile] = var
        model.add(sum(normal_at) <= 1)
        model.add(sum(plan.train[t * STOPS + s, tile] for s in range(STOPS)
                      for tile in slot.offered) <= 1)
    for g in horizon.regions:
        supply = horizon.supply[g]
        for size in supply.sizes:
            taken = [plan.recruit[i, g, size] + plan.extra[i, g, size]
                     for i in range(plan.stops)]
            model.add(sum(taken) <= supply.count(size))
    if horizon.cautious:  # no recruit where an opponent could recruit first
        for (i, g, _), var in [*plan.recruit.items(), *plan.extra.items()]:
            if (i // STOPS, g) in horizon.at_risk:
                model.add(var == 0)


def _count(model: cp_model.CpModel, allowed: bool, top: int, name: str) -> Var:
    return model.new_int_var(0, top if allowed else 0, name)


def _team_and_ranks(plan: PlanModel) -> None:
    model, horizon = plan.model, plan.horizon
    upper, top_ranks = horizon.upper_pool(), horizon.upper_ranks()
    team = horizon.me.team
    ranks = horizon.me.ranks
    previous: dict[int, Var | int] = {s: team.count(s) for s in upper.sizes}
    previous_rank: dict[Skill, Var | int] = {k: ranks[k] for k in Skill}
    for i in range(plan.stops):
        now = {}
        for size in upper.sizes:
            var = model.new_int_var(team.count(size), upper.count(size), f"team{i}_{size}")
            added = [plan.recruit[i, g, size] + plan.extra[i, g, size]
                     for g in horizon.regions if (i, g, size) in plan.recruit]
            model.add(var == previous[size] + sum(added))
            now[size] = var
        rank_now = {}
        for skill in Skill:
            var = model.new_int_var(ranks[skill], top_ranks[skill], f"rank{i}_{skill.value}")
            trained = plan.train.get((i, skill.value))
            model.add(var == previous_rank[skill] + (trained if trained is not None else 0))
            rank_now[skill] = var
        plan.team.append(now)
        plan.ranks.append(rank_now)
        previous, previous_rank = dict(now), dict(rank_now)


def _limited_layout(plan: PlanModel, stop: int | None, name: str
                    ) -> tuple[TowerLayout, dict[int, Var], dict[Skill, Var]]:
    """A tower layout on the team and ranks at `stop`, or (stop None) on pool and rank
    variables of its own that the caller ties to the team at some stop. The layout is built
    for the most the team can hold by then: the tighter, the stronger the LP."""
    model, horizon = plan.model, plan.horizon
    turns = None if stop is None else stop // STOPS + 1
    upper, top_ranks = horizon.upper_pool(turns), horizon.upper_ranks(turns)
    if stop is None:
        counts = {s: model.new_int_var(0, upper.count(s), f"{name}_n{s}") for s in upper.sizes}
        ranks = {k: model.new_int_var(0, top_ranks[k], f"{name}_{k.value}") for k in Skill}
    else:
        counts = {s: plan.team[stop][s] for s in upper.sizes}
        ranks = plan.ranks[stop]
    base_any = model.new_bool_var(f"{name}_base_any")
    model.add(base_any <= ranks[Skill.BASE])
    layout = build_layout(model, upper, top_ranks, horizon.rules,
                          limits=LayoutCaps(counts, ranks, base_any))
    return layout, counts, ranks


def end_layout(plan: PlanModel, name: str) -> TowerLayout:
    """A tower layout on the team and ranks at the end of the plan (progress toward a
    festival tower: its height)."""
    return _limited_layout(plan, plan.stops - 1, name)[0]


def castellers_at_end(plan: PlanModel, sizes: Iterable[int] | None = None) -> Expr:
    """The team's castellers at the end of the plan (of `sizes` only, when given)."""
    team = plan.team[-1]
    wanted = team if sizes is None else [z for z in set(sizes) if z in team]
    return cp_model.LinearExpr.sum([team[z] for z in wanted])


def festival_cap(horizon: Horizon, t: int, space: FestivalSpace) -> int | None:
    """No team in reach by the end of turn `t` scores more than this at `space`; None when
    none can compete there at all. The tower dynamic program's best score on the biggest team
    and ranks in reach (more castellers or ranks never lose a tower, so it bounds every team
    the plan can have; 1-25 ms, 3-5 below the height bound plus the token sizes' castellers
    on the benchmark's states), that bound when the program runs out of states. No CP-SAT
    pre-check: one per festival cost 0.3-0.5 s on the shared machine (a 10-turn plan holds
    ten festivals); `tightened_bound` uses one only for the bound of a plan left unproven."""
    top_pool, top_ranks = horizon.upper_pool(t + 1), horizon.upper_ranks(t + 1)
    return dp_festival_cap(space.festival, top_pool, top_ranks, horizon.rules)


def tightened_bound(plan: PlanModel, found: int, deadline: float | None = None
                    ) -> tuple[int, bool]:
    """A bound on the best festival score of any plan, at least `found` (a plan's score):
    the festivals' caps tightened by a pre-check (`_bounded_precheck`), highest caps first,
    until no cap left can exceed the bound or the budget's `bound_prechecks` ran. For an
    unproven plan: a
    proven one needs none (the model's caps are bounds only, see `festival_cap`: a pre-check
    per festival, 0.3-0.5 s each on the shared machine, never sped a proof up on the
    benchmark's states). `deadline` (planner.clock.now()): no pre-check runs past it (the
    caps left stand), a safety net for the command's time limit; the flag returned says it
    stopped one (the bound may then differ from run to run)."""
    horizon, me, budget = plan.horizon, plan.horizon.me, plan.budget
    best = found
    for number, entry in enumerate(sorted(plan.festivals, key=lambda f: -f.cap)):
        if entry.cap <= best:
            break
        if number == budget.bound_prechecks:  # the caps left are no higher than this one's
            return entry.cap, False
        wall = budget.wall(budget.prefilter_wall)
        if deadline is not None:
            wall = min(wall, deadline - now())
            if wall < budget.prefilter_least:
                return max(best, entry.cap), True
        t, space = entry.turn, entry.space
        status, upper = _bounded_precheck(
            FestivalTower(space.festival), me.team, me.ranks, horizon.upper_pool(t + 1),
            horizon.upper_ranks(t + 1), _action_budget(horizon, t + 1), horizon.rules, wall,
            budget.prefilter_work)
        if status is Status.INFEASIBLE:
            continue
        best = max(best, entry.cap if upper is None else min(entry.cap, int(upper)))
    return best, False


@dataclass(frozen=True)
class ActionBudget:
    """What `turns` turns can add to a team, whatever the pawn's path: `recruits` castellers
    by Recruit actions and paid special actions, and `trainings` turns that train (a skill:
    a rank; a special tile: its free special action, at most one casteller more)."""

    recruits: int
    trainings: int


def _action_budget(horizon: Horizon, turns: int) -> ActionBudget:
    slots = horizon.turns[:turns]
    paid = min(sum(s.can_special for s in slots), horizon.me.special_tokens)
    return ActionBudget(RECRUIT_LIMIT * sum(s.can_recruit for s in slots) + paid,
                        sum(s.can_train for s in slots))


# the same question comes back: per festival model, and per horizon of a plan
@lru_cache(maxsize=PlanBudget.precheck_cache)
def _bounded_precheck(question: FestivalTower, team: Pool, ranks: SkillRanks, upper: Pool,
                      top_ranks: SkillRanks, budget: ActionBudget, rules: Rules,
                      wall: float, work: float) -> tuple[Status, float | None]:
    """The best festival score of a team grown from `team` and `ranks` within `upper` and
    `top_ranks` by at most `budget`: every casteller added beyond the Recruit actions' and the
    paid special actions' takes a training turn's free special action, every rank one more
    training turn. A relaxation of the plan model (no path, no supply per region), and far
    tighter than the biggest team in reach alone, which counts 4 castellers a turn of every
    size at once: when a plan reaches it, the plan is proven at once."""
    model = cp_model.CpModel()
    counts = {z: model.new_int_var(0, upper.count(z), f"n{z}") for z in upper.sizes}
    rank = {k: model.new_int_var(ranks[k], top_ranks[k], f"r_{k.value}") for k in Skill}
    base_any = model.new_bool_var("base_any")
    model.add(base_any <= rank[Skill.BASE])
    layout = build_layout(model, upper, top_ranks, rules, limits=LayoutCaps(counts, rank, base_any))
    added = []
    for z, n in counts.items():
        more = model.new_int_var(0, upper.count(z), f"more{z}")
        model.add(more >= n - team.count(z))
        added.append(more)
    trained = sum(rank[k] - ranks[k] for k in Skill)
    model.add(sum(added) <= budget.recruits + budget.trainings - trained)
    model.add(layout.height() <= max_height(upper, top_ranks, rules))
    model.maximize(layout.festival_score(question.festival))
    solver = cp_model.CpSolver()
    configure(solver, time_limit=wall, workers=1, seed=0, deterministic=work)
    status = STATUS.get(solve_stoppable(solver, model), Status.UNKNOWN)
    if status in (Status.OPTIMAL, Status.FEASIBLE):
        return status, solver.best_objective_bound
    return status, None


def could_compete(horizon: Horizon, space: FestivalSpace) -> bool:
    """Could any team in reach by the end of `horizon` compete at `space`: the tower dynamic
    program's answer on the biggest team and ranks in reach (`festival_cap`; exact in ms,
    where a CP-SAT pre-check took 0.1 units and could end undecided)."""
    return festival_cap(horizon, len(horizon.turns) - 1, space) is not None


def _tile_out_of_reach(tile: PerformanceTile, plan: PlanModel) -> bool:
    """No team in reach stands the tile's tower: taller than the tallest tower of the biggest
    team in reach (exact, cached: the layouts need it too), or the tower dynamic program
    finds none on that team within the budget's `tile_reach_states` (a CP-SAT pre-check
    cost ~0.1 s and
    never answered no on the benchmark's states)."""
    horizon = plan.horizon
    pool, ranks = horizon.upper_pool(), horizon.upper_ranks()
    if tile.spec.height > tallest(pool, ranks, horizon.rules, budget=plan.budget.tower):
        return True
    return not tile_in_reach(tile.spec, pool, ranks, horizon.rules,
                             state_limit=plan.budget.tile_reach_states,
                             budget=plan.budget.tower)


class PlanStopped(Exception):
    """The request was cancelled, or its deadline passed, while the model was being built (a
    tile's layout on a team of the whole bag takes a fifth of a second)."""


def _claims(plan: PlanModel, live: list[Var | int], wanted: set[str] | None) -> None:
    model, horizon = plan.model, plan.horizon
    for g in horizon.regions:
        for tile in horizon.tiles[g]:
            if wanted is not None and tile.id not in wanted:
                continue
            if stop_requested():
                raise PlanStopped
            if _tile_out_of_reach(tile, plan):
                continue
            name = f"tile_{tile.id}"
            layout, counts, ranks = _limited_layout(plan, None, name)
            claim = TileClaim(tile, g, {}, {}, layout)
            for i in range(plan.stops):
                slot = horizon.turns[i // STOPS]
                var = flag(model, slot.can_special or slot.can_train, f"{name}@{i}")
                model.add(var <= live[i])
                model.add_implication(var, plan.at[i][g])
                model.add_implication(var, plan.claims_on)
                free = flag(model, slot.can_train, f"{name}@{i}_free")
                model.add_implication(free, var)
                for size, n in counts.items():
                    model.add(n <= plan.team[i][size]).only_enforce_if(var)
                for skill, rank in ranks.items():
                    model.add(rank <= plan.ranks[i][skill]).only_enforce_if(var)
                claim.at[i], claim.free[i] = var, free
            claimed = model.new_bool_var(f"{name}_claimed")
            model.add(claimed == claim.claimed)
            for slot_ in layout.slots:
                model.add_implication(slot_.active, claimed)
            layout.require_tile(tile.spec, when=claimed)
            plan.claims.append(claim)


def _specials(plan: PlanModel) -> None:
    """Each turn: at most one paid special action (a move, a recruit or a claim), tokens
    permitting; a trained special tile grants exactly one free one, taken at once."""
    model, horizon = plan.model, plan.horizon
    for t, slot in enumerate(horizon.turns):
        stops = range(t * STOPS, (t + 1) * STOPS)
        special_trained = {i: plan.train.get((i, SPECIAL)) for i in stops}
        free_recruit, paid_recruit = _special_recruits(plan, t, slot, stops, special_trained)
        free_claims = [c.free[i] for c in plan.claims for i in stops]
        paid_claims = [c.at[i] - c.free[i] for c in plan.claims for i in stops]
        _free_only_where_trained(plan, stops, special_trained)
        free_moves = [plan.moves[i, "free"] for i in stops if i % STOPS < STOPS - 1]
        paid_moves = [plan.moves[i, "paid"] for i in stops if i % STOPS < STOPS - 1]
        trained_special = [v for v in special_trained.values() if v is not None]
        model.add(sum(free_moves) + free_recruit + sum(free_claims) == sum(trained_special))
        spent = sum(paid_moves) + paid_recruit + sum(paid_claims)
        model.add(spent <= (1 if slot.can_special else 0))
        if not horizon.rules.free_special_is_extra:  # the free one is the turn's special
            model.add(spent + sum(trained_special) <= 1)
        plan.paid.append(spent)
    model.add(plan.tokens_spent() <= horizon.me.special_tokens)


def _special_recruits(plan: PlanModel, t: int, slot: TurnSlot, stops: range,
                      special_trained: dict[int, Var | None]) -> tuple[Var, Var]:
    """Turn `t`'s special recruits: the free one (where the special tile is trained) and the
    paid one, each a stop's special recruit; returns both literals."""
    model = plan.model
    free_recruit = model.new_bool_var(f"free_recruit{t}")
    paid_recruit = flag(model, slot.can_special, f"paid_recruit{t}")
    if slot.can_recruit and slot.can_special:
        # dominance, while claims are off (the festival goal's stage): a paid special
        # recruit in a turn whose Recruit action recruits nobody could be that Recruit
        # action instead (same stop, same casteller, no token spent); the token it drops
        # only counts for a later claim
        recruited = [v for (i, _, _), v in plan.recruit.items() if i // STOPS == t]
        model.add(sum(recruited) >= 1).only_enforce_if([paid_recruit, plan.claims_on.Not()])
    for i in stops:
        here = flag(model, special_trained[i] is not None, f"free_recruit_at{i}")
        if special_trained[i] is not None:
            model.add_implication(here, special_trained[i])  # type: ignore[arg-type]
        model.add(plan.extra_at[i] >= here)
        plan.free_recruit[i] = here
    model.add(free_recruit == sum(plan.free_recruit[i] for i in stops))
    model.add(sum(plan.extra_at[i] for i in stops) == paid_recruit + free_recruit)
    return free_recruit, paid_recruit


def _free_only_where_trained(plan: PlanModel, stops: range,
                             special_trained: dict[int, Var | None]) -> None:
    """A free special move or claim only at a stop that trains the special tile."""
    model = plan.model
    for i in stops:
        if i % STOPS < STOPS - 1:
            trained = special_trained[i]
            if trained is None:
                model.add(plan.moves[i, "free"] == 0)
            else:
                model.add_implication(plan.moves[i, "free"], trained)
        for claim in plan.claims:
            if special_trained[i] is None:
                model.add(claim.free[i] == 0)
            else:
                model.add_implication(claim.free[i], special_trained[i])  # type: ignore


def _festivals(plan: PlanModel) -> None:
    model, horizon = plan.model, plan.horizon
    for t, space in horizon.festivals:
        cap = festival_cap(horizon, t, space)
        if cap is None:
            continue
        end = (t + 1) * STOPS - 1
        name = f"festival{space.round}_{space.location}"
        layout, _, _ = _limited_layout(plan, end, name)
        eligible = model.new_bool_var(f"{name}_eligible")
        model.add_implication(eligible, plan.at[end][space.region])
        for slot in layout.slots:
            model.add_implication(slot.active, eligible)
        score = layout.festival_score(space.festival, when=eligible)
        model.add(score <= cap * eligible)
        plan.festivals.append(FestivalEntry(t, space, eligible, layout, score, cap))


def _collected_tokens(plan: PlanModel) -> None:
    """Special tokens the player's claims collect from the rows: those lying there already,
    and those the player's own special actions place there before a later claim."""
    model, horizon = plan.model, plan.horizon
    rules = horizon.rules
    count = plan.stops
    later = _claims_later(plan)
    terms: list[Expr | Var | int] = []
    for g in horizon.regions:
        lying = horizon.state.regions[g].special_tokens
        if lying and not isinstance(later[g][0], int):
            terms.append(lying * later[g][0])
    for i in range(count):
        for amount, where, from_stop in _placed(plan, i):
            for g in horizon.regions:
                chain = later[g]
                if from_stop > count or isinstance(chain[from_stop], int):
                    continue
                token = model.new_bool_var(f"token{i}_{g}_{from_stop}")
                model.add(token <= chain[from_stop])
                model.add(token <= where[g])
                model.add(token <= amount)
                terms.append(token)
    if rules.claim_collects_own_token:
        terms += [c.at[i] - c.free[i] for c in plan.claims for i in range(count)]
    plan.collected = cp_model.LinearExpr.sum(terms) if terms else 0


def _claims_later(plan: PlanModel) -> dict[str, list[Var | int]]:
    """Region -> stop -> a claim there at this stop or later (0 where the region has no
    tile to claim)."""
    model, count = plan.model, plan.stops
    later: dict[str, list[Var | int]] = {}
    for g in plan.horizon.regions:
        here = [c for c in plan.claims if c.region == g]
        chain: list[Var | int] = [0] * (count + 1)
        if here:
            for i in reversed(range(count)):
                var = model.new_bool_var(f"claim_later{i}_{g}")
                claims_now = [c.at[i] for c in here]
                model.add(var <= chain[i + 1] + sum(claims_now))
                chain[i] = var
        later[g] = chain
    return later


def _placed(plan: PlanModel, i: int) -> list[tuple[Expr | Var | int, dict[str, Var], int]]:
    """The tokens the player's paid special actions at stop `i` place: how many, where (a
    place literal per region) and from which stop a claim may collect them (the readings
    say where a move's token lands and whether a claim collects its own)."""
    rules = plan.horizon.rules
    paid_recruit_here = plan.extra_at[i] - plan.free_recruit[i]
    placed: list[tuple[Expr | Var | int, dict[str, Var], int]] = [
        (paid_recruit_here, plan.at[i], i)]
    if i % STOPS != STOPS - 1:
        target = plan.at[i + 1] if rules.token_after_move else plan.at[i]
        placed.append((plan.moves[i, "paid"], target, i + 1))
    if not rules.claim_collects_own_token:
        paid_claims = sum(c.at[i] - c.free[i] for c in plan.claims)
        placed.append((paid_claims, plan.at[i], i + 1))
    return placed


def goal_turns(plan: PlanModel) -> int:
    """The turns the festival goal depends on: through the last festival a team can compete in."""
    return max((f.turn + 1 for f in plan.festivals), default=0)


def _skill_offered_at(slot: TurnSlot, horizon: Horizon) -> set[str]:
    return {g for tile, where in slot.offered.items()
            if tile != SPECIAL and horizon.always_trainable(Skill(tile)) for g in where}


def train_every_turn(plan: PlanModel) -> list[Var]:
    """Dominance, one literal per turn: when true, the turn trains if a skill is offered where
    the pawn starts it. A plan that trains nothing in such a turn could train that skill at
    its first stop, changing nothing else: a rank more never loses a tower (nor a tile). A
    stage holds the literals of the turns its objective looks at (the festival goal's: it
    cuts the proofs' search); elsewhere they are free, and ask nothing."""
    model = plan.model
    literals = []
    for t, slot in enumerate(plan.horizon.turns):
        literal = model.new_bool_var(f"trains{t}")
        literals.append(literal)
        if not slot.can_train:
            continue
        trained = [plan.train[t * STOPS + s, tile] for s in range(STOPS) for tile in slot.offered]
        offering = [plan.at[t * STOPS][g] for g in sorted(_skill_offered_at(slot, plan.horizon))]
        model.add(sum(trained) >= sum(offering)).only_enforce_if(literal)
    return literals


def idle_after(plan: PlanModel, turns: int) -> list[tuple[Var, int]]:
    """The actions of the turns after the first `turns`, held at nothing (for a stage whose
    objective does not look past them)."""
    first = turns * STOPS
    later = [var for (i, _), var in [*plan.moves.items(), *plan.train.items()] if i >= first]
    later += [var for (i, _, _), var in [*plan.recruit.items(), *plan.extra.items()]
              if i >= first]
    later += [var for i, var in plan.free_recruit.items() if i >= first]
    return [(var, 0) for var in later]


def hint_idle(plan: PlanModel) -> None:
    """Hint the plan that takes no action but a training where the pawn stands (through
    `goal_turns`: what `train_every_turn` asks): always feasible, so even a long horizon has
    a plan to improve on from the first moment."""
    model, me = plan.model, plan.horizon.me
    start = me.pawn or OFF
    for stop in plan.at:
        for g, var in stop.items():
            model.add_hint(var, g == start)
    for group in (plan.moves, plan.recruit, plan.extra, plan.free_recruit):
        for var in group.values():
            model.add_hint(var, 0)
    chosen = _idle_trainings(plan, start)
    for (i, tile), var in plan.train.items():
        model.add_hint(var, chosen.get(i) == tile)
    for team in plan.team:
        for size, var in team.items():
            model.add_hint(var, me.team.count(size))
    ranks = me.ranks
    for i, stop_ranks in enumerate(plan.ranks):
        if i in chosen:
            ranks = ranks.plus(Skill(chosen[i]), 1)
        for skill, var in stop_ranks.items():
            model.add_hint(var, ranks[skill])
    _hint_no_tower(plan)


def _idle_trainings(plan: PlanModel, start: str) -> dict[int, str]:
    """Stop -> the skill the idle plan trains there: the first always trainable skill
    offered where the pawn stands, each turn that can train through `goal_turns`."""
    chosen = {}
    for t, turn in enumerate(plan.horizon.turns[:goal_turns(plan)]):
        skills = sorted(k for k, where in turn.offered.items() if k != SPECIAL and start in where
                        and plan.horizon.always_trainable(Skill(k)))
        if turn.can_train and skills:
            chosen[t * STOPS] = skills[0]
    return chosen


def _hint_no_tower(plan: PlanModel) -> None:
    """Hint no claim and no festival tower."""
    model = plan.model
    for claim in plan.claims:
        for var in [*claim.at.values(), *claim.free.values()]:
            model.add_hint(var, 0)
        for slot in claim.layout.slots:
            model.add_hint(slot.active, 0)
    for festival in plan.festivals:
        model.add_hint(festival.eligible, 0)
        for slot in festival.layout.slots:
            model.add_hint(slot.active, 0)
