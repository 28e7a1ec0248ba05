"""What should I do in my next turns? Plan them, then play the plan through the referee.

Run: python examples/plan_next_turns.py
"""

from pathlib import Path

from models.game import load_board, load_state
from models.tower import STANDARD
from planner.turns import Goal, plan_turns, replay

board = load_board()
state = load_state(Path(__file__).parent / "game" / "round3.json", board)
player = state.turn.player

for goal in (Goal("festival"), Goal("score")):
    plan = plan_turns(state, board, player, turns=2, goal=goal, time_limit=8)
    print(f"{player}, goal {goal}: {plan.objective} ({plan.status}, bound {plan.bound})")
    for turn in plan.turns:
        print(f"  round {turn.round}: " + "; ".join(map(str, turn.actions)))
    for festival in plan.festivals:
        entry = festival.entry
        print(f"  {festival.location}, round {festival.round}: "
              f"{entry.tower or entry.reason} (score {entry.score})")
    # plan_turns already replayed the plan; doing it again shows how to use the referee
    again = replay(plan.start, board, player, [list(t.actions) for t in plan.turns], STANDARD)
    assert again.state.player(player) == plan.end.player(player)  # type: ignore[union-attr]
