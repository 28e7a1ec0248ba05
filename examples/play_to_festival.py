"""Play the first three rounds with a simple policy, refereed, up to the first festival.

Every player heads for the round-3 festival's region, recruits the two largest castellers
there and trains whatever the wheel offers. Prints the festival result; with a file name,
also writes the state just before the festival (examples/game/round3.json was made so).
Run: python examples/play_to_festival.py [STATE_OUT]
"""

import sys
from pathlib import Path

from models.game import (
    SPECIAL,
    EndTurn,
    Move,
    Recruit,
    RegionGraph,
    Train,
    apply,
    legal_actions,
    load_board,
    new_game,
    resolve_festival,
)
from models.tower import STANDARD
from planner.tower import festival_tower

board = load_board()
graph = RegionGraph(board)
state = new_game(board, players=3, seed=4)
target = state.festivals_in(3)[0]
PREFERRED = ["balance", "width", "base", "strength", "mix"]


def choose(actions: list) -> object:
    """Move toward the festival, recruit the largest pair, train a skill, then end the turn."""
    player = state.current
    here = player.pawn
    moves = [a for a in actions if isinstance(a, Move)]
    if moves and here != target.region:
        return min(moves, key=lambda a: graph.distance(a.to, target.region))
    recruits = [a for a in actions if isinstance(a, Recruit)]
    if recruits:
        return max(recruits, key=lambda a: (len(a.sizes), sorted(a.sizes, reverse=True)))
    trains = [a for a in actions if isinstance(a, Train) and a.skill != SPECIAL]
    if trains:  # Balance and Width make festival towers tall
        return min(trains, key=lambda a: PREFERRED.index(a.skill))
    return EndTurn()


while True:
    last_turn = state.round == 3 and state.turn.player == state.turn_order[-1]
    action = choose(legal_actions(state, board, state.game_rules))
    if last_turn and isinstance(action, EndTurn):
        break
    state = apply(state, board, action, state.game_rules, finder=festival_tower)

if len(sys.argv) > 1:
    Path(sys.argv[1]).write_text(state.to_json(), encoding="utf-8")

outcome = resolve_festival(state, board, target, STANDARD, festival_tower)
print(f"{target.location}, round {target.round}, size tokens {target.size_tokens}")
for entry in outcome.entries:
    shown = f"{entry.tower} scores {entry.score}, prize {entry.prize}" if entry.tower \
        else f"out ({entry.reason})"
    print(f"  {entry.player}: {shown}")
