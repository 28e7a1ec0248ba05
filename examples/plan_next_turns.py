"""What should I do in my next turns? Plan them, read why each step is there, then play the
plan through the referee.

Run: python examples/plan_next_turns.py
"""

from pathlib import Path

from models.game import load_board, load_state
from planner.clock import Clock
from planner.turns import DEFAULT_PLAN_TIME_LIMIT, Goal, PlanRequest, plan, replay

board = load_board()
state = load_state(Path(__file__).parent / "game" / "round3.json", board)
player = state.turn.player
names = {r.id: r.name for r in board.regions}

for goal in (Goal("festival"), Goal("score")):
    # one request, one answer: no `turns`, so the horizon runs through the next festival the
    # player could compete in; the clock of `castell plan`'s default time limit
    asked = PlanRequest(state=state, board=board, player=player, rules=state.game_rules,
                        goal=goal)
    planned = plan(asked, Clock.start(DEFAULT_PLAN_TIME_LIMIT)).plan
    if planned.end is None:  # the limit came before any plan (a slow or busy machine): unknown
        print(f"{player}, goal {goal}: no plan within the limit ({planned.status})")
        continue
    print(f"{player}, goal {goal}: {planned.objective} ({planned.status}, bound {planned.bound})")
    for turn, steps in zip(planned.turns, planned.steps, strict=True):
        print(f"  round {turn.round}:")
        for step in steps:
            print(f"    {step.action} [{step.cost}] in {names.get(step.where, step.where)}: "
                  f"{step.reason}")
    for festival in planned.festivals:
        entry = festival.entry
        print(f"  {festival.location}, round {festival.round}: "
              f"{entry.tower or entry.reason} (score {entry.score})")
    # the planner already replayed the plan; doing it again shows how to use the referee
    again = replay(planned.start, board, player, [list(t.actions) for t in planned.turns],
                   state.game_rules)
    assert again.state.player(player) == planned.end.player(player)
