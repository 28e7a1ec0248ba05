"""`castell combo arrange | advise | tournament`: JSON shapes, totals the rules core agrees with,
pins respected, exit codes and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from models.combo import Grid, apply, legal_actions, load_deck, new_game, score_tableau
from tests.cli.helpers import assert_bad_input, no_crash, one_json, run

NINE = "C01,C05,C12,V03,V07,V18,V22,~C30,V31"


def test_arrange_json_is_proven_and_scores_as_reported() -> None:
    data = one_json(run("combo", "arrange", NINE, "--keys", "2", "--gold", "6", "--json"))
    assert data["status"] == "optimal" and data["bound"] == data["total"]
    assert set(data) >= {"status", "total", "tableau", "bound", "wall_time_s"}
    sheet = score_tableau(Grid.parse(data["tableau"]), load_deck(), 2, 6)
    assert sheet.total == data["total"]
    human = run("combo", "arrange", NINE, "--keys", "2", "--gold", "6")
    no_crash(human)
    assert human.exit_code == 0 and "proven optimal" in human.stdout


def test_arrange_respects_fixed_cards_and_never_beats_the_free_optimum() -> None:
    free = one_json(run("combo", "arrange", NINE, "--json"))
    pinned = one_json(run("combo", "arrange", NINE, "--fixed", "V31@top-left,~C30@centre",
                          "--json"))
    grid = Grid.parse(pinned["tableau"])
    assert grid.rows[0][0] is not None and grid.rows[0][0].card == "V31"
    assert grid.rows[1][1] is not None and str(grid.rows[1][1]) == "~C30"
    assert pinned["total"] <= free["total"]


def test_arrange_completes_a_tableau_in_progress(tmp_path: Path) -> None:
    deck = load_deck()
    state = new_game(deck, ["Ana", "Ben"], seed=3, first="Ana")
    for _ in range(6):  # three turns each, the first legal take each time
        state = apply(state, next(a for a in legal_actions(state) if str(a).startswith("flip")))
    path = tmp_path / "game.json"
    path.write_text(state.to_json(), encoding="utf-8")
    ana = state.now.players[0]
    used = {p.card for p in ana.tableau}
    more = [c.id for c in deck.cards if c.id not in used][:6]
    data = one_json(run("combo", "arrange", ",".join(more), "--from", str(path), "--player",
                        "Ana", "--json"))
    grid = Grid.parse(data["tableau"])
    assert score_tableau(grid, deck, ana.keys, ana.gold, ana.purses).total == data["total"]
    # the placed cards keep their relative positions
    first = grid.find(ana.tableau[0].card)
    assert first is not None
    for placed in ana.tableau:
        assert grid.find(placed.card) == (first[0] + placed.row - ana.tableau[0].row,
                                          first[1] + placed.column - ana.tableau[0].column)
    assert_bad_input(run("combo", "arrange", ",".join(more[:5]), "--from", str(path),
                         "--player", "Ana"), "give 6 more")


def test_arrange_sheet_folds_a_long_scroll_instead_of_cutting_it() -> None:
    # C01's scroll names four cells, one word too long for its column at 80 columns
    deck = load_deck()
    scroll = next(c for c in deck.cards if c.id == "C01")
    result = run("combo", "arrange", "C01,C05,C12,V03,V07,V18,V22,~C30,V31", "--keys", "2",
                 "--gold", "6")
    no_crash(result)
    assert result.exit_code == 0 and "\u2026" not in result.stdout
    assert scroll.score is not None
    cells = getattr(scroll.score.condition, "cells", [])
    assert cells and all(cell in result.stdout.replace("\n", "").replace("\u2502", "")
                         .replace(" ", "") for cell in cells)


def test_arrange_bad_input_is_one_line() -> None:
    assert_bad_input(run("combo", "arrange", "C01,C02"), "9 cards")
    assert_bad_input(run("combo", "arrange", NINE, "--fixed", "C01@middle"), "middle")
    assert_bad_input(run("combo", "arrange", NINE, "--fixed", "C99@top"), "C99")
    assert_bad_input(run("combo", "arrange", NINE, "--player", "Ana"), "--from")


def test_tournament_json_csv_and_determinism(tmp_path: Path) -> None:
    path = tmp_path / "cards.csv"
    args = ("combo", "tournament", "--bots", "greedy,random", "--games", "3", "--seed", "2")
    data = one_json(run(*args, "--csv", str(path), "--json"))
    assert data["games"] == 3 and set(data["bots"]) == {"greedy", "random"}
    low, high = data["bots"]["greedy"]["ci95"]
    assert 0 <= low <= data["bots"]["greedy"]["win_rate"] <= high <= 1
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("card,location,cost,bought") and len(lines) == 1 + 78
    assert one_json(run(*args, "--json")) == data
    human = run(*args)
    no_crash(human)
    assert human.exit_code == 0 and "95% interval" in human.stdout


def test_tournament_bad_input_is_one_line() -> None:
    assert_bad_input(run("combo", "tournament", "--bots", "greedy,wizard", "--games", "1"),
                     "wizard")
    assert_bad_input(run("combo", "tournament", "--bots", "greedy", "--games", "1"), "2-5")


def test_advise_json_and_human(tmp_path: Path) -> None:
    from tests.planner.combo.games import position

    state = position(5, turns=14)
    path = tmp_path / "game.json"
    path.write_text(state.to_json(), encoding="utf-8")
    before = path.read_bytes()
    data = one_json(run("combo", "advise", str(path), "--samples", "2", "--seed", "3",
                        "--json"))
    assert data["player"] == state.now.player.name and data["complete"] is True
    ranking = data["ranking"]
    assert {str(a) for a in legal_actions(state)} == {r["action"] for r in ranking}
    assert [r["value"] for r in ranking] == sorted((r["value"] for r in ranking), reverse=True)
    human = run("combo", "advise", str(path), "--samples", "2", "--seed", "3", "--top", "3")
    no_crash(human)
    assert human.exit_code == 0 and ranking[0]["action"] in human.stdout
    assert path.read_bytes() == before  # advice never writes the game
    other = state.now.players[(state.now.current + 1) % 2].name
    assert_bad_input(run("combo", "advise", str(path), "--player", other), "turn")


def test_advise_by_margin_is_the_planner_margin_ranking(tmp_path: Path) -> None:
    from planner.combo import advise
    from tests.planner.combo.games import position

    state = position(5, turns=14)
    path = tmp_path / "game.json"
    path.write_text(state.to_json(), encoding="utf-8")
    data = one_json(run("combo", "advise", str(path), "--samples", "2", "--seed", "3",
                        "--value", "margin", "--json"))
    expected = advise(state, samples=2, seed=3, value="margin", reasons=False)
    assert data["value"] == "margin"
    assert [r["action"] for r in data["ranking"]] == [str(a.action) for a in expected.ranking]
    by_score = one_json(run("combo", "advise", str(path), "--samples", "2", "--seed", "3",
                            "--json"))
    assert by_score["value"] == "score"
    human = run("combo", "advise", str(path), "--samples", "2", "--value", "margin")
    no_crash(human)
    assert human.exit_code == 0 and "margin" in human.stdout
    bad = run("combo", "advise", str(path), "--value", "wins")
    assert bad.exit_code == 2 and "score" in bad.stderr and "margin" in bad.stderr


def test_tournament_ctrl_c_is_one_line_exit_130(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    # the batch job asks the tournament loop when a chunk of games starts
    monkeypatch.setattr("planner.tournaments.play_game", interrupted)
    path = tmp_path / "cards.csv"
    result = run("combo", "tournament", "--bots", "greedy,random", "--games", "5", "--csv",
                 str(path))
    no_crash(result)
    assert result.exit_code == 130 and result.stdout == ""
    assert result.stderr.strip().splitlines() == ["interrupted; nothing written"]
    assert not path.exists()


def test_advise_time_limit_shows_the_ranking_so_far_with_exit_3(tmp_path: Path) -> None:
    from tests.planner.combo.games import position

    path = tmp_path / "game.json"
    path.write_text(position(2, turns=4).to_json(), encoding="utf-8")
    result = run("combo", "advise", str(path), "--samples", "500", "--time-limit", "0.01",
                 "--json")
    no_crash(result)
    assert result.exit_code == 3
    data = json_lines_first(result.stdout)
    assert data["complete"] is False and "time limit" in result.stderr
    assert "Infinity" not in result.stdout and "NaN" not in result.stdout  # strict JSON


def json_lines_first(stdout: str) -> dict[str, object]:
    import json

    lines = stdout.splitlines()
    assert len(lines) == 1
    value = json.loads(lines[0])
    assert isinstance(value, dict)
    return value


def test_arrange_limit_before_the_proof_is_exit_3_with_the_best_found() -> None:
    # nine cards whose optimum is below the quick upper bound, so CP-SAT must prove it
    result = run("combo", "arrange", "C05,V25,V04,C27,C17,V34,V35,V14,C14", "--time-limit",
                 "0.01", "--json")
    no_crash(result)
    data = json_lines_first(result.stdout)  # a deterministic limit: the same on any machine
    assert result.exit_code == 3 and data["status"] == "feasible"
    assert data["bound"] >= data["total"]
    assert score_tableau(Grid.parse(data["tableau"]), load_deck()).total == data["total"]


def test_arrange_stopped_by_ctrl_c_prints_its_answer_and_exits_130(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import cli.combo.solve

    monkeypatch.setattr(cli.combo.solve, "interrupted", lambda: True)
    result = run("combo", "arrange", NINE, "--keys", "2", "--gold", "6", "--json")
    assert result.exit_code == 130
    assert json.loads(result.stdout)["tableau"]
    assert result.stderr.strip().splitlines() == [
        "interrupted: the arrangement above is the best found so far"]


def test_tournament_out_folder_matches_the_plain_run_and_resumes(tmp_path: Path) -> None:
    args = ("combo", "tournament", "--bots", "greedy,random", "--games", "45", "--seed", "3")
    plain = one_json(run(*args, "--json"))
    folder = tmp_path / "run"
    first = one_json(run(*args, "--out", str(folder), "--workers", "2", "--json"))
    assert first == plain
    assert json.loads((folder / "summary.json").read_text())["games"] == 45
    games = (folder / "games.jsonl").read_text().splitlines()
    assert [json.loads(line)["index"] for line in games] == list(range(45))
    cards = (folder / "cards.csv").read_text().splitlines()
    assert cards[0].startswith("card,location,cost,bought") and len(cards) == 1 + 78
    # one chunk lost: the same command plays it again, and only it, in the folder's chunks
    # (two workers: chunks of 6 games; one worker would choose 12)
    chunks = sorted((folder / "chunks").rglob("*.jsonl"))
    assert len(chunks) == 8
    chunks[1].unlink()
    (folder / "games.jsonl").unlink()
    again = run(*args, "--out", str(folder), "--json")
    assert one_json(again) == plain
    assert again.stderr.splitlines() == ["continuing: 39 of 45 played"]
    assert (folder / "games.jsonl").read_text().splitlines() == games
    rerun = run(*args, "--out", str(folder), "--json")
    assert one_json(rerun) == plain
    assert rerun.stderr.splitlines() == ["already finished: 45 of 45; the summary again"]
    changed = run("combo", "tournament", "--bots", "greedy,greedy", *args[4:], "--out",
                  str(folder))
    assert_bad_input(changed, "--out: ", "bots greedy,random, not greedy,greedy")


def test_tournament_dask_without_the_extra_is_one_line_exit_2(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)
    assert_bad_input(run("combo", "tournament", "--bots", "greedy,random", "--games", "2",
                         "--dask", "local:2"), 'pip install -e ".[dask]"')
