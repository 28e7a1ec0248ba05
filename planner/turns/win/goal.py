"""The win goal as a goal of the turn planner: no model of its own (it plans the cautious score
goal's plans), its answer the plan whose first turn leaves the player furthest ahead after
the rivals' answers (`planner.turns.win.answers`)."""

from __future__ import annotations

from dataclasses import replace

from planner.clock import Clock
from planner.stopping import time_limited
from planner.turns.budget import PlanBudget
from planner.turns.known import SCORE
from planner.turns.request import Chances, PlanRequest, PlanResult
from planner.turns.strategy import GoalStrategy, GoalWords, Pipeline
from planner.turns.win.answers import plan_to_win
from planner.turns.win.chances import chances


class WinGoal(GoalStrategy):
    """The most end-of-game points, the first turn chosen expecting the rivals' answers."""

    name = "win"
    words = GoalWords(
        about="end-of-game points, the first turn weighed against the rivals' greedy answers",
        help="the default: each rival is modelled as the project's greedy bot answering your "
             "turn; of two first turns, the cautious score plan's and the greedy bot's, it "
             "keeps the one that leaves you further ahead of the best rival after their "
             "answers, then plans your end-of-game points; it wins the most whole games",
        value="points", unproven="at most {more} points more than this plan",
        proven="no other plan of these turns that starts with this first turn ends with more "
               "points under the assumptions below")
    unit = "points"
    modelled = False  # the turn planner solves the score goal's model for it

    @staticmethod
    def chances(request: PlanRequest, answer: PlanResult) -> Chances | None:
        """The player's chances from here, when the answer's plan starts with their turn
        now (the models read the points its plan adds: `planner.turns.win.chances`)."""
        state, plan = request.state, answer.plan
        if not plan.found or state.game_over or plan.start.round != state.round:
            return None
        return chances(state, request.board, state.player(request.player).name,
                       plan.objective)

    def least_turns(self, budget: PlanBudget) -> int:
        """The plain plan looks through the next round's festival too (`win_least_turns`)."""
        return budget.win_least_turns

    def answer(self, request: PlanRequest, clock: Clock, pipeline: Pipeline) -> PlanResult:
        """`plan_to_win`, within the budget's wall clock for the limit; a what-if (`fixed`)
        is the cautious score plan through its fixed actions (the plan without them solved
        too: the wall clock for both)."""
        budget = request.budget
        if not request.fixed:
            with time_limited(budget.wall(clock.seconds)):
                answer = plan_to_win(request, clock, pipeline)
            return replace(answer, chances=self.chances(request, answer))
        with time_limited(budget.wall(clock.seconds * 2)):
            return pipeline(replace(request, goal=SCORE, cautious=True,
                                    least_turns=self.least_turns(budget),
                                    budget=budget.win_plans()), clock)
