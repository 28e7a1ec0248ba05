"""The festival goal's first stage as a model of its own: the best festival score, and nothing
the full plan model (`planner.turns.full.model`) holds for its tie-breaks.

The full model's proof of the festival goal is long: which skills to train, tried against the
pawn's routes and recruits, with stops, move kinds and per-stop actions giving CP-SAT little to
propagate. Here each turn's walk is ONE table constraint over what the festival can use of it:
the region the turn starts in, the one it ends in, the regions visited on the way, and whether
it spends the paid special move or the free one of a special tile. The walks are enumerated in
Python (a few dozen outcomes a turn and start region on the default board), and an outcome
that another one beats (more regions visited, no special action more) is dropped: it never
makes a better festival tower. And each festival gets a cap per rank vector (`_rank_caps`): the
tower dynamic program's best score on the biggest team in reach with exactly those ranks, which
tells at once which trainings are worth trying (measured: the walk table alone was no faster).

The rest is the same rules as the full model, per turn instead of per stop: the Recruit
action takes at most 2 castellers from one visited region; a paid special recruit takes 1 from
a visited region (not in a turn whose paid special is a move; tokens permitting); the free
special action of a special tile trained in a visited region that offers it is a move or a
recruit of 1 there (the turn trains nothing else); supplies are shared across turns; cautious
mode's regions at risk recruit nothing; the team and ranks exist only at the end of each
festival's turn, where the tower layout (with the tower dynamic program's cap) sits. No claims,
no token chain, no move order (the score model adds claims, and on request the order of each
walk's visits: `planner.turns.score.lean`). Dominance as in the goal's stage of the full
model: a turn that starts where a skill is offered trains, nothing happens after the last
festival, and a paid special recruit comes only in a turn whose Recruit action recruits
someone. Special moves go to an adjacent region, as in the full model (which does not read
`rules.special_move`).

The solves, one festival at a time, are `planner.turns.lean.solve`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product

from ortools.sat.python import cp_model

from models.game import RECRUIT_LIMIT, SPECIAL, Board, FestivalSpace, move_targets
from models.tower import Rules, Skill
from models.tower.skills import MAX_RANK
from planner.tower import (
    LayoutCaps,
    TowerLayout,
    build_layout,
)
from planner.tower.bounds import festival_cap as dp_festival_cap
from planner.turns.budget import DEFAULT_BUDGET, PlanBudget
from planner.turns.full.model import (
    OFF,
    SPECIALS,
    festival_cap,
    flag,
)
from planner.turns.horizon import Horizon, TurnSlot

Var = cp_model.IntVar
# a walk's steps: (kind, region reached); kinds as in the full model ("move", "paid", "free")
Walk = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Outcome:
    """What the festival can use of a turn's walk."""

    end: str
    visited: frozenset[str]
    paid: bool  # the paid special move
    free: bool  # the free special move (a special tile trained where the walk passed)
    # with the order of visits (the score model's, `order`): the pairs (a, b) of regions the
    # walk reaches a first at or before it last stands in b (an action in a can come before
    # one in b)
    seen: frozenset[tuple[str, str]] = frozenset()


def turn_walks(board: Board, rules: Rules, slot: TurnSlot, start: str, paid_ok: bool,
               order: bool = False) -> dict[Outcome, Walk]:
    """Every outcome of a turn's walk from `start` (a region, or `OFF`: the first move goes
    anywhere) that no other outcome beats, with one walk that gives it. `paid_ok`: a paid
    special move is possible (the turn may take one and a token is left). Where each kind of
    move goes is `models.game.move_targets` (the rules' `special_move` reading). `order`: the
    outcomes also tell the order of visits (`Outcome.seen`). Enumerated once per move graph,
    kinds of move, special tiles and start (`_walks`): the festival goal builds one lean
    model per festival (`best_of_each`) on the same turns."""
    specials = frozenset(slot.offered.get(SPECIAL, ())) if slot.can_train else frozenset()
    kinds = tuple(k for k, ok in (("move", slot.can_move),
                                  ("paid", paid_ok and slot.can_special),
                                  ("free", bool(specials))) if ok)
    places = (None, *board.region_ids)
    targets = tuple((here, tuple(move_targets(board, rules, here, special=False)),
                     tuple(move_targets(board, rules, here, special=True))) for here in places)
    return dict(_walks(targets, kinds, specials, start, order))


def seen_pairs(start: str, steps: Walk) -> frozenset[tuple[str, str]]:
    """A walk's `Outcome.seen`."""
    path = ([] if start == OFF else [start]) + [to for _, to in steps]
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for n, g in enumerate(path):
        first.setdefault(g, n)
        last[g] = n
    return frozenset((a, b) for a in first for b in last if a != b and first[a] <= last[b])


@lru_cache(maxsize=PlanBudget.walk_cache)
def _walks(targets: tuple[tuple[str | None, tuple[str, ...], tuple[str, ...]], ...],
           kinds: tuple[str, ...], specials: frozenset[str], start: str,
           order: bool = False) -> tuple[tuple[Outcome, Walk], ...]:
    """`turn_walks`'s enumeration, on the move graph `targets` (place -> where a Move and a
    special move go); with the order of visits when `order`."""
    moves = {here: (near, far) for here, near, far in targets}
    found: dict[Outcome, Walk] = {}

    def walk(place: str, used: frozenset[str], visited: frozenset[str], steps: Walk) -> None:
        outcome = Outcome(place, visited, "paid" in used, "free" in used,
                          seen_pairs(start, steps) if order else frozenset())
        if outcome not in found or len(steps) < len(found[outcome]):
            found[outcome] = steps
        near, far = moves[None if place == OFF else place]
        for kind in kinds:
            if kind in used or (kind == "free" and place not in specials):
                continue
            for to in (near if kind == "move" else far):
                walk(to, used | {kind}, visited | {to}, (*steps, (kind, to)))

    walk(start, frozenset(), frozenset() if start == OFF else frozenset({start}), ())
    ending: dict[str, list[Outcome]] = {}  # only an outcome with the same end can beat one
    for outcome in found:
        ending.setdefault(outcome.end, []).append(outcome)
    return tuple((o, w) for o, w in found.items()
                 if not any(_beats(p, o) for p in ending[o.end]))


def _beats(a: Outcome, b: Outcome) -> bool:
    """`a` gives the festival everything `b` does, and is not `b`."""
    return (a != b and a.end == b.end and a.visited >= b.visited and a.paid <= b.paid
            and a.free <= b.free and a.seen >= b.seen)


@dataclass
class LeanTurn:
    """A turn of the lean model: its walk (end region, regions visited, moves) and actions."""
    slot: TurnSlot
    end: Var  # index into `LeanModel.places`
    at_end: dict[str, Var]  # place -> the pawn ends the turn there
    visited: dict[str, Var]
    paid_move: Var
    free_move: Var
    walks: dict[tuple[str, Outcome], Walk]  # (start, outcome) -> a walk that gives it
    recruit: dict[tuple[str, int], Var] = field(default_factory=dict)  # Recruit action
    recruit_at: dict[str, Var] = field(default_factory=dict)  # its region
    extra: dict[tuple[str, int], Var] = field(default_factory=dict)  # special recruits
    paid_recruit: dict[str, Var] = field(default_factory=dict)  # region -> paid one there
    free_recruit: dict[str, Var] = field(default_factory=dict)  # region -> free one there
    train: dict[str, Var] = field(default_factory=dict)  # skill -> trained
    # the score model's claims (`planner.turns.score.lean`): those with the paid special
    # action, and those with the free one of a special tile trained this turn
    paid_claims: list[Var] = field(default_factory=list)
    free_claims: list[Var] = field(default_factory=list)
    # with the order of visits (`LeanModel.order`): (a, b) -> an action in a can come before
    # one in b (`Outcome.seen`)
    seen: dict[tuple[str, str], Var] = field(default_factory=dict)

    def outcome(self, places: list[str], value: Callable[[Var], int]) -> Outcome:
        """The outcome of a solution's walk (`value`: the solver's values)."""
        return Outcome(places[value(self.end)],
                       frozenset(g for g, v in self.visited.items() if value(v)),
                       bool(value(self.paid_move)), bool(value(self.free_move)),
                       frozenset(p for p, v in self.seen.items() if value(v)))


@dataclass
class LeanFestival:
    """A festival of the lean model: its turn, space, eligibility, tower layout, score and
    cap (no team in reach by then scores more there)."""
    turn: int
    space: FestivalSpace
    eligible: Var
    layout: TowerLayout
    score: Var
    cap: int

    @property
    def region(self) -> str:
        """The festival's region."""
        return self.space.region


@dataclass
class LeanModel:
    """The lean model of the festival goal's first stage."""
    horizon: Horizon
    model: cp_model.CpModel
    places: list[str]
    turns: list[LeanTurn]
    festivals: list[LeanFestival]
    best: Var | int
    spent: cp_model.LinearExprT = 0  # special tokens spent (the paid special actions)
    order: bool = False  # the walks tell the order of visits (`Outcome.seen`)
    budget: PlanBudget = DEFAULT_BUDGET  # its tuning (the rank caps, the score goal's)

    def start_of(self, t: int) -> dict[str, Var | int]:
        """Place -> the pawn starts turn `t` there."""
        if t:
            return dict(self.turns[t - 1].at_end)
        start = self.horizon.me.pawn or OFF
        return {g: int(g == start) for g in self.places}


def build_lean_model(horizon: Horizon, *, turns: int | None = None,
                     claims: Callable[[LeanModel], None] | None = None,
                     through: int = 0, order: bool = False,
                     budget: PlanBudget = DEFAULT_BUDGET) -> LeanModel:
    """The festival goal's first stage (its objective `best`, to maximise), through the last
    festival a team in reach can compete in. With `turns` (the score model,
    `planner.turns.score.lean`): that many turns, `claims` adding each turn's claims (to its
    `paid_claims` and `free_claims`, which the special actions' rules then count), the
    festivals each competed in on their own (no `best`), and the paid special recruit's
    dominance left out (the token it drops may be collected by a later claim). `through`:
    at least that many turns (the festival goal's: a plan of every turn a model with all
    the horizon's festivals would plan, `best_of_each`). `order`: each turn's walk also
    tells the order of its visits (`LeanTurn.seen`: the score model's). `budget`: its
    tuning (`PlanBudget.rank_caps`, and the score goal's when it is the score model)."""
    model = cp_model.CpModel()
    me = horizon.me
    places = list(horizon.regions) + ([OFF] if me.pawn is None else [])
    caps = []
    for t, space in horizon.festivals:
        cap = festival_cap(horizon, t, space)
        if cap is not None and (turns is None or t < turns):
            caps.append((t, space, cap))
    count = max((t + 1 for t, _, _ in caps), default=0) if turns is None else turns
    lean = LeanModel(horizon, model, places, [], [], 0, order=order, budget=budget)
    if not count:
        return lean
    count = min(max(count, through), len(horizon.turns))
    tokens = me.special_tokens
    for t, slot in enumerate(horizon.turns[:count]):
        lean.turns.append(_walk(lean, t, slot, tokens > 0))
    if claims is not None:
        claims(lean)
    _recruits_and_training(lean)
    _specials(lean, recruit_dominance=claims is None)
    for t, space, cap in caps:
        lean.festivals.append(_festival(lean, t, space, cap))
    if turns is not None:
        return lean
    model.add(sum(f.eligible for f in lean.festivals) <= 1)
    best = model.new_int_var(0, max(cap for _, _, cap in caps), "best_festival_score")
    model.add(best == sum(f.score for f in lean.festivals))
    lean.best = best
    return lean


def _walk(lean: LeanModel, t: int, slot: TurnSlot, paid_ok: bool
          ) -> LeanTurn:
    model, places = lean.model, lean.places
    index = {g: n for n, g in enumerate(places)}
    starts = [lean.horizon.me.pawn or OFF] if t == 0 else places
    end = model.new_int_var(0, len(places) - 1, f"end{t}")
    at_end = {g: model.new_bool_var(f"end{t}_{g}") for g in places}
    for g, var in at_end.items():
        model.add(end == index[g]).only_enforce_if(var)
        model.add(end != index[g]).only_enforce_if(var.Not())
    model.add_exactly_one(at_end.values())
    regions = lean.horizon.regions
    visited = {g: model.new_bool_var(f"visited{t}_{g}") for g in regions}
    paid, free = model.new_bool_var(f"paid_move{t}"), model.new_bool_var(f"free_move{t}")
    pairs = [(a, b) for a in regions for b in regions if a != b] if lean.order else []
    seen = {p: model.new_bool_var(f"seen{t}_{p[0]}_{p[1]}") for p in pairs}
    walks: dict[tuple[str, Outcome], Walk] = {}
    rows = []
    board, rules = lean.horizon.board, lean.horizon.rules
    for start in starts:
        for outcome, steps in turn_walks(board, rules, slot, start, paid_ok,
                                         lean.order).items():
            walks[start, outcome] = steps
            row = [index[outcome.end], *(int(g in outcome.visited) for g in regions),
                   int(outcome.paid), int(outcome.free), *(int(p in outcome.seen) for p in pairs)]
            rows.append([index[start], *row] if t else row)
    columns = [end, *visited.values(), paid, free, *seen.values()]
    model.add_allowed_assignments([lean.turns[t - 1].end, *columns] if t else columns, rows)
    return LeanTurn(slot, end, at_end, visited, paid, free, walks, seen=seen)


def _recruits_and_training(lean: LeanModel) -> None:
    """Each turn's recruits (the Recruit action in one region the walk visits, the special
    recruits), its training (one a turn: a skill, or the special tile's free action), and
    the castellers each region supplies over the horizon."""
    model, horizon = lean.model, lean.horizon
    for t, turn in enumerate(lean.turns):
        for g in horizon.regions:
            _recruits_in(lean, t, turn, g)
        model.add_at_most_one(turn.recruit_at.values())
        _training(lean, t, turn)
    for g in horizon.regions:
        supply = horizon.supply[g]
        for size in supply.sizes:
            model.add(sum(turn.recruit[g, size] + turn.extra[g, size] for turn in lean.turns)
                      <= supply.count(size))


def _recruits_in(lean: LeanModel, t: int, turn: LeanTurn, g: str) -> None:
    """Turn `t`'s recruits in region `g`: the Recruit action's and the special recruits'
    castellers of each size (none where the region is at risk and the plan cautious)."""
    model, horizon, slot = lean.model, lean.horizon, turn.slot
    supply = horizon.supply[g]
    risky = horizon.cautious and (t, g) in horizon.at_risk
    mine, more = [], []
    for size in supply.sizes:
        top = 0 if risky else min(RECRUIT_LIMIT, supply.count(size))
        mine.append(model.new_int_var(0, top if slot.can_recruit else 0,
                                      f"rec{t}_{g}_{size}"))
        more.append(model.new_int_var(0, min(SPECIALS, top), f"ext{t}_{g}_{size}"))
        turn.recruit[g, size], turn.extra[g, size] = mine[-1], more[-1]
    here = flag(model, slot.can_recruit and not risky and bool(supply.total),
                f"recruit_at{t}_{g}")
    model.add_implication(here, turn.visited[g])
    model.add(sum(mine) <= RECRUIT_LIMIT * here)
    turn.recruit_at[g] = here
    specials = set(slot.offered.get(SPECIAL, ()))
    paid = flag(model, slot.can_special and not risky and bool(supply.total),
                f"paid_recruit{t}_{g}")
    free = flag(model, slot.can_train and g in specials and not risky
                and bool(supply.total), f"free_recruit{t}_{g}")
    model.add_implication(paid, turn.visited[g])
    model.add_implication(free, turn.visited[g])
    model.add(sum(more) == paid + free)
    turn.paid_recruit[g], turn.free_recruit[g] = paid, free


def _training(lean: LeanModel, t: int, turn: LeanTurn) -> None:
    """Turn `t`'s training: a skill where the walk passes a region offering it, at most one
    training a turn (a skill, or the special tile: its free action, a move, a recruit or a
    claim, exactly one), and the dominance of the full model's `train_every_turn`: a turn
    that starts where a skill is offered trains (a rank more never loses a tower)."""
    model, horizon, slot = lean.model, lean.horizon, turn.slot
    for tile, where in slot.offered.items():
        if tile == SPECIAL:
            continue
        var = flag(model, slot.can_train, f"train{t}_{tile}")
        model.add(sum(turn.visited[g] for g in where) >= 1).only_enforce_if(var)
        turn.train[tile] = var
    trainings = [*turn.train.values(), turn.free_move, *turn.free_recruit.values(),
                 *turn.free_claims]
    model.add_at_most_one(trainings)
    if slot.can_train:
        offering = {g for tile, where in slot.offered.items()
                    if tile != SPECIAL and horizon.always_trainable(Skill(tile))
                    for g in where}
        start = lean.start_of(t)
        model.add(sum(trainings) >= sum(start[g] for g in sorted(offering) if g in start))


def _specials(lean: LeanModel, recruit_dominance: bool = True) -> None:
    """Each turn: at most one paid special action (a move, a recruit or a claim), tokens
    permitting; with `free_special_is_extra` off, the free one of a special tile is the turn's
    special."""
    model, horizon = lean.model, lean.horizon
    spent = []
    for turn in lean.turns:
        slot = turn.slot
        paid = [turn.paid_move, *turn.paid_recruit.values(), *turn.paid_claims]
        model.add(sum(paid) <= (1 if slot.can_special else 0))
        if not horizon.rules.free_special_is_extra:
            model.add(sum(paid) + turn.free_move + sum(turn.free_recruit.values())
                      + sum(turn.free_claims) <= 1)
        if recruit_dominance and slot.can_recruit and slot.can_special:
            # dominance (as in the full model's goal stage): a paid special recruit in a turn
            # whose Recruit action recruits nobody could be that Recruit action instead
            # (at most one paid recruit a turn)
            model.add(sum(turn.recruit.values()) >= sum(turn.paid_recruit.values()))
        spent += paid
    model.add(sum(spent) <= horizon.me.special_tokens)
    lean.spent = sum(spent)


def _festival(lean: LeanModel, t: int, space: FestivalSpace, cap: int) -> LeanFestival:
    model, horizon = lean.model, lean.horizon
    me = horizon.me
    upper, top_ranks = horizon.upper_pool(t + 1), horizon.upper_ranks(t + 1)
    name = f"festival{space.round}_{space.location}"
    counts = {}
    for size in upper.sizes:
        var = model.new_int_var(me.team.count(size), upper.count(size), f"{name}_n{size}")
        joined = [turn.recruit[g, size] + turn.extra[g, size] for turn in lean.turns[:t + 1]
                  for g in horizon.regions if (g, size) in turn.recruit]
        model.add(var == me.team.count(size) + sum(joined))
        counts[size] = var
    ranks = {}
    for skill in Skill:
        var = model.new_int_var(me.ranks[skill], top_ranks[skill], f"{name}_{skill.value}")
        trained = [turn.train[skill.value] for turn in lean.turns[:t + 1]
                   if skill.value in turn.train]
        model.add(var == me.ranks[skill] + sum(trained))
        ranks[skill] = var
    base_any = model.new_bool_var(f"{name}_base_any")
    model.add(base_any <= ranks[Skill.BASE])
    layout = build_layout(model, upper, top_ranks, horizon.rules,
                          limits=LayoutCaps(counts, ranks, base_any))
    eligible = model.new_bool_var(f"{name}_eligible")
    model.add_implication(eligible, lean.turns[t].at_end[space.region])
    for slot in layout.slots:
        model.add_implication(slot.active, eligible)
    score = model.new_int_var(0, cap, f"{name}_score")
    model.add(score == layout.festival_score(space.festival, when=eligible))
    model.add(score <= cap * eligible)
    if lean.budget.rank_caps:
        _rank_caps(lean, t, space, ranks, score)
    return LeanFestival(t, space, eligible, layout, score, cap)


def _rank_caps(lean: LeanModel, t: int, space: FestivalSpace, ranks: dict[Skill, Var],
               score: Var) -> None:
    """The festival's cap per rank vector the plan can reach by turn `t`: the tower dynamic
    program's best score on the biggest team in reach with exactly those ranks. Which skills
    to train is what the search otherwise spends its proof on: with the trainings fixed, the
    rest proves in a hundredth of the time (benchmarks/probe_lean.py)."""
    model, horizon = lean.model, lean.horizon
    me, rules = horizon.me, horizon.rules
    upper = horizon.upper_pool(t + 1)
    chances = {skill: sum(skill.value in turn.train for turn in lean.turns[:t + 1])
               for skill in Skill}
    trainings = sum(turn.slot.can_train for turn in lean.turns[:t + 1])
    extras = [extra for extra in product(*(range(chances[k] + 1) for k in Skill))
              if sum(extra) <= trainings]
    if len(extras) > lean.budget.rank_cap_vectors:
        return
    rows = []
    for extra in extras:
        vector = me.ranks
        for skill, n in zip(Skill, extra, strict=True):
            vector = vector.plus(skill, min(n, MAX_RANK - vector[skill]))
        cap = dp_festival_cap(space.festival, upper, vector, rules)
        rows.append([vector[k] for k in Skill] + [0 if cap is None else cap])
    top = max(row[-1] for row in rows)
    capped = model.new_int_var(0, top, f"rank_cap{t}_{space.location}")
    model.add_allowed_assignments([ranks[k] for k in Skill] + [capped], rows)
    model.add(score <= capped)


def hint_idle(lean: LeanModel) -> None:
    """The plan that takes no action but a training where the pawn stands (the full model's
    `hint_idle`): always feasible."""
    model, me = lean.model, lean.horizon.me
    start = me.pawn or OFF
    index = lean.places.index(start)
    for turn in lean.turns:
        model.add_hint(turn.end, index)
        for g, var in turn.at_end.items():
            model.add_hint(var, g == start)
        for g, var in turn.visited.items():
            model.add_hint(var, g == start)
        for var in (turn.paid_move, turn.free_move, *turn.seen.values(), *turn.recruit.values(),
                    *turn.recruit_at.values(), *turn.extra.values(),
                    *turn.paid_recruit.values(), *turn.free_recruit.values()):
            model.add_hint(var, 0)
        skills = sorted(k for k, where in turn.slot.offered.items()
                        if k != SPECIAL and start in where)
        chosen = skills[0] if turn.slot.can_train and skills else None
        for tile, var in turn.train.items():
            model.add_hint(var, tile == chosen)
    for festival in lean.festivals:
        model.add_hint(festival.eligible, 0)
        model.add_hint(festival.score, 0)
        for slot in festival.layout.slots:
            model.add_hint(slot.active, 0)
