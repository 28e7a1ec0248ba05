"""Fit the advice's chances (`planner.turns.win.chances`) on whole games against the panel, and
check their calibration (issue 51).

Run:  python benchmarks/fit_chances.py --records DIR [DIR ...] [--md FILE] [--write]
      python benchmarks/fit_chances.py --check   (the shown model and its table, recomputed)
      python benchmarks/fit_chances.py --shown --records DIR [DIR ...]   (the shown model on
                                                   games it was not fitted on)

Reads every table's game lines (`*.jsonl`, `*.jsonl.gz`) in the folders `bench_panel.py run
--out` wrote: each advice call of the advised seat with its game's outcome. Fits the chance
(logistic) and the final margin (linear) on all of them; then, for the calibration, predicts
each call with the models fitted without its deal (`planner.turns.win.fitting.held_out`).
Prints the reliability table (predictions in ten ranges of the chance: how many, their mean,
the share of those games won), the Brier score (and that of always predicting the overall win
rate, to beat), and the margin's mean absolute error. `--shown` predicts every call with the
model the advice shows instead (`chances.json`, not fitted again): on games played since its
fit, whether its chances still hold for the advice as it is now. `--md` writes them as Markdown;
`--write` writes the model to `planner/turns/win/chances.json`, which the advice shows once it
is fitted on at least `LEAST_PREDICTIONS` calls.

The records the shown model was fitted on are kept in `benchmarks/records/panel/` (gzipped),
with the table they give (`calibration.md`, in the docs too): `--check` fits both again from
those records and exits 1 if either differs from what is kept (a test runs it).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from models.game import load_board  # noqa: E402
from planner.turns.win.chances import LEAST_PREDICTIONS, MODEL, Asked, Model, fitted  # noqa: E402
from planner.turns.win.fitting import (  # noqa: E402
    Row,
    brier,
    fit,
    held_out,
    predicted_by,
    reliability,
    rows_of,
)


def read_lines(path: Path) -> list[dict[str, Any]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def read_rows(folders: list[Path]) -> tuple[list[Row], list[str]]:
    rows: list[Row] = []
    names = []
    rounds = load_board().rounds
    files = sorted(p for f in folders for p in f.iterdir()
                   if p.name.endswith((".jsonl", ".jsonl.gz")))
    for table, path in enumerate(files):
        rows += rows_of(read_lines(path), rounds, table=table)
        names.append(f"{path.parent.name}/{path.name}")
    return rows, names


def calibration_text(rows: list[Row], shown: Model | None = None) -> str:
    """The reliability table, the Brier scores and the margin's error, as Markdown: each call
    predicted by the models fitted without its deal, or by the `shown` model."""
    predicted = held_out(rows) if shown is None else predicted_by(shown, rows)
    pairs = [(p, won) for p, _, won, _ in predicted]
    base = sum(won for _, won in pairs) / len(pairs)
    lines = ["| predicted chance | calls | mean prediction | share won |", "|---|---|---|---|"]
    for decile in reliability(pairs):
        lines.append(f"| {decile.low * 100:.0f}-{decile.high * 100:.0f}% | {decile.count} | "
                     + (f"{decile.predicted * 100:.1f}% | {decile.happened * 100:.1f}% |"
                        if decile.count else "- | - |"))
    error = sum(abs(m - y) for _, m, _, y in predicted) / len(predicted)
    lines += ["", f"Brier score {brier(pairs):.3f} (always {base * 100:.0f}%: "
                  f"{brier([(base, won) for _, won in pairs]):.3f}); final margin's mean "
                  f"absolute error {error:.1f} points; {len(rows)} calls of "
                  f"{len({r.game for r in rows})} games on {len({r.deal for r in rows})} "
                  + ("deals, each predicted by the models fitted without its deal."
                     if shown is None else
                     f"deals, each predicted by the shown model (fitted on {shown.predictions} "
                     f"calls of {shown.games} games).")]
    return "\n".join(lines)


RECORDS = ROOT / "benchmarks" / "records" / "panel"


def check() -> None:
    """The shown model and its calibration table, fitted again from the kept records."""
    rows, names = read_rows([RECORDS])
    kept = json.loads(MODEL.read_text(encoding="utf-8"))
    model = fit(rows)
    same = (kept["fitted_on"] == names and kept["predictions"] == model.predictions
            and kept["games"] == model.games and kept.get("players") == list(model.players)
            and all(abs(a - b) < 1e-6 for a, b in zip(kept["win"] + kept["margin"],
                                                       model.win + model.margin, strict=True)))
    table = calibration_text(rows) + "\n"
    if not same or (RECORDS / "calibration.md").read_text(encoding="utf-8") != table:
        raise SystemExit(f"{MODEL.name} or calibration.md is not what {RECORDS.name}'s records "
                         "give: fit again with --write and --md")
    print(f"{MODEL.name} and calibration.md are what the {len(names)} records give")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=Path, nargs="+")
    parser.add_argument("--md", type=Path)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--shown", action="store_true",
                        help="predict with the shown model (chances.json), not a new fit")
    args = parser.parse_args()
    if args.check:
        check()
        return
    if not args.records:
        raise SystemExit("--records DIR is needed (or --check)")
    if args.shown and args.write:
        raise SystemExit("--shown fits nothing: --write is for a new fit")
    rows, names = read_rows(args.records)
    if not rows:
        raise SystemExit("no advice calls in these records")
    shown = fitted() if args.shown else None  # the model the advice shows, as it loads it
    if args.shown and shown is None:
        raise SystemExit(f"no chances are shown: {MODEL.name} is missing or fitted on fewer "
                         f"than {LEAST_PREDICTIONS} calls")
    if shown is not None:  # the calls the advice shows chances in (their numbers of players)
        rows = [r for r in rows if shown.shows(Asked.players_of(r.features))]
        if not rows:
            raise SystemExit("the shown model gives no chances in these records' games")
    if shown is None and len({r.deal for r in rows}) < 2:
        raise SystemExit("the calibration needs the games of two deals at least")
    text = calibration_text(rows, shown)
    print(text)
    if args.md:
        args.md.write_text(text + "\n", encoding="utf-8")
    if args.write:
        model = fit(rows)
        MODEL.write_text(json.dumps({
            "win": model.win, "margin": model.margin, "predictions": model.predictions,
            "games": model.games, "players": list(model.players), "fitted_on": names,
            "when": time.strftime("%Y-%m-%d", time.gmtime())}, indent=1) + "\n",
            encoding="utf-8")
        shown = "shown" if model.predictions >= LEAST_PREDICTIONS else (
            f"not shown until it is fitted on {LEAST_PREDICTIONS} calls")
        print(f"written {MODEL.relative_to(ROOT)}: {model.predictions} calls, {shown}")


if __name__ == "__main__":
    main()
