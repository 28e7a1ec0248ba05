"""A plan of one known turn, made without a solver: the advice's floor.

The win goal's search is bounded by deterministic work, and the wall clock is only a safety
net. When the net stops the search anyway (a machine far busier than the work was sized for),
the plan it was building is whatever the search held at that instant: another run gives
another, and once it was "train mix / train base" for 0 points where the greedy bot's turn
scored 19. So the floor is a turn known before any search, the rivals' model's own turn in the
player's place (the greedy bot's: a complete legal turn in well under a second), and a cut
search gives that turn, the same on every run. It is played through the referee like any
plan, judged by the score goal over that one turn and explained step by step.
"""

from __future__ import annotations

from models.game import EndTurn, GameState, score_player
from models.tower import Tower
from planner.clock import now
from planner.stopping import grace
from planner.tower import Status
from planner.turns.explain import explain
from planner.turns.horizon import Goal
from planner.turns.replay import Refill, advance_to, replay, visible
from planner.turns.request import PlanRequest, RivalTurn
from planner.turns.result import Asked, Effort, Plan, PlannedTurn, planned_festivals
from planner.turns.upcoming import Ahead

SCORE = Goal("score")
FLOOR_WORDS = ("the search met the wall clock before it had a plan it could stand by: this "
               "is the floor, the turn a reasonable player would take now, judged over this "
               "turn only")


def known_plan(request: PlanRequest, turn: RivalTurn, ahead: tuple[Ahead, ...]) -> Plan:
    """The plan of `turn` (the player's whole turn, ending with its `EndTurn`; the festival
    towers it names) from `request.state`, as the referee replays it, its value the score
    goal's; `ahead`: the festivals ahead as the plain plan's outlook found them (not worked
    out again). Its status is `FEASIBLE` (a legal plan, nothing proven of it)."""
    started = now()
    state, board, player, rules = request.state, request.board, request.player, request.rules
    player = state.player(player).name
    before: list[Refill] = []
    start = advance_to(visible(state), board, player, rules, refills=before)
    actions = [a for a in turn.actions if not isinstance(a, EndTurn)]
    chosen = {(location, player): None if text is None else Tower.parse(text, rules)
              for location, text in turn.towers}
    # a turn in hand is checked even when the search took the whole limit (`ReplayOutOfTime`:
    # not within the grace either; the caller keeps what it had)
    with grace(request.budget.wall(request.budget.replay_grace)):
        replayed = replay(start, board, player, [actions], rules, chosen=chosen or None)
    planned = (PlannedTurn(start.round, tuple(actions)),)
    asked = Asked(SCORE, player, start, tuple(before), (FLOOR_WORDS,), 1, ahead, (), None,
                  started)
    end = replayed.state.player(player)
    steps = explain(start, board, player, [planned[0].actions], rules, None, end.ranks)
    return Plan.replayed(asked, Status.FEASIBLE, Effort(),
                         objective=score_player(end, board).total,  # the score goal's value
                         model_objective=None, bound=None, turns=planned,
                         festivals=planned_festivals(replayed, player, chosen or None),
                         tie_breaks=(), end=replayed.state,
                         refills=(*before, *replayed.refills), clock_hit=True, steps=steps,
                         target=None)


def cut_short(plan: Plan, state: GameState) -> bool:
    """Whether a plan is no answer to stand by for the player to move in `state`: none was
    found, its first turn is not this one, or the wall clock stopped its search."""
    return (not plan.found or not plan.turns or plan.turns[0].round != state.round
            or plan.clock_hit)
