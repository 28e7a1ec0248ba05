"""`castell tournament`: the tables, the picture, and one-line refusals."""

from __future__ import annotations

from pathlib import Path

from tests.cli.helpers import assert_bad_input, no_crash, one_json, run


def test_a_short_tournament_prints_its_tables_and_draws_its_scores(tmp_path: Path) -> None:
    result = run("tournament", "--bots", "greedy,random", "--games", "2", "--seed", "4",
                 "--svg", str(tmp_path / "s.svg"))
    no_crash(result)
    assert result.exit_code == 0, result.stderr
    for words in ("2 games", "mean points per category", "by place in the turn order",
                  "greedy", "random"):
        assert words in result.stdout
    assert (tmp_path / "s.svg").read_text().count("<circle") == 4


def test_json_is_the_summary() -> None:
    data = one_json(run("tournament", "--bots", "random,random,random", "--games", "3",
                        "--seed", "1", "--json"))
    assert data["games"] == 3 and set(data["bots"]) == {"random"}
    assert data["bots"]["random"]["games"] == 9 and data["bots"]["random"]["refused"] == 0
    assert [s["seat"] for s in data["seats"]] == [1, 2, 3]


def test_bad_bots_are_one_line() -> None:
    assert_bad_input(run("tournament", "--bots", "greedy,clever"), "unknown bot 'clever'")
    assert_bad_input(run("tournament", "--bots", "greedy"), "seats 2-4")
    assert_bad_input(run("tournament", "--games", "0"))
    assert_bad_input(run("tournament", "--rules", "nonsense"), "nonsense")


def test_a_picture_over_the_board_file_names_svg(tmp_path: Path) -> None:
    from models.game.board import default_board_path

    board = tmp_path / "board.toml"
    board.write_bytes(default_board_path().read_bytes())
    assert_bad_input(run("tournament", "--bots", "greedy,random", "--games", "1", "--board",
                         str(board), "--svg", str(board)), "--svg: ")


def test_the_help_names_every_bot() -> None:
    from planner.castell import BOTS

    text = " ".join(run("tournament", "--help").stdout.split())
    assert all(name in text for name in BOTS)
