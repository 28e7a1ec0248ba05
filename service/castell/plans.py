"""The turn plan use case: a player's best next turns in a game, asked of the game itself, so
that the plan is made under the game's own readings (or an explicit what-if's, which the
answer names), from its position without history, for a player named as typed at the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import planner.turns as turn_planner
from models.errors import SpecError
from models.game import Action, Board, EndTurn, parse_action
from planner.castell import GREEDY_RIVALS
from planner.clock import Clock
from planner.turns import (
    ADVICE_GOAL,
    DEFAULT_BUDGET,
    DEFAULT_PLAN_TIME_LIMIT,
    GOALS,
    Goal,
    GoalStrategy,
    PlanBudget,
    PlanRequest,
)
from service.cancel import current_token
from service.castell.plan_output import plan_output

if TYPE_CHECKING:  # Game: the game as the plan asks it (its handle calls this module)
    from service.castell.asked import AskedGame as Game
    from service.results.plan import PlanOutput

__all__ = ["COMMAND_BUDGET", "DEFAULT_GOAL", "DEFAULT_PLAN_TIME_LIMIT", "GOALS", "fixed_actions",
           "goal_help", "goal_of", "goal_words", "out_of_reach", "plan"]

DEFAULT_GOAL = str(ADVICE_GOAL)  # the advice's goal (see planner.turns.ADVICE_GOAL)
# a command that is its own process: the win goal's plans after the rivals' answers each in a
# process of its own (`PlanBudget.win_processes`; a server's requests keep threads)
COMMAND_BUDGET = replace(DEFAULT_BUDGET, win_processes=True)


def _written(strategy: GoalStrategy) -> str:
    """A goal as it is typed: its name, and TILE_ID for a goal that takes one."""
    return f"{strategy.name} TILE_ID" if strategy.takes_tile else strategy.name


def goal_help() -> str:
    """The registered goals, each with its words (`--goal`'s help)."""
    said = [f"{_written(g)} ({g.words.help})" for g in GOALS.values()]
    return f"{', '.join(said[:-1])} or {said[-1]}."


def goal_of(goal: str, tile: str | None = None) -> Goal:
    """A registered goal by name: `win`, `score`, `festival`, `tile TILE_ID` (for a goal that
    takes a tile, the id as `tile`, or in `goal` itself: `tile LP07`, `tile:LP07`)."""
    kind, _, inline = goal.strip().lower().partition(":")
    if " " in kind:  # --goal "tile LP07" quoted as one argument, as the help writes it
        kind, _, inline = kind.partition(" ")
    strategy = GOALS.get(kind)
    if strategy is None:
        goals = ", ".join(_written(g) for g in GOALS.values())
        raise SpecError(f"unknown goal '{goal}' (goals: {goals})", token=goal)
    if strategy.takes_tile:
        wanted = inline if inline else tile
        if not wanted or not wanted.strip():
            raise SpecError(f"the {kind} goal needs the tile's id, e.g. {kind} LP07",
                            field="goal")
        return Goal(kind, wanted.strip().upper())
    if tile is not None or inline:
        takes = " or ".join(f"the {g.name} goal" for g in GOALS.values() if g.takes_tile)
        raise SpecError(f"a tile id ('{tile or inline}') only goes with {takes}", field="goal")
    return Goal(kind)


def goal_words(result: PlanOutput) -> dict[str, str]:
    """What the plan's goal calls its value and its bound, in words (`GoalWords`), filled
    in for `result` (its tile, the bound, the bound less the value)."""
    words = GOALS[result.goal_kind].words
    more = None if result.bound is None else _number(result.bound - (result.objective or 0))
    values = {"tile": result.goal_tile or "", "bound": str(result.bound), "more": str(more),
              "fewest": str(result.fewest_turns)}
    return {"value": words.value.format(**values), "unproven": words.unproven.format(**values),
            "proven": words.proven.format(**values), "fewest": words.fewest.format(**values),
            "no_fewest": words.no_fewest.format(**values)}


def out_of_reach(result: PlanOutput) -> bool:
    """A plan of a goal that builds toward the next festival (the festival goal) that reaches
    no festival tower: it builds toward the next one."""
    return GOALS[result.goal_kind].builds_toward_next and result.found and not result.objective


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def fixed_actions(text: str, board: Board) -> list[Action]:
    """The actions a what-if fixes, separated by ';', each in the one action notation
    (`models.game.parse_action`: `move Girona`, `recruit 7 5` or `recruit 7,5`, `train
    SKILL`, `special move REGION`, `special recruit SIZE`, `special claim TILE TOWER`). Text
    that cannot be read is a `SpecError` naming its part; an action that is well written but
    breaks a rule (a recruit of three) is refused as `castell play` refuses it."""
    actions: list[Action] = []
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        try:
            action = parse_action(part, board)
        except SpecError as error:
            raise SpecError(f"'{part}': {error}", token=part, field="fix") from None
        if isinstance(action, EndTurn):
            raise SpecError(f"'{part}': the fixed actions are the first turn's, and the plan "
                            "ends its turns itself: leave 'end' out", token=part, field="fix")
        actions.append(action)
    if not actions:
        raise SpecError("no action given", field="fix")
    return actions


def plan(game: Game, player: str | None = None, turns: int | None = None,
         goal: Goal | str = DEFAULT_GOAL, cautious: bool = False, fixed: Sequence[Action] = (),
         time_limit: float = DEFAULT_PLAN_TIME_LIMIT, workers: int = 1,
         what_if_rules: str | None = None, budget: PlanBudget = DEFAULT_BUDGET) -> PlanOutput:
    """The best plan of `player`'s next `turns` turns (None: whose turn it is; through the
    next festival they could compete in, or past it when the plan shows it out of reach:
    `planner.turns.plan`) for `goal`, replayed through the referee, under the
    game's readings, or under `what_if_rules` for an explicit what-if (the answer says so).
    `fixed`: the first turn's first actions, fixed (a what-if: the plain plan is solved too,
    each within `time_limit`). A state whose refills are not recorded is refused: the plan
    cannot look past a draw it has not seen. A cancel (the request's token) stops the solve:
    the best plan so far comes back marked interrupted. `budget`: the planner's tuning (its
    wall clock a multiple of the limit: `PlanBudget.wall_slack`)."""
    game.require_refilled()
    name = game.player(player).name
    rules = game.what_if(what_if_rules)
    wanted = goal if isinstance(goal, Goal) else goal_of(goal)
    # one limit for every stage, re-solve and check (the win goal's plans share it); a
    # what-if's two plans get one each
    request = PlanRequest(game.position(), game.board, name, rules, goal=wanted, turns=turns,
                          cautious=cautious, fixed=tuple(fixed), workers=workers,
                          budget=budget, rivals=GREEDY_RIVALS)
    result = turn_planner.plan(request, Clock.start(time_limit))
    token = current_token()
    return plan_output(result, interrupted=token is not None and token.cancelled,
                       what_if_rules=None if what_if_rules is None else rules.spec)
