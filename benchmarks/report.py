"""The designers' report of a Castell tournament, regenerated from its per-game records.

Run: python benchmarks/report.py --records DIR/games.jsonl[.gz] --out OUT [--title T]
     [--against OTHER/games.jsonl[.gz] --labels A,B] [--draws N] [--seed S]

The records are read bounded (512 MiB, unpacked) and the draws are 1 to 100000: beyond either,
one line and exit 2.

Writes into OUT: `report.md` (the tables: by place in the turn order, what the winners score,
final skill ranks and winning; every interval a 95% bootstrap over the deals, every table with
its sample sizes), `seats.svg` and `categories.svg`; with `--against`, also `compare.md` and
`compare.svg`: the second tournament (a rules variant, another board) against the first, per
place the difference and its interval. The same records, draws and seed give the same bytes.

The report of `docs/tournaments.md` (its records kept in `docs/data/`):

    python benchmarks/report.py --records docs/data/greedy-3p-150.jsonl.gz \
        --against docs/data/greedy-3p-150-advanced.jsonl.gz --labels standard,advanced \
        --title "150 games of three greedy bots" --out docs/report
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.errors import SpecError
from service.castell.tournament_report import (
    MAX_DRAWS,
    compare_report,
    read_records,
    tournament_report,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", required=True, help="a tournament's games.jsonl (or .gz)")
    parser.add_argument("--out", required=True, help="the folder for the report's files")
    parser.add_argument("--title", default="the tournament")
    parser.add_argument("--against", help="a second tournament's games.jsonl, to compare")
    parser.add_argument("--labels", default="first,second",
                        help="the two tournaments' names in the comparison, A,B")
    parser.add_argument("--draws", type=int, default=2000,
                        help=f"bootstrap draws, 1 to {MAX_DRAWS}")
    parser.add_argument("--seed", type=int, default=1, help="the bootstrap's seed")
    args = parser.parse_args(argv)
    try:
        records = read_records(args.records)
        written = tournament_report(records, args.title, args.draws, args.seed).write(args.out)
        if args.against is not None:
            labels = tuple(args.labels.split(","))
            if len(labels) != 2:
                raise SpecError("--labels takes two names, A,B")
            written += compare_report(records, read_records(args.against),
                                      (labels[0], labels[1]), args.draws,
                                      args.seed).write(args.out)
    except SpecError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
