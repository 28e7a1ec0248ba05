"""What should I do in my next turns? Plan them, read why each step is there, then play the
plan through the referee.

Run: python examples/plan_next_turns.py
"""

from pathlib import Path

from models.game import load_board, load_state
from planner.turns import Goal, plan_turns, replay

board = load_board()
state = load_state(Path(__file__).parent / "game" / "round3.json", board)
player = state.turn.player
names = {r.id: r.name for r in board.regions}

for goal in (Goal("festival"), Goal("score")):
    # no `turns`: the horizon runs through the next festival the player could compete in;
    # no `time_limit`: the default, as `castell plan` has it
    plan = plan_turns(state, board, player, rules=state.game_rules, turns=None, goal=goal)
    if plan.end is None:  # the limit came before any plan (a slow or busy machine): unknown
        print(f"{player}, goal {goal}: no plan within the limit ({plan.status})")
        continue
    print(f"{player}, goal {goal}: {plan.objective} ({plan.status}, bound {plan.bound})")
    for turn, steps in zip(plan.turns, plan.steps, strict=True):
        print(f"  round {turn.round}:")
        for step in steps:
            print(f"    {step.action} [{step.cost}] in {names.get(step.where, step.where)}: "
                  f"{step.reason}")
    for festival in plan.festivals:
        entry = festival.entry
        print(f"  {festival.location}, round {festival.round}: "
              f"{entry.tower or entry.reason} (score {entry.score})")
    # plan_turns already replayed the plan; doing it again shows how to use the referee
    again = replay(plan.start, board, player, [list(t.actions) for t in plan.turns],
                   state.game_rules)
    assert again.state.player(player) == plan.end.player(player)
