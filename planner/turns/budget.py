"""Every tuning value of the turn planner in one frozen object, passed down, never patched.

A `PlanBudget` says how a plan spends its time limit: CP-SAT's deterministic units (the same
plan on any machine) split into named allotments (`allot`), the wall-clock safety nets that
keep a loaded machine within the limit, the switches of the models' optional constraints and
the sizes of the caches. The defaults are what `castell plan` uses; tests and benchmarks pass
budgets of their own (`dataclasses.replace(PlanBudget(), ...)`). The measurements behind each
value are in the docs' Design notes, under the field's name. The tower solvers' own tuning is
a sub-budget (`tower`, a `planner.tower.TowerBudget`) that the planner passes down to every
tower solve, bound and CP-SAT configuration it makes.

Units: CP-SAT's deterministic time ("units", `planner.tower.configure`). A second of the time
limit buys `units_per_second` units in all (`Allotment.total`); the stages, lean models and
route solves get shares of that total that add up to at most 1 (checked below), and what is
left pays for building the models, their pre-checks, the replay and the explanations (about a
third of the CPU on the benchmark's states). The wall clock is only a safety net: a solve it
stops is reported (`clock_hit`), and `wall_slack` scales every wall-clock bound for runs that
must not depend on the machine's speed (tests on a loaded machine). A plan's wall clock and
its work are one `planner.clock.Clock` (`plan_clock`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Literal

from planner.clock import Clock
from planner.stopping import time_left
from planner.tower.budget import DEFAULT_TOWER, TowerBudget

TileCheck = Literal["cuts", "layouts"]
MAX_TURNS = 10  # the longest horizon a plan takes (a bound on the input, not a tuning)


@dataclass(frozen=True)
class Allotment:
    """What a time limit buys under a budget, in deterministic units: the total and its named
    shares (each the most that part may spend; unspent units of a lean model go to the full
    model's stages after it)."""

    total: float  # every part below adds up to at most this
    stages: float  # the full model's stages: the goal's own, then the tie-breaks
    lean_short: float  # the festival goal's lean model, up to `long_horizon` turns
    lean_long: float  # ... on a longer horizon (up to `lean_long_turns`)
    lean_score: float  # the score goal's lean model
    order: float  # ... then its model with the order of visits
    route_each: float  # each of the full model's solves on a lean score route (at most
    # `route_solves` of them)


@dataclass(frozen=True)
class PlanBudget:
    """The turn planner's tuning: every share, least work, wall-clock net, switch and cache
    size (the Design notes give the measurements behind each)."""

    # --- the time limit's split (shares of `Allotment.total`)
    # units a second of the limit buys in all: CP-SAT's units cost 0.3-2.5 s of CPU each on
    # the plan models (`bench_plan.py`'s calibration), so that a 10 s plan spends at most
    # 10 units; the model's building, pre-checks and replay take what the shares leave
    units_per_second: float = 1.0
    # the full model's stages (goal and tie-breaks): 1.2 units at 10 s (0.8 of 0.15 units a
    # second until issue 34, the tower solver's `DETERMINISTIC_PER_SECOND`)
    stages_share: float = 0.12
    # the festival goal's lean model on a short horizon: 1.25 times the stages' (its units
    # cost 2-2.5 s of CPU against 5-7 s for the full model's)
    lean_short_share: float = 0.15
    # ... on 4-5 turns (0.9 units at 10 s)
    lean_long_share: float = 0.09
    # the score goal's lean model (1.5 units at 10 s), as the festival goal's
    lean_score_share: float = 0.15
    # the score goal's lean model with the order of visits, after the first (4.2 units at
    # 10 s): 67 of the 91 3-turn plans proven against 33 at a third of it
    order_share: float = 0.42
    # the most the full model may take to complete a lean score plan on its route (0.2 until
    # 2026-12-02: p4-s43-r06 proved 54 points at 0.54), and how many such solves there are
    # at most (the first route, the ordered model's, the first again when the ordered one is
    # unproven)
    route_work: float = 0.6
    route_solves: int = 3

    # --- the shape of the solve
    # turns; longer horizons spend most of a short limit in full presolve: they get a short
    # presolve and their goal stage a share of the stages (`long_goal_share`)
    long_horizon: int = 3
    # of the stages' budget, the most a long horizon's goal stage may take (its proof never
    # comes within a short limit; without a share of their own the tie-breaks got nothing)
    long_goal_share: float = 0.6
    # the most one tie-break stage may take: at 1 unit and more they rarely proved (2 of 24)
    # and tripled the call; at 0.4 some plans lost the tiles they claim
    tie_break_work: float = 0.8
    # the progress stage's most when no festival is in reach on a short horizon (0.8: 4.5-5.8
    # s of CPU; 0.2: the plans hardly left the idle hint)
    progress_work: float = 0.4
    # presolve probing on a long horizon and in light stages (CP-SAT's default: 1.0)
    light_probing: float = 0.05
    # every horizon's stages with the short presolve (one pass, `light_probing`), not only
    # the long horizons'
    light_stages: bool = False
    # light tie-breaks (a short presolve) after a lean plan or with no festival in reach
    light_tie_breaks: bool = True
    # after a lean goal the tie-breaks search the lean plan's route only (the whole call fell
    # from 2.2-3.8 s to 0.9-2.8 s; the tie-breaks are then not proven)
    route_held: bool = True
    default_turns: int = 3  # the horizon when no festival is left to plan toward

    # --- the festival goal's lean model (`planner.turns.festival`)
    lean_goal: bool = True  # its first stage on the lean model (False: the full model alone)
    # ... when the stages get at least this many units (an 8.4 s limit): on 0.6 units the
    # lean model's plans were worse on 10 of 12 states
    lean_least_work: float = 1.0
    lean_tie_break_work: float = 0.25  # each tie-break's most after a lean goal
    lean_long_turns: int = 5  # horizons up to this many turns use the lean goal too (0: none)
    lean_spare_work: float = 0.1  # a proven long lean plan: fewest tokens at its score
    lean_hint_work: float = 0.1  # the full model completing an unproven long lean plan
    # the lean model's LP (with the rank caps it pays: slowest state 1.4 units against 3.6)
    lean_linearization: int = 1
    # the best festival score as the best of one model per festival (84 to 91 of 91 proven)
    per_festival: bool = True
    # a festival in the first `early_turns` turns without the LP: as often proven, a third
    # less CPU (the third turn needs it: 86 of 91 without, 91 with)
    early_turns: int = 2
    early_linearization: int = 0
    least_festival_work: float = 0.01  # a festival's model is solved with at least this left
    idle_work: float = 0.05  # the idle plan's most when no plan competes anywhere
    # the festival cap per rank vector (slowest state 6.5 units without, 3.6 with) for
    # festivals with at most `rank_cap_vectors` rank vectors (a tower DP call each)
    rank_caps: bool = True
    rank_cap_vectors: int = 300

    # --- the score goal (`planner.turns.score`)
    lean_score: bool = True  # its first stage on the lean score model ...
    lean_score_turns: int = 1  # ... from this many turns to `long_horizon`
    lean_score_least_work: float = 1.0  # ... when the stages get at least this many units
    # what the full model's stages keep after the lean score model and the hints
    score_least_work: float = 0.2
    # each claim-at-once hint's most (a planted state's 1-turn plan found 16 points without,
    # 20 with: tests/planner/turns/test_score_claims.py)
    claim_hint_work: float = 0.1
    # the lean score model's LP (level 1: a 2-turn proof took 2.8 units against 2.1)
    score_linearization: int = 0
    most_score_solves: int = 20  # the lean score model's solves with cuts
    # a claim's tower in the lean score model: "cuts" (grown where the tower DP proves no
    # tower: the same optima in 0.2-0.3 units) or "layouts" (exact, proofs of 2 units and more)
    tile_check: TileCheck = "cuts"
    tile_castellers: bool = True  # a claim only on a team of at least the tile's castellers
    train_where_visited: bool = True  # the lean score model's dominances
    recruit_when_able: bool = True
    need_vectors: int = 300  # the most rank vectors tried for a tile's trainings needed
    relaxed_work: float = 0.05  # the claims' relaxation (proven in 0.016 units at most)

    # --- the full model's pre-checks and reach
    # a festival's pre-check (the best score any team in reach could make): proven in
    # 0.12-0.18 units on the benchmark's states
    prefilter_work: float = 0.1
    bound_prechecks: int = 3  # the most pre-checks that tighten an unproven plan's bound
    # the tower DP's states for a tile's reach (the same answer on every machine): 0.02 s a
    # model at 500, 0.1-0.2 s at 3,000; out of states, the tile counts as in reach
    tile_reach_states: int = 500
    fewest_work: float = 0.5  # each longer horizon tried for a tile out of reach

    # --- the win goal (`planner.castell.lookahead`): its plans' shares of the time limit
    # (each a plan of its own, on that share's allotments; the whole call within the limit's
    # wall clock, a plan that meets it leaving the advice to the plain plan): the plain
    # cautious plan (the whole limit: at 0.4 the win goal won 42 of 60 games against two
    # greedy bots, the plain cautious plan alone 44), then each first turn's plan after the
    # rivals' answers and the chosen greedy turn's plan (a plan's median is 0.5 s); after an
    # unproven plain plan (it spent its units: the long horizons of the first rounds, 3-5 s)
    # they get less, so that the call stays within the limit
    win_plan_share: float = 1.0
    win_answer_share: float = 0.3
    win_answer_share_unproven: float = 0.2
    # the fewest turns its plain plan (and a what-if's) looks ahead, up to the game's end: the
    # plans run through the festival they build toward, from round 3 most often this round's,
    # as if the game ended with it. At 2 (through the next round's festival too) the win goal
    # won 100 of games 0-179 against two score-goal seats where 1 won 87 (39 games better, 26
    # worse) and 102 of 120 against two greedy bots (1: 100), CPU a call median 2.6 s and
    # 2.8 s; every plan at 2 (the plans after the answers too): 59 of games 0-119 where 1 won
    # 57, CPU median 4.0 s, over the 3 s target
    win_least_turns: int = 2
    # the plans after the rivals' answers (one a first turn) run side by side in this many
    # threads: CP-SAT's search releases the GIL, and each plan is deterministic on its own, so
    # the advice is the same at 1 (`castell plan`'s median 3.9 s of wall, 4.4 s at 1, both
    # before `win_light_stages`)
    win_threads: int = 2
    # ... each but the first in a process forked for it, not a thread (`in_processes`): the
    # plans' Python (model building, the rivals' greedy turns, the referee) then runs side by
    # side too, where threads took turns under the GIL (a job's wall was its CPU plus 0.2-0.45
    # s). For a command that is its own process; a server's threads or a pool's workers keep
    # threads (forking a server with threads running is not safe)
    win_processes: bool = False
    # the win goal's plans with the short presolve on every stage (`light_stages`): a plan
    # after the answers gets 0.2-0.3 of the limit, its stages 0.24-0.36 units, and the full
    # presolve's own units count against them. On the same first turn (the greedy bot's) and
    # the same answers, 91 kept states: the plan from there found 0 points on 5 where the
    # short presolve's found 5-21, more on 13 in all, fewer on 1; 9% less CPU a call; whole
    # games the same within noise (98 of 135 against 95.5, the Design notes)
    win_light_stages: bool = True
    # the ordered lean score model's share in the win goal's plans (the score goal's
    # `order_share` elsewhere). Its 4.2 units were a round-1 call's largest part: the plain
    # plan runs through round 3's festival, where the ordered model is seldom proven and
    # spends them all (round-1 calls of whole games: median 6.5 s of CPU, the others' 0.4-3.5
    # s). At 1 unit: the same deals won 96 of 135 against 98, calls over 5.5 s of CPU 42 of
    # 1,350 against 138, round 1's median 5.0 s; 80 of the 91 kept states' plans proven
    # against 88 (the Design notes)
    win_order_share: float = 0.1

    # --- the wall clock, a safety net (seconds; every one scaled by `wall_slack`)
    # the wall clock a plan allows itself, as a multiple of its time limit: 1 at the table;
    # tests that assert a plan give it room (the deterministic budget alone decides then)
    wall_slack: float = 1.0
    # the stages get this share of the wall left after building the model, less what reading
    # the plan back, the replay and the explanations take (0.3-0.5 s at load 4-7)
    stages_wall: float = 0.85
    after_solve: float = 0.2
    after_solve_per_turn: float = 0.03
    # the most the replay of a plan found may run past the deadline (the referee's towers
    # take milliseconds on a real team; stopped at once, the plan found became no plan)
    replay_grace: float = 1.0
    # the most a forked plan after the answers (`win_processes`) may run past the request's
    # deadline before it is killed and counts as stopped: its own solves stop at the deadline,
    # and the plan after it and its replay get `replay_grace` of their own
    fork_grace: float = 2.0
    # no lean score or held solve starts with less wall left (a full model's solve takes
    # 0.1-0.5 s before any search)
    least_wall: float = 0.15
    # the wall the ordered lean solve leaves the full model's solves after it (without it four
    # 4-player 3-turn plans fell to 0-12 points)
    order_reserve: float = 2.0
    prefilter_wall: float = 2.0  # a festival pre-check's wall net
    prefilter_least: float = 0.2  # with less wall left, no pre-check runs
    retry_least: float = 0.5  # the least wall worth a plan through the next festival

    # --- caches (entries; bounded, not process-wide growth)
    walk_cache: int = 1024  # turn walks: a few dozen a horizon, a few hundred bytes each
    precheck_cache: int = 256  # festival pre-checks: at most 2 distinct a 10-turn plan
    finder_cache: int = 512  # the replay's festival towers: 4-9 distinct a plan

    # --- the tower solvers' tuning (their bounds' states and wall, CP-SAT's units a second
    # where a solve is given no work of its own), passed down to every tower call
    tower: TowerBudget = field(default=DEFAULT_TOWER)

    def __post_init__(self) -> None:
        for each in fields(self):
            value = getattr(self, each.name)
            if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
                raise ValueError(f"PlanBudget.{each.name} must not be negative, not {value}")
        # the festival goal spends its stages and one lean model; the score goal its stages,
        # both lean models and the route solves: each within the total
        # (the win goal's plans give the ordered model `win_order_share` instead)
        score = (self.stages_share + self.lean_score_share
                 + max(self.order_share, self.win_order_share))
        festival = self.stages_share + max(self.lean_short_share, self.lean_long_share)
        if max(score, festival) > 1 + 1e-9:
            raise ValueError("PlanBudget's shares add up to more than the time limit buys")
        if max(self.win_plan_share, self.win_answer_share, self.win_answer_share_unproven) > 1:
            raise ValueError("PlanBudget's win goal shares are each at most the time limit")
        if self.wall_slack < 1:
            raise ValueError("PlanBudget.wall_slack below 1 would cut the time limit short")

    def allot(self, time_limit: float) -> Allotment:
        """The units `time_limit` seconds buy, split by the shares. The route solves get what
        the lean score models leave of the total, at most `route_work` each."""
        total = self.units_per_second * time_limit
        stages = self.stages_share * total
        lean_score, order = self.lean_score_share * total, self.order_share * total
        left = max(0.0, total - stages - lean_score - order)
        route_each = min(self.route_work, left / self.route_solves if self.route_solves else 0)
        return Allotment(total, stages, self.lean_short_share * total,
                         self.lean_long_share * total, lean_score, order, route_each)

    def win_plans(self) -> PlanBudget:
        """The budget of the win goal's own plans: every stage's presolve the short one when
        `win_light_stages` says so, and the ordered lean model's share `win_order_share`."""
        light = self.light_stages or self.win_light_stages
        if (light, self.win_order_share) == (self.light_stages, self.order_share):
            return self
        return replace(self, light_stages=light, order_share=self.win_order_share)

    def wall(self, seconds: float) -> float:
        """A wall-clock bound of `seconds`, scaled by `wall_slack`."""
        return self.wall_slack * seconds

    def plan_clock(self, time_limit: float) -> Clock:
        """A plan's clock from now: the wall of `time_limit` (scaled by `wall_slack`; no more
        than what is left of the request's own clock) and the units the limit buys (the total
        its allotments share, `allot`)."""
        return Clock.start(time_left(self.wall(time_limit)), self.units_per_second * time_limit)


DEFAULT_BUDGET = PlanBudget()
