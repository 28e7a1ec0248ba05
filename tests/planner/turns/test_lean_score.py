"""The lean score model (`planner.turns.score.lean`) bounds the score goal soundly (issue 23,
item 3): random legal plays, and the full model's own proven plans (the lean model off),
never end with more points than its bound; and its plan, completed in the full model on its
route, is a plan the referee replays."""

from __future__ import annotations

import contextlib
import io
import os
import random
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from models.tower.rules import STANDARD
from planner.stopping import CancelToken, cancel_scope
from planner.tower import Status
from planner.tower.bounds import tile_in_reach
from planner.turns.budget import DEFAULT_BUDGET
from planner.turns.full import stages as stages_module
from planner.turns.full.model import build_plan_model
from planner.turns.full.stages import StagedResult
from planner.turns.horizon import Goal, build_horizon
from planner.turns.lean.model import seen_pairs
from planner.turns.lean.solve import LeanResult
from planner.turns.plan import plan_turns
from planner.turns.score import start as score_start_module
from planner.turns.score import tiles as lean_tiles
from planner.turns.score.caps import score_cap
from planner.turns.score.goal import with_lean_score
from planner.turns.score.lean import build_lean_score, lean_score
from tests.planner.turns.game_states import ROOMY, plan_roomy, played
from tests.planner.turns.test_plan import assert_replayed
from tests.planner.turns.test_score_bound import BOARD, random_play, start_of

SEQUENCES = 8  # random action sequences a state
# (seed, players, round, turns): early and mid-game states, 1 and 2 turns
CASES = [(3, 2, 2, 1), (8, 3, 4, 2), (15, 4, 3, 2)]
# the full model's own plans, proven well within the generous limit
PLANNED = [(3, 2, 2, 1)]
WORK = 8.0  # deterministic units: enough to prove these small horizons
LIMIT = 10.0  # the default limit's seconds


def bound_of(seed: int, players: int, round_: int, turns: int, order: bool = False
             ) -> tuple[int, int]:
    start, player = start_of(seed, players, round_)
    plan = build_plan_model(build_horizon(start, BOARD, player, turns, start.game_rules))
    found = lean_score(plan, work=WORK, time_limit=60.0, order=order)
    assert found.result.bound is not None
    return found.result.bound, score_cap(plan)


@pytest.mark.parametrize(("seed", "players", "round_", "turns", "order"),
                         [(*case, False) for case in CASES] + [(*CASES[1], True)])
def test_no_random_play_beats_the_lean_bound(seed: int, players: int, round_: int,
                                             turns: int, order: bool) -> None:
    """With the order of visits or without."""
    bound, cap = bound_of(seed, players, round_, turns, order)
    assert bound <= cap
    start, player = start_of(seed, players, round_)
    rng = random.Random(seed)
    assert max(random_play(start, player, turns, rng) for _ in range(SEQUENCES)) <= bound


@pytest.mark.parametrize(("seed", "players", "round_", "turns"), PLANNED)
def test_the_full_models_proven_plan_is_within_the_lean_bound(
        seed: int, players: int, round_: int, turns: int) -> None:
    start, player = start_of(seed, players, round_)
    full = plan_roomy(start, BOARD, player, rules=start.game_rules, turns=turns,
                      goal=Goal("score"), time_limit=30.0,
                      budget=replace(ROOMY, lean_score=False))
    assert_replayed(full)
    assert full.objective is not None
    bound, _ = bound_of(seed, players, round_, turns)
    assert full.objective <= bound


def test_the_plan_on_the_lean_route_is_replayed_and_within_the_bound() -> None:
    start, player = start_of(8, 3, 4)
    plan = plan_roomy(start, BOARD, player, rules=start.game_rules, turns=2,
                      goal=Goal("score"))
    assert_replayed(plan)
    bound, _ = bound_of(8, 3, 4, 2)
    assert plan.objective is not None and plan.bound is not None
    assert plan.objective <= min(plan.bound, bound)


def test_the_lean_claims_are_per_turn_and_tile() -> None:
    """A literal per tile the full model may claim and turn, each counted among its turn's
    special actions (the paid one, or the free one of a special tile)."""
    start, player = start_of(8, 3, 4)
    plan = build_plan_model(build_horizon(start, BOARD, player, 2, start.game_rules))
    score = build_lean_score(plan)
    assert [c.tile.id for c in score.claims] == [c.tile.id for c in plan.claims]
    for claim in score.claims:
        assert sorted(claim.at) == [0, 1]
    for turn in score.lean.turns:
        assert len(turn.paid_claims) == len(turn.free_claims) == len(plan.claims)


@pytest.mark.parametrize(("held", "stage_bound", "status", "bound"),
                         [(True, 39, Status.FEASIBLE, 41), (False, 39, Status.OPTIMAL, 39),
                          (False, 45, Status.FEASIBLE, 41)])
def test_a_stage_held_on_the_lean_route_proves_nothing_beyond_it(
        held: bool, stage_bound: int, status: Status, bound: int) -> None:
    """A goal stage held on the lean plan's route bounds that route only: the plan's bound is
    then the lean model's (a plan at 39 on a route, bound 39 there, against a lean bound of
    41 was once reported optimal, where another route's plan made 41)."""
    stage = StagedResult(Status.OPTIMAL, (39, 3), (True, False), stage_bound, 10)
    lean = LeanResult(Status.OPTIMAL, 41, 41, 1.0, 1.0, 1.0, 100)
    got = with_lean_score(stage, lean, held=held)
    assert (got.status, got.first_bound, got.proven[0]) == (status, bound,
                                                           status is Status.OPTIMAL)


@pytest.mark.parametrize(("seed", "players", "round_", "turns"), [(8, 3, 4, 1), (22, 2, 6, 1)])
def test_the_tile_cuts_find_the_tile_layouts_optimum(seed: int, players: int, round_: int,
                                                     turns: int) -> None:
    """Two engines, one truth: the claims' towers checked by cuts (the tower DP) and by a
    tower layout per tile give the lean score model the same optimum."""
    start, player = start_of(seed, players, round_)
    values = []
    for check in ("layouts", "cuts"):
        plan = build_plan_model(build_horizon(start, BOARD, player, turns, start.game_rules),
                                budget=replace(DEFAULT_BUDGET, tile_check=check))
        found = lean_score(plan, work=WORK, time_limit=60.0).result
        assert found.status is Status.OPTIMAL
        values.append(found.value)
    assert values[0] == values[1]


def test_a_cut_is_grown_only_while_the_tile_has_no_tower() -> None:
    """The team and ranks a cut rules out below are ones the tower DP proves stand no tower of
    the tile (so the cut keeps every team that stands one)."""
    start, player = start_of(8, 3, 4)
    plan = build_plan_model(build_horizon(start, BOARD, player, 2, start.game_rules))
    score = build_lean_score(plan)
    me, rules = start.player(player), start.game_rules
    tried = 0
    for claim in score.claims:
        if tile_in_reach(claim.tile.spec, me.team, me.ranks, rules,
                         state_limit=DEFAULT_BUDGET.tile_reach_states):
            continue
        upper = score.horizon.upper_pool()
        for sizes in (upper.sizes, tuple(reversed(upper.sizes))):
            team, ranks = lean_tiles._grown(score, claim, me.team, me.ranks, sizes)
            assert not tile_in_reach(claim.tile.spec, team, ranks, rules,
                                     state_limit=DEFAULT_BUDGET.tile_reach_states)
            assert all(team.count(z) >= me.team.count(z) for z in me.team.sizes)
            tried += 1
    assert tried  # the state has a tile the team now cannot stand


def test_the_order_of_visits_tightens_the_bound_and_keeps_the_cuts_sound() -> None:
    """The lean model with the order of each turn's visits bounds no higher than without it,
    and solved from the first model's cuts it finds the optimum it finds from none (the cuts
    are about tiles and teams, true in either model)."""
    start, player = start_of(8, 3, 4)
    plan = build_plan_model(build_horizon(start, BOARD, player, 2, start.game_rules))
    loose = lean_score(plan, work=WORK, time_limit=60.0)
    assert loose.cuts  # the scenario: the first model's solves cut claims
    alone = lean_score(plan, work=WORK, time_limit=60.0, order=True)
    seeded = lean_score(plan, work=WORK, time_limit=60.0, order=True, cuts=loose.cuts)
    assert loose.result.status is alone.result.status is seeded.result.status is Status.OPTIMAL
    assert alone.result.value == seeded.result.value
    assert alone.result.value is not None and loose.result.value is not None
    assert alone.result.value <= loose.result.value


def test_a_solve_stopped_before_any_plan_bounds_nothing() -> None:
    """A budget that ends in CP-SAT's presolve finds no plan and no bound (CP-SAT then says
    0: two 3-turn plans of the benchmark, at 57 and 28 points, were once called optimal on
    it)."""
    start, player = start_of(15, 4, 3)
    plan = build_plan_model(build_horizon(start, BOARD, player, 3, start.game_rules))
    found = lean_score(plan, work=0.01, time_limit=60.0, order=True).result
    assert found.value is None  # the scenario: stopped before any plan
    assert found.bound is None


def test_the_walks_tell_which_region_comes_before_which() -> None:
    """`Outcome.seen`: a region reached first at or before the pawn last stands in another
    (there and back: each before the other)."""
    assert seen_pairs("a", (("move", "b"),)) == {("a", "b")}
    assert seen_pairs("a", (("move", "b"), ("paid", "a"))) == {("a", "b"), ("b", "a")}
    assert seen_pairs("a", (("move", "b"), ("paid", "c"))) == {("a", "b"), ("a", "c"), ("b", "c")}


MODELS = """
import hashlib
from models.game import load_board, load_state
from planner.turns import build_horizon
from planner.turns.score.lean import build_lean_score
from planner.turns.full.model import build_plan_model
from planner.turns.replay import advance_to, visible
board = load_board()
state = load_state("benchmarks/plan_states/p3-s31-r06.json", board)
player, rules = state.turn.player, state.game_rules
start = advance_to(visible(state), board, player, rules)
plan = build_plan_model(build_horizon(start, board, player, 1, rules))
for proto in (plan.model.proto, build_lean_score(plan).model.proto,
              build_lean_score(plan, order=True).model.proto):
    print(hashlib.md5(str(proto).encode()).hexdigest())
"""


def test_the_models_are_the_same_whatever_the_string_hashes() -> None:
    """The same question gives the same answer: the plan and lean score models are built in
    the same order under any hash seed (a set of region names iterated into the model made
    the same 3-turn lean proof take 0.4, 1.0 or 1.1 units from one run to the next)."""
    root = Path(__file__).resolve().parents[3]
    here: dict[str, object] = {}  # this process's models, under its own hash seed
    with contextlib.redirect_stdout(io.StringIO()) as printed, contextlib.chdir(root):
        exec(MODELS, here)  # the test's own code, run here and in a subprocess
    seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    other = subprocess.run([sys.executable, "-c", MODELS], cwd=root, check=True,
                           capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout
    assert printed.getvalue() == other and len(other.split()) == 3


def test_no_plan_above_a_known_one_proves_it_the_best() -> None:
    """Asked only for plans of more points than the optimum, the lean model finds none and
    bounds every plan at the optimum (the ordered model after a first route's plan)."""
    start, player = start_of(8, 3, 4)
    plan = build_plan_model(build_horizon(start, BOARD, player, 2, start.game_rules))
    best = lean_score(plan, work=WORK, time_limit=60.0).result
    assert best.status is Status.OPTIMAL and best.value is not None
    above = lean_score(plan, work=WORK, time_limit=60.0, least=best.value + 1).result
    assert (above.status, above.value, above.bound) == (Status.INFEASIBLE, None, best.value)
    at = lean_score(plan, work=WORK, time_limit=60.0, least=best.value).result
    assert (at.status, at.value) == (Status.OPTIMAL, best.value)


def test_the_ordered_solve_leaves_the_solves_after_it_their_wall_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # where the wall clock ends the ordered lean solve, the full model's solve of its route
    # and the final stage still have `order_reserve` seconds (without it, four 4-player 3-turn
    # plans of the benchmark fell to 0-12 points)
    state = played(0, 4, 2)  # its 2-turn score plan solves the ordered model
    real, given = score_start_module.lean_score, []
    began = time.perf_counter()

    def spy(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("order"):
            given.append((kwargs["time_limit"], began + LIMIT - time.perf_counter()))
        return real(*args, **kwargs)

    monkeypatch.setattr(score_start_module, "lean_score", spy)
    # the default budget: what is tested is its wall clock
    plan = plan_turns(state, BOARD, state.turn.player, rules=STANDARD, turns=2,
                      goal=Goal("score"), time_limit=LIMIT)
    assert plan.found and given
    budget = DEFAULT_BUDGET
    for limit, left in given:
        assert budget.least_wall <= limit <= left - budget.order_reserve + 0.05


def test_a_cancel_starts_no_solve_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C (or a client's cancel) during the score goal's first lean solve: no other
    solve starts, of the lean model or the full one (each full model's solve after it took
    0.1-0.5 s to notice the cancel, and a 3-turn plan on the whole bag at rank 150 2.1 s on a
    loaded machine)."""
    state = played(0, 4, 2)  # its 2-turn score plan solves the ordered model
    token = CancelToken()
    lean, solve, calls = score_start_module.lean_score, stages_module.solve_stoppable, []

    def lean_then_cancel(*args: Any, **kwargs: Any) -> Any:
        calls.append("lean")
        found = lean(*args, **kwargs)
        token.cancel()
        return found

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append("full model")
        return solve(*args, **kwargs)

    monkeypatch.setattr(score_start_module, "lean_score", lean_then_cancel)
    monkeypatch.setattr(stages_module, "solve_stoppable", spy)
    with cancel_scope(token):
        plan_roomy(state, BOARD, state.turn.player, rules=STANDARD, turns=2,
                   goal=Goal("score"), time_limit=LIMIT)
    assert calls == ["lean"]
