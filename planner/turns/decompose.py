"""The festival goal, festival by festival: the best score at a festival of turn `t` depends only
on the turns up to `t`, so each festival is solved on a model of those turns alone, with its
own layout and no tiles (a claim never raises a festival score): much smaller models than the
whole horizon's. The most promising festivals (the highest caps) go first, and a festival whose
cap cannot beat the best found is skipped. The best sub-plan is then carried over as a hint to
the whole horizon's model, whose goal stage is capped by the decomposition's bound: when every
festival was proven (or skipped), that stage only has to find the hinted score."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from models.game import Board, FestivalSpace, GameState
from models.tower import Rules, Skill
from planner.tower import STATUS, Status, configure, stopped_by_clock
from planner.turns.horizon import build_horizon
from planner.turns.model import OFF, PlanModel, build_plan_model, festival_cap, hint_idle


@dataclass(frozen=True)
class Decomposed:
    value: int  # the best festival score found
    bound: int  # no plan of the horizon scores more at any festival
    names: dict[str, int]  # the best sub-plan's values, by variable name (its stops)
    space: FestivalSpace | None  # the festival of the best sub-plan
    layout: tuple[int, ...]  # its layout's values, by position
    stops: int  # the best sub-plan's stops
    work: float  # deterministic work spent
    clock_hit: bool

    @property
    def proven(self) -> bool:
        return self.value == self.bound


def festival_by_festival(begin: GameState, board: Board, player: str, turns: int,
                         rules: Rules, cautious: bool, *, work: float, deadline: float,
                         workers: int, seed: int) -> Decomposed:
    full = build_horizon(begin, board, player, turns, rules, cautious)
    found_caps = []
    for t, space in full.festivals:
        horizon = build_horizon(begin, board, player, t + 1, rules, cautious)
        cap = festival_cap(horizon, t, space)
        if cap is not None:  # else no team in reach can compete there: nothing to solve
            found_caps.append((cap, t, space, horizon))
    found_caps.sort(key=lambda c: (-c[0], c[1]))
    best, bound, used, clock_hit = 0, 0, 0.0, False
    found: Decomposed | None = None
    for number, (cap, _, space, horizon) in enumerate(found_caps):
        if cap <= best:
            continue  # cannot beat the best found
        if time.perf_counter() >= deadline:  # the wall clock decided: say so
            bound, clock_hit = max(bound, cap), True
            continue
        sub = build_plan_model(horizon, set(), only=space)
        entry = sub.festivals[0]
        model = sub.model
        model.add(sub.claims_on == 0)
        model.add(sub.move_order == 1)  # the order of a Move and a paid move: symmetric here
        model.maximize(entry.score)
        hint_idle(sub)
        solver = cp_model.CpSolver()
        configure(solver, time_limit=max(0.01, deadline - time.perf_counter()),
                  workers=workers, seed=seed,
                  deterministic=max(0.001, (work - used) / (len(found_caps) - number)))
        solver.parameters.linearization_level = 0
        status = STATUS.get(solver.solve(model), Status.UNKNOWN)
        used += solver.response_proto.deterministic_time
        clock_hit = clock_hit or stopped_by_clock(solver)
        if status not in (Status.OPTIMAL, Status.FEASIBLE):
            bound = max(bound, entry.cap)
            continue
        value = round(solver.objective_value)
        bound = max(bound, min(entry.cap, int(solver.best_objective_bound)))
        if value > best or found is None:
            best = value
            values = [solver.value(model.get_int_var_from_proto_index(i))
                      for i in range(len(model.proto.variables))]
            names = {v.name: values[i] for i, v in enumerate(model.proto.variables)
                     if not entry.span[0] <= i < entry.span[1]}
            found = Decomposed(value, 0, names, entry.space,
                               tuple(values[entry.span[0]:entry.span[1]]), sub.stops, 0.0,
                               False)
    bound = max(bound, best)
    if found is None:
        return Decomposed(0, bound, {}, None, (), 0, used, clock_hit)
    return Decomposed(best, bound, found.names, found.space, found.layout, found.stops, used,
                      clock_hit)


def carry_hint(plan: PlanModel, found: Decomposed) -> None:
    """Hint `plan` (the whole horizon) with the best sub-plan: its stops as they were, the pawn
    and the team staying put after them, no claim, no other festival."""
    model = plan.model
    if found.space is None:
        return
    model.clear_hints()  # type: ignore[no-untyped-call]
    count: dict[str, int] = {}
    for v in model.proto.variables:
        count[v.name] = count.get(v.name, 0) + 1
    hinted: set[int] = set()

    def hint(var: cp_model.IntVar, value: int) -> None:
        if var.index not in hinted:
            hinted.add(var.index)
            model.add_hint(var, value)

    for festival in plan.festivals:
        if festival.space == found.space:
            for offset, value in enumerate(found.layout):
                hint(model.get_int_var_from_proto_index(festival.span[0] + offset), value)
        else:
            hint(festival.eligible, 0)
            for slot in festival.layout.slots:
                hint(slot.active, 0)
    for claim in plan.claims:
        for var in [*claim.at.values(), *claim.free.values()]:
            hint(var, 0)
        for slot in claim.layout.slots:
            hint(slot.active, 0)
    last = found.stops - 1
    end = next((g for g in plan.places if found.names.get(f"at{last}_{g}")), OFF)
    me = plan.horizon.me
    for i in range(found.stops, plan.stops):
        for g, var in plan.at[i].items():
            hint(var, int(g == end))
        for group in (plan.recruit, plan.extra, plan.train):
            for key, var in group.items():
                if key[0] == i:
                    hint(var, 0)
        hint(plan.free_recruit[i], 0)
        for size, var in plan.team[i].items():
            hint(var, found.names.get(f"team{last}_{size}", me.team.count(size)))
        for skill in Skill:
            hint(plan.ranks[i][skill],
                 found.names.get(f"rank{last}_{skill.value}", me.ranks[skill]))
    for (i, _), var in plan.moves.items():
        if i >= found.stops:
            hint(var, 0)
    for i, v in enumerate(model.proto.variables):
        if i not in hinted and count[v.name] == 1 and v.name in found.names:
            hint(model.get_int_var_from_proto_index(i), found.names[v.name])
