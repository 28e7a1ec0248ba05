"""The Castell bots: `random`, `greedy`, `advisor`, `score`, `festival`, `cautious`, and the
panel's styles (`tiles`, `festivals`, `traveller`, `sizes`, `recruiter`, `noisy`). A bot chooses
one whole turn for the player to move (its actions, ending with `EndTurn`, and the festival
towers it names) from what that player sees (`seen`: no bag, no future refills).

- `random`: a uniformly random legal action at each step, until it draws the end of the turn
  (claims included), from the bot's own generator: a floor.
- `greedy`: `planner.castell.greedy`, a one-turn heuristic.
- `advisor`: what `castell plan` advises by default: `planner.turns.plan` on the default
  horizon (`turns=None`) for the advice's goal (`planner.turns.ADVICE_GOAL`, the win goal of
  `planner.turns.win`, against `GREEDY_RIVALS`), at `DEFAULT_PLAN_TIME_LIMIT`, one worker,
  seed 0, under the command's own wall clock (`PlanBudget.wall`); the plan's first turn as
  given, and the tower the plan builds at a festival of this round named for it; greedy's
  turn when the plan finds nothing.
- `score`: the same for `Goal("score")` (the advice's goal until the win goal);
- `festival`: the same for `Goal("festival")`, the advice's goal until 2026-12-04;
- `cautious`: the score goal planning no recruit where a rival could recruit first, and every
  rival who could come to a festival competing there (`castell plan --cautious`).
- the panel's styles (`planner.castell.panel`): the greedy bot under other weights (a tile
  hunter, a festival hunter, a traveller, a size-token builder, a recruiter) and the greedy
  bot with random slips (`noisy`, from the bot's own generator).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from models.game import Board, EndTurn, GameState, apply, legal_actions
from planner.castell.greedy import greedy_bot, greedy_turn
from planner.castell.panel import PANEL_BOTS
from planner.castell.rivals import GREEDY_RIVALS
from planner.castell.turn import Bot, Turn, festival_finder, plan_towers, seen, tile_finder
from planner.clock import Clock
from planner.turns import (
    ADVICE_GOAL,
    DEFAULT_BUDGET,
    DEFAULT_PLAN_TIME_LIMIT,
    Goal,
    Plan,
    PlanBudget,
    PlanRequest,
    Rivals,
)
from planner.turns import plan as answer


def random_bot(state: GameState, board: Board, rng: random.Random) -> Turn:
    """Any legal action, uniformly, step by step until the end of the turn is drawn."""
    state = seen(state)
    rules = state.game_rules
    actions = []
    while True:
        action = rng.choice(legal_actions(state, board, rules, tiles=tile_finder))
        actions.append(action)
        if isinstance(action, EndTurn):
            return Turn(tuple(actions))
        state = apply(state, board, action, rules, festival_finder)


@dataclass
class Advisor:
    """The advice of `castell plan` for `goal` as a bot. It keeps, for measuring (never in a
    game's record: they depend on the machine), each call's wall and CPU seconds, and counts
    the turns that fell back to greedy and the plans the wall clock cut short; and the first
    turns the win goal weighed at each call (whose, whether advised, the margin after the
    rivals' answers; none for other goals), to tell later which first turns it chose."""

    goal: Goal = ADVICE_GOAL
    time_limit: float = DEFAULT_PLAN_TIME_LIMIT
    budget: PlanBudget = DEFAULT_BUDGET
    cautious: bool = False  # no recruit where a rival could first, rivals coming to festivals
    rivals: Rivals = GREEDY_RIVALS  # the win goal's model of the rivals (a variant: `panel`)
    wall_s: list[float] = field(default_factory=list)
    cpu_s: list[float] = field(default_factory=list)
    fallbacks: int = 0
    clock_hits: int = 0
    first_turns: list[tuple[tuple[str, bool, float], ...]] = field(default_factory=list)

    def plan(self, state: GameState, board: Board) -> Plan:
        """The plan `castell plan` gives the player to move, by default."""
        started, cpu = time.perf_counter(), time.process_time()
        request = PlanRequest(state, board, state.turn.player, state.game_rules, goal=self.goal,
                              turns=None, cautious=self.cautious, workers=1, seed=0,
                              budget=self.budget, rivals=self.rivals)
        result = answer(request, Clock.start(self.time_limit))
        self.wall_s.append(time.perf_counter() - started)
        self.cpu_s.append(time.process_time() - cpu)
        self.clock_hits += result.clock_hit
        self.first_turns.append(tuple((w.source, w.chosen, w.answered.margin)
                                      for w in result.weighed))
        return result.plan

    def __call__(self, state: GameState, board: Board, rng: random.Random) -> Turn:
        state = seen(state)
        plan = self.plan(state, board)
        if not plan.found or not plan.turns or plan.turns[0].round != state.round:
            self.fallbacks += 1
            return greedy_turn(state, board)
        return Turn((*plan.turns[0].actions, EndTurn()), plan_towers(plan, state))


def _kept(bot: Bot) -> Callable[[], Bot]:
    """A factory of a bot that keeps nothing (the same one serves every game)."""
    return lambda: bot


# bot name -> a new bot of that kind (each game's own: what a bot keeps stays with it)
BOTS: dict[str, Callable[[], Bot]] = {
    "random": lambda: random_bot,
    "greedy": lambda: greedy_bot,
    "advisor": Advisor,
    "festival": lambda: Advisor(Goal("festival")),
    "score": lambda: Advisor(Goal("score")),
    "cautious": lambda: Advisor(Goal("score"), cautious=True),
    **{name: _kept(bot) for name, bot in PANEL_BOTS.items()},
}
