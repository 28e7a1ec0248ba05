"""The Castle Combo solvers on the invented sample deck: the proven best arrangement of nine
cards, the advisor's ranking for a player late in a game, and a small bot tournament."""

from __future__ import annotations

import random

from models.combo import Slot, apply, load_deck, new_game
from planner.combo import (
    advise,
    arrangement_question,
    best_arrangement,
    greedy,
    run_tournament,
)


def main() -> None:
    deck = load_deck()
    # 1. nine cards, one face down, 2 keys and 6 gold left at the end
    cards = ["C01", "C05", "C12", "V03", "V07", "V18", "V22", "~C30", "V31"]
    slots = [Slot(c.lstrip("~"), c.startswith("~")) for c in cards]
    best = best_arrangement(arrangement_question(deck, slots, keys=2, gold=6))
    print(f"arrange: {best.status}, {best.total} points: {best.grid}")

    # 2. a two-player game played by the greedy bot for 14 actions, then advice for the mover
    state = new_game(deck, ["Ana", "Ben"], seed=5, first="Ana")
    rng = random.Random(5)
    for _ in range(14):
        state = apply(state, greedy(state, rng))
    advice = advise(state, samples=4, seed=1)
    print(f"advise {advice.player} ({len(advice.ranking)} legal actions):")
    for item in advice.ranking[:3]:
        print(f"  {item.action}: {item.value:.1f} ± {item.stderr:.1f} "
              f"({item.samples} samples) {item.reason}")

    # 3. greedy against random, four seeded games
    summary = run_tournament(deck, ["greedy", "random"], 4, seed=1)
    for bot, row in summary.bots.items():
        print(f"{bot}: won {row['wins']} of {row['games']}, mean score {row['mean_score']}")


if __name__ == "__main__":
    main()
