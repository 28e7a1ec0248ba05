"""The advice's chances: the models read only what the player sees, are shown only when fitted
on enough calls, and the fit recovers what it is fitted on; the calibration's deciles and Brier
score are counted as they are defined."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from planner.turns.win.chances import (
    LEAST_PREDICTIONS,
    Asked,
    Model,
    chances,
    fitted,
    linear,
    logistic,
)
from planner.turns.win.fitting import (
    Row,
    brier,
    fit,
    fit_linear,
    fit_logistic,
    held_out,
    predicted_by,
    reliability,
    rows_of,
)
from tests.planner.castell.games import BOARD, midgame


def _model(predictions: int) -> Model:
    return Model((0.0, 0.0, 1.0, 0.5, 0.0, 0.0), (1.0, 0.0, 10.0, 0.0, 0.0, 0.0), predictions,
                 predictions // 10)


def test_no_model_fitted_on_too_few_calls_is_shown(tmp_path: Path) -> None:
    assert fitted(tmp_path / "none.json") is None
    thin = tmp_path / "thin.json"
    model = _model(LEAST_PREDICTIONS - 1)
    thin.write_text(json.dumps({"win": model.win, "margin": model.margin,
                                "predictions": model.predictions, "games": model.games}))
    assert fitted(thin) is None
    enough = tmp_path / "enough.json"
    enough.write_text(json.dumps({"win": model.win, "margin": model.margin,
                                  "predictions": LEAST_PREDICTIONS, "games": 60}))
    assert fitted(enough) == Model(model.win, model.margin, LEAST_PREDICTIONS, 60)


def test_the_chances_read_the_margin_now_and_the_plans_gain() -> None:
    state = midgame(3, seed=2, until_round=4)
    me = state.turn.player
    model = _model(LEAST_PREDICTIONS)
    level = chances(state, BOARD, me, None, model)
    more = chances(state, BOARD, me, 1000, model)
    assert level is not None and more is not None
    assert 0 < level.win < more.win < 1  # a plan that adds points raises the chance
    assert level.games == model.games
    three = Model(model.win, model.margin, model.predictions, model.games, (3,))
    assert chances(state, BOARD, me, None, three) == level
    two = midgame(2, seed=2, until_round=4)
    assert chances(two, BOARD, two.turn.player, None, three) is None  # fitted on 3 only
    seen = Asked(BOARD.rounds - state.round, 0, 0, 3)
    assert seen.features()[0] == 1.0 and len(seen.features()) == len(model.win)


def test_the_fits_recover_the_models_they_are_fitted_on() -> None:
    rng = random.Random(1)
    xs = [(1.0, rng.uniform(-1, 1), rng.uniform(-1, 1)) for _ in range(3000)]
    truth = (0.3, 1.5, -2.0)
    ys = [1.0 if rng.random() < logistic(truth, x) else 0.0 for x in xs]
    found = fit_logistic(xs, ys)
    assert found == pytest.approx(truth, abs=0.25)
    line = fit_linear(xs, [2 + 3 * x[1] - x[2] for x in xs])
    assert line == pytest.approx((2, 3, -1), abs=0.15)  # the ridge shrinks a little


def _line(deal: int, index: int, won: bool, calls: int) -> dict[str, object]:
    players = ["Anna", "Biel", "Carla"]
    return {"record": {"index": index, "deal_seed": deal, "players": players,
                       "bots": ["advisor", "greedy", "greedy"],
                       "totals": [30, 20, 10] if won else [10, 20, 30],
                       "winners": ["Anna"] if won else ["Carla"]},
            "calls": {"seen_at": [{"round": r, "mine": r, "best_rival": 2 * r,
                                   "objective": r + 5, "last_round": r + 1}
                                  for r in range(1, calls + 1)]}}


def test_the_rows_are_the_advised_seats_calls_with_their_games_outcome() -> None:
    rows = rows_of([_line(7, 0, True, 3), _line(7, 1, False, 2)], rounds=10)
    assert len(rows) == 5 and {r.deal for r in rows} == {7}
    assert [r.won for r in rows] == [1.0] * 3 + [0.0] * 2
    assert [r.margin for r in rows] == [10] * 3 + [-20] * 2
    first = rows[0].features
    assert first == Asked(9, -1, 5, 3).features()


def test_the_calibration_predicts_each_deal_from_the_others() -> None:
    rows = [Row(deal, deal * 10 + i, (1.0, i / 3, (deal % 3 - 1) / 1.0, 0.0, 0.0, 0.0),
                float(deal % 2), deal % 5 - 2) for deal in range(8) for i in range(3)]
    predicted = held_out(rows)
    assert len(predicted) == len(rows)
    model = fit(rows)
    assert model.predictions == len(rows) and model.games == len(rows)
    pairs = [(0.05, 0.0), (0.05, 1.0), (0.95, 1.0)]
    table = reliability(pairs)
    assert [d.count for d in table] == [2] + [0] * 8 + [1]
    assert table[0].happened == 0.5 and table[-1].predicted == 0.95
    assert brier(pairs) == pytest.approx((0.05**2 + 0.95**2 + 0.05**2) / 3)


def test_the_shown_model_predicts_games_it_was_not_fitted_on() -> None:
    # `predicted_by`: the model's own chance and margin for each row, not a fit without its
    # deal, with what happened
    fitted_on = [Row(deal, deal * 10 + i, (1.0, i / 3, (deal % 3 - 1) / 1.0, 0.0, 0.0, 0.0),
                     float(deal % 2), deal % 5 - 2) for deal in range(8) for i in range(3)]
    model = fit(fitted_on)
    later = [Row(9, 90, (1.0, 0.5, 1.0, 0.2, 0.0, 0.1), 1.0, 7)]
    (chance, margin, won, final), = predicted_by(model, later)
    assert chance == logistic(model.win, later[0].features)
    assert margin == linear(model.margin, later[0].features)
    assert (won, final) == (1.0, 7)
    assert predicted_by(model, fitted_on) != held_out(fitted_on)


def test_fit_chances_shown_tells_the_shown_models_calibration_on_given_games() -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, str(root / "benchmarks" / "fit_chances.py"),
                           "--shown", "--records", str(root / "benchmarks" / "records" / "panel")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr + done.stdout
    assert "| predicted chance | calls |" in done.stdout
    assert "each predicted by the shown model (fitted on" in done.stdout


def test_the_shown_model_and_its_calibration_table_are_what_the_records_give() -> None:
    """`chances.json` and the reliability table in the docs, fitted again from the records
    they were fitted on (benchmarks/records/panel): the same coefficients, the same table."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, str(root / "benchmarks" / "fit_chances.py"),
                           "--check"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr + done.stdout
    table = (root / "benchmarks" / "records" / "panel" / "calibration.md").read_text()
    assert table.split("\n\n")[0] in (root / "docs" / "benchmarks.md").read_text()
    assert fitted() is not None  # fitted on enough calls: a plan of those games shows them


def test_a_model_shows_chances_only_for_the_numbers_of_players_it_was_fitted_on() -> None:
    three = Model((0.0,) * 6, (0.0,) * 6, 600, 60, players=(3,))
    assert three.shows(3) and not three.shows(2) and not three.shows(4)
    assert Model((0.0,) * 6, (0.0,) * 6, 600, 60).shows(4)  # not recorded: any
