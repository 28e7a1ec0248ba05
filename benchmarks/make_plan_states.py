"""Writes the turn-planner benchmark's states once (`benchmarks/plan_states/`): kept as files,
not regenerated, so that figures from different sessions are comparable (issue 23).

Run: python benchmarks/make_plan_states.py [--out DIR]   (refuses to overwrite a state)

States: `state new` deals of 2, 3 and 4 players (three seeds each) played forward by seeded
random legal actions (`tests.planner.turns.game_states.played`: recruiting favoured, no
claims) to the start of rounds 1..10, plus `examples/game/round3.json`: 91 states.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="benchmarks/plan_states")
    out = Path(parser.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for players, seeds in SEEDS.items():
        for seed in seeds:
            for round_ in ROUNDS:
                path = out / f"p{players}-s{seed}-r{round_:02d}.json"
                if path.exists():
                    raise SystemExit(f"{path} exists: the states are kept, not regenerated")
                state = played(seed, players, round_)
                if state.game_over or state.round != round_:
                    continue
                path.write_text(state.to_json(), encoding="utf-8")
                written += 1
    example = Path(__file__).resolve().parent.parent / "examples" / "game" / "round3.json"
    shutil.copyfile(example, out / "example-round3.json")
    print(f"wrote {written + 1} states to {out}")


if __name__ == "__main__":
    main()
