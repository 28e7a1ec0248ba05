"""What every goal of the turn planner is: a strategy (`GoalStrategy`) that builds its stages on
the full plan model and solves them within its allotment (`PlanContext`), and says what its
plan is worth once the referee has replayed it. `planner.turns.plan` runs the pipeline
around it: start -> horizon -> model -> the goal's solve -> replay -> explain.

A strategy also says what the goal is to a user (its name, `GoalWords`, the option it takes)
and how it answers a `PlanRequest` (`answer`: by default the pipeline with the goal's horizon
policy; the win goal weighs the pipeline's plans against the rivals' answers). The goals
are registered once, in `planner.turns.goals.GOALS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar

from ortools.sat.python import cp_model

from models.game import Action, Board, Choices, FestivalSpace, GameState
from models.tower import Rules
from planner.clock import Clock
from planner.stopping import time_limited
from planner.tower import Status
from planner.turns.budget import Allotment, PlanBudget
from planner.turns.full.model import PlanModel
from planner.turns.full.stages import Stage, StagedResult, StageRun
from planner.turns.horizon import Goal
from planner.turns.replay import Replay
from planner.turns.request import PlanRequest, PlanResult
from planner.turns.result import PlannedTurn

Held = tuple[tuple[cp_model.IntVar, int], ...]


@dataclass(frozen=True)
class StageWall:
    """What the stages of one plan may take of its clock (`planner.clock.Clock`, the wall
    clock a safety net for its time limit): the budget's share of what is left, less what
    reading the plan back, the replay and the explanations take after the solve."""

    clock: Clock  # the plan's
    stages_wall: float  # the budget's share of what is left, for the stages
    after_solve: float  # seconds kept for what comes after the solve

    @property
    def deadline(self) -> float:
        """The plan's deadline (a `planner.clock.now()` instant)."""
        return self.clock.deadline

    def wall_left(self) -> float:
        """The wall seconds the solves may still take (at least 0.1)."""
        return max(0.1, self.stages_wall * self.clock.left() - self.after_solve)


@dataclass(frozen=True)
class PlanContext:
    """One plan's question as its goal sees it: the model, the goal, the tuning and its
    allotment, the clock, the solver's seed and workers, and where the plan starts."""

    model: PlanModel
    goal: Goal
    budget: PlanBudget
    allot: Allotment
    clock: StageWall
    seed: int
    workers: int
    start: GameState  # the player's turn, bag hidden (the plan's replay starts here)
    begin: GameState  # after the what-if's fixed actions (the horizon starts here)
    board: Board
    player: str
    rules: Rules
    cautious: bool
    target: FestivalSpace | None = None  # the festival the default horizon builds toward
    value_only: bool = False  # the goal's stage alone (`PlanRequest.value_only`)

    @property
    def long(self) -> bool:
        """A long horizon: a short presolve, and the goal's stage on a share of the stages."""
        return len(self.model.horizon.turns) > self.budget.long_horizon

    @property
    def light(self) -> bool:
        """The stages' presolve is the short one: on a long horizon, or every horizon's
        under `PlanBudget.light_stages`."""
        return self.long or self.budget.light_stages

    def stage_run(self, work: float, *, light_presolve: bool = False,
                  light_tie_breaks: bool = False, tie_break_work: float | None = None,
                  goal_share: float = 1.0, hinted: bool = False,
                  hint_complete: bool = False) -> StageRun:
        """`solve_stages`' settings for this plan: a clock of the wall left and `work` units,
        the seed and workers, no LP (its relaxation of the plan model is weak: without it the
        search proves plans about twice as fast, `benchmarks/bench_plan.py`), the budget's
        probing and tie-break cap (unless the goal gives its own), and the goal's own
        settings."""
        return StageRun(Clock.start(self.clock.wall_left(), work), workers=self.workers,
                        seed=self.seed, linearization=0, light_presolve=light_presolve,
                        light_tie_breaks=light_tie_breaks,
                        tie_break_work=(self.budget.tie_break_work if tie_break_work is None
                                        else tie_break_work),
                        goal_share=goal_share, hinted=hinted, hint_complete=hint_complete,
                        light_probing=self.budget.light_probing, tower=self.budget.tower,
                        goal_only=self.value_only)


@dataclass(frozen=True)
class Solved:
    """A goal's solve: the stages' result and the solver holding its plan (when any)."""

    result: StagedResult
    solver: cp_model.CpSolver


@dataclass(frozen=True)
class Verdict:
    """A replayed plan judged by its goal: the status, the bound a user reads and whether a
    clock stopped a check of it."""

    status: Status
    bound: int | None
    clock_hit: bool


@dataclass
class RouteHeld:
    """The route a goal's later stages hold (the lean plan's), set once the goal's first
    solve knows it; read when the stages after the goal are made (`then`)."""

    held: Held = field(default_factory=tuple)

    def on(self, stages: Sequence[Stage]) -> list[Stage]:
        """`stages` with the route held too."""
        return [replace(s, held=s.held + self.held) for s in stages]


@dataclass(frozen=True)
class GoalWords:
    """A goal as a user reads it: `about`, one line (the shell's completion); `help`, the
    `--goal` help's words for it; `value`, what its value is called in the verdict, and
    `unproven`, the verdict when the plan is not proven but bounded (`{tile}`: the goal's
    tile; `{more}`: the bound less the value; `{bound}`: the bound); `proven`, what a proven
    plan is, in a player's words; `fewest` and
    `no_fewest`: a proven no, with and without the fewest turns that would meet the goal
    (`{fewest}`; empty: the goal tells none)."""

    about: str
    help: str
    value: str
    unproven: str = "at most {more} more than this plan"
    proven: str = "no other plan of these turns does better under the assumptions below"
    fewest: str = ""
    no_fewest: str = ""


# the pipeline a goal's `answer` asks for plans: the turn planner on a request, with the
# default horizon carried on through the next festival within reach for a goal whose plan
# builds toward it (`planner.turns.ahead`)
Pipeline = Callable[[PlanRequest, Clock], PlanResult]


class GoalStrategy:
    """A goal of the turn planner. `stages` builds its lexicographic stages on the full
    model, `solve` solves them within the context's allotment; the rest judges the replayed
    plan (defaults: the plan's actions as solved, the referee's own festival towers, the
    stages' status and bound).

    The registry's fields: `name` (as `Goal.kind`), `words`, `unit` (the value's, "" for a
    score), `takes_tile` (the goal names a tile: its one option), and the horizon policy:
    `builds_toward_next` (a plan that reaches no festival tower builds toward the next one,
    and the default horizon goes on through the next festival within reach while the plan
    proves none) and `least_turns` (the fewest turns of the default horizon)."""

    name: ClassVar[str]
    words: ClassVar[GoalWords]
    unit: ClassVar[str] = ""
    takes_tile: ClassVar[bool] = False
    builds_toward_next: ClassVar[bool] = False
    modelled: ClassVar[bool] = True  # the turn planner has a model of its own for the goal

    def least_turns(self, budget: PlanBudget) -> int:
        """The fewest turns the default horizon plans for this goal."""
        return 1

    def tiles(self, goal: Goal) -> set[str] | None:
        """The tiles the plan model keeps claims of (None: every tile in reach)."""
        return None

    def answer(self, request: PlanRequest, clock: Clock, pipeline: Pipeline
               ) -> PlanResult:
        """The answer to `request`: the pipeline's plan, within the budget's wall clock for
        the limit (a what-if's two plans: twice). A goal of its own overrides it."""
        factor = 2 if request.fixed else 1
        with time_limited(request.budget.wall(clock.seconds * factor)):
            return pipeline(request, clock)

    def stages(self, plan: PlanModel, goal: Goal, spare_tokens: bool = False) -> list[Stage]:
        """The goal's stages, in order."""
        raise NotImplementedError

    def solve(self, ctx: PlanContext) -> Solved:
        """The goal's stages solved within `ctx.allot`."""
        raise NotImplementedError

    def value(self, goal: Goal, board: Board, replayed: Replay, player: str,
              planned: tuple[PlannedTurn, ...]) -> int | None:
        """The goal's value as the referee sees the replayed plan."""
        raise NotImplementedError

    def trim(self, goal: Goal, actions: list[list[Action]]) -> list[list[Action]]:
        """The turns a user is shown (all of them by default)."""
        return actions

    def towers(self, ctx: PlanContext, solver: cp_model.CpSolver) -> Choices | None:
        """The towers the replay builds where the player competes (None: the referee's best)."""
        return None

    def user_value(self, ctx: PlanContext, model_value: int | None) -> int | None:
        """The solver's objective as a user reads it."""
        return model_value

    def judge(self, ctx: PlanContext, result: StagedResult, value: int | None) -> Verdict:
        """The replayed plan's status and bound (the stages' by default)."""
        return Verdict(result.status, result.first_bound, result.clock_hit)

    def why_not(self, ctx: PlanContext, result: StagedResult
                ) -> tuple[tuple[str, ...], int | None]:
        """When no plan was found: why the goal cannot be met (a proven no), and the fewest
        turns that would meet it (None: not asked or not known)."""
        return (), None

