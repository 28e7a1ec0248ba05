"""Castell tournaments: game i is a function of (seed, i) alone, records survive JSON, and the
summary's numbers are the records'."""

from __future__ import annotations

import json
import math
import statistics

import pytest

from models.errors import SpecError
from models.game import CATEGORIES
from models.tower.skills import MAX_RANK
from planner.castell import GameRecord, Setup, games, play_game, seats, summarise, wilson
from planner.castell.record import SKILLS
from tests.planner.castell.games import BOARD

SETUP = Setup(BOARD)


@pytest.fixture(scope="module")
def greedy_random() -> list[GameRecord]:
    """20 two-player games, greedy against random (no solver: a few seconds)."""
    return list(games(SETUP, ["greedy", "random"], 20, seed=11))


def test_greedy_beats_random(greedy_random: list[GameRecord]) -> None:
    summary = summarise(greedy_random).bots
    assert summary["greedy"]["win_rate"] >= 0.9
    assert summary["greedy"]["refused"] == summary["random"]["refused"] == 0


def test_same_seed_same_games_and_each_game_alone() -> None:
    one = list(games(SETUP, ["greedy", "random", "random"], 4, seed=3))
    assert one == list(games(SETUP, ["greedy", "random", "random"], 4, seed=3))
    assert play_game(SETUP, ["greedy", "random", "random"], 3, 2) == one[2]
    assert list(games(SETUP, ["greedy", "random", "random"], 4, seed=4)) != one
    assert [r.index for r in one] == [0, 1, 2, 3]
    # seats rotate over one deal: games 0-2 share it, game 3 has the next
    assert [r.players[0] for r in one] == ["greedy", "random#1", "random#2", "greedy"]
    assert len({r.deal_seed for r in one[:3]}) == 1 and one[3].deal_seed != one[0].deal_seed


def test_records_survive_json(greedy_random: list[GameRecord]) -> None:
    for record in greedy_random[:4]:
        assert GameRecord.of(json.loads(json.dumps(record.as_dict()))) == record


def test_summary_is_the_records(greedy_random: list[GameRecord]) -> None:
    summary = summarise(greedy_random)
    assert summary.games == 20
    for bot, row in summary.bots.items():
        seats_of = [(r, r.bots.index(bot)) for r in greedy_random]
        wins = sum(1 / len(r.winners) for r, s in seats_of if r.players[s] in r.winners)
        scores = [r.totals[s] for r, s in seats_of]
        assert row["games"] == 20 and math.isclose(row["wins"], round(wins, 3))
        assert row["ci95"] == [round(x, 4) for x in wilson(wins, 20)]
        assert math.isclose(row["mean_score"], round(statistics.fmean(scores), 3))
        margins = [r.totals[s] - max(t for i, t in enumerate(r.totals) if i != s)
                   for r, s in seats_of]
        assert math.isclose(row["mean_margin"], round(statistics.fmean(margins), 3))
        for k, name in enumerate(CATEGORIES):
            mean = statistics.fmean(r.categories[s][k] for r, s in seats_of)
            assert math.isclose(row["categories"][name], round(mean, 3))
    for record in greedy_random:
        assert all(sum(c) == t for c, t in zip(record.categories, record.totals, strict=True))
        assert set(record.winners) == {p for p, t in zip(record.players, record.totals,
                                                          strict=True) if t == max(record.totals)}


def test_unknown_bots_and_seats_refused() -> None:
    with pytest.raises(SpecError, match="unknown bot"):
        list(games(SETUP, ["greedy", "clever"], 1, seed=0))
    with pytest.raises(SpecError, match="seats 2-4"):
        list(games(SETUP, ["greedy"] * 5, 1, seed=0))
    assert seats(["greedy", "random", "greedy"]) == ["greedy#1", "random", "greedy#2"]


def test_the_designers_report_is_the_records(greedy_random: list[GameRecord]) -> None:
    summary = summarise(greedy_random)
    players = [(r, s) for r in greedy_random for s in range(len(r.players))]
    for k, skill in enumerate(SKILLS):
        rows = summary.skills[skill]
        assert sum(row["players"] for row in rows) == len(players)
        for row in rows:
            at = [(r, s) for r, s in players if r.skills[s][k] == row["rank"]]
            wins = sum(1 / len(r.winners) for r, s in at if r.players[s] in r.winners)
            assert row["players"] == len(at)
            assert math.isclose(row["win_rate"], round(wins / len(at), 4))
    for k, name in enumerate(CATEGORIES):
        won = [r.categories[s][k] for r, s in players if r.players[s] in r.winners]
        assert math.isclose(summary.categories[name]["winners_mean"],
                            round(statistics.fmean(won), 3))
        tops = sum(1 / len(r.winners) for r, s in players if r.players[s] in r.winners
                   and r.categories[s][k] == max(c[k] for c in r.categories))
        assert math.isclose(summary.categories[name]["winner_has_most"],
                            round(tops / len(greedy_random), 4))
    # the final ranks are the players' own: within the rules' bounds, and trained in some game
    assert all(0 <= rank <= MAX_RANK for r in greedy_random for ranks in r.skills
               for rank in ranks)
    assert any(rank for r in greedy_random for ranks in r.skills for rank in ranks)


def test_seats_are_the_places_in_the_turn_order(greedy_random: list[GameRecord]) -> None:
    seats_ = summarise(greedy_random).seats
    assert [s["seat"] for s in seats_] == [1, 2]
    wins = sum(1 / len(r.winners) for r in greedy_random if r.players[0] in r.winners)
    assert math.isclose(seats_[0]["wins"], round(wins, 3))


def test_the_bots_that_plan_take_the_setups_wall_clock_slack() -> None:
    from planner.castell import CASTELL, greedy_bot

    slack = CASTELL.bots(Setup(BOARD, wall_slack=10.0))
    made = slack["score"]()
    assert made.bot.budget.wall_slack == 10.0  # type: ignore[attr-defined]
    assert slack["greedy"]().bot is greedy_bot  # a bot with no clock is as it was
    assert CASTELL.bots(SETUP)["advisor"]().bot.budget.wall_slack == 1.0  # type: ignore[attr-defined]
