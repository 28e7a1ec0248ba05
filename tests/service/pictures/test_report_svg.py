"""The tournaments' pictures: the score rows draw every game, however tall a stack (the
300-game picture once drew 458 of 900 dots), and the report's plots draw a dot and an interval
per place."""

from __future__ import annotations

from planner.stats import Stat
from service.pictures.report_svg import category_plot, seat_plot
from service.pictures.tournament_svg import score_distributions


def test_a_tall_stack_of_scores_is_drawn_whole() -> None:
    svg = score_distributions({"greedy": [60] * 300 + [70] * 5}, {"greedy": 0.33}, "t")
    assert svg.count("<circle") == 305


def test_the_seat_plot_draws_each_place_with_its_interval() -> None:
    wins = [Stat(0.6, (0.5, 0.7), 150, 50), Stat(0.25, (0.15, 0.35), 150, 50),
            Stat(0.15, None, 150, 50)]
    svg = seat_plot("t", wins, 150, 50)
    assert svg.count("<circle") == 3 and "60.0% (50%-70%)" in svg and "15.0%" in svg
    assert "150 games, 50 deals" in svg and "even share 33%" in svg


def test_the_category_plot_draws_the_winners_and_the_others() -> None:
    row = ("prizes", Stat(19.0, (18.0, 20.0), 50, 50), Stat(16.1, (15.0, 17.0), 100, 50))
    svg = category_plot("t", [row])
    assert svg.count("<circle") == 2 + 2  # two dots, two in the legend
    assert "19.0 (18.0-20.0)" in svg and "winners 50" in svg and "others 100" in svg
