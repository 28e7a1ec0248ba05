"""Writes the turn-planner benchmark's states once: kept as files, not regenerated, so that
figures from different sessions are comparable (issue 23).

Run: python benchmarks/make_plan_states.py [--set kept|heldout] [--out DIR]   (refuses to
     overwrite a state)

States: `state new` deals of 2, 3 and 4 players played forward by seeded random legal actions
(`tests.planner.turns.game_states.played`: recruiting favoured, no claims) to the start of
rounds 1..10. `kept` (`benchmarks/plan_states/`): three seeds a player count, every round,
plus `examples/game/round3.json`: 91 states, the ones the planner's budget was tuned on.
`heldout` (`benchmarks/heldout_states/`, issue 34): other seeds (five a player count, every
other round, odd or even by seed): 75 states never used to choose a budget, so that the
figures on them say how the tuning holds away from the states it was fitted to.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.planner.turns.game_states import played

SEEDS = {2: (21, 22, 23), 3: (31, 32, 33), 4: (41, 42, 43)}
ROUNDS = range(1, 11)
# the held-out set: seeds never in SEEDS, every other round (odd rounds for even seeds)
HELDOUT_SEEDS = {2: (121, 122, 123, 124, 125), 3: (131, 132, 133, 134, 135),
                 4: (141, 142, 143, 144, 145)}
FOLDERS = {"kept": "benchmarks/plan_states", "heldout": "benchmarks/heldout_states"}


def wanted(which: str) -> list[tuple[int, int, int]]:
    """(players, seed, round) of each state of the set `which`."""
    if which == "kept":
        return [(p, s, r) for p, seeds in SEEDS.items() for s in seeds for r in ROUNDS]
    return [(p, s, r) for p, seeds in HELDOUT_SEEDS.items() for s in seeds
            for r in ROUNDS if r % 2 != s % 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(FOLDERS), default="kept")
    parser.add_argument("--out", default=None, help="default: the set's own folder")
    args = parser.parse_args()
    out = Path(args.out or FOLDERS[args.set])
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for players, seed, round_ in wanted(args.set):
        path = out / f"p{players}-s{seed}-r{round_:02d}.json"
        if path.exists():
            raise SystemExit(f"{path} exists: the states are kept, not regenerated")
        state = played(seed, players, round_)
        if state.game_over or state.round != round_:
            continue
        path.write_text(state.to_json(), encoding="utf-8")
        written += 1
    if args.set == "kept":
        example = Path(__file__).resolve().parent.parent / "examples" / "game" / "round3.json"
        shutil.copyfile(example, out / "example-round3.json")
        written += 1
    print(f"wrote {written} states to {out}")


if __name__ == "__main__":
    main()
