"""`castell tournament` as a use case: the summary is the planner's, the folder's files are
the same when a run is resumed after losing chunks, and the picture draws every bot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from models.errors import SpecError
from planner.castell import GameRecord, Setup, games, summarise
from service.castell import tournament as tournament_module
from service.castell.tournament import castell_tournament, write_scores_svg
from tests.planner.castell.games import BOARD


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes]]:
    folder = tmp_path_factory.mktemp("t") / "run"
    castell_tournament("greedy,random", 4, 7, folder, chunk_size=2)
    return folder, {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def test_the_summary_is_the_planners_over_the_same_games(run: tuple[Path, dict[str, bytes]]
                                                          ) -> None:
    files = run[1]
    records = [GameRecord.of(json.loads(line)) for line in files["games.jsonl"].splitlines()]
    assert records == list(games(Setup(BOARD), ["greedy", "random"], 4, 7))
    summary = json.loads(files["summary.json"])
    assert summary["bots"] == summarise(records).as_dict()["bots"]
    assert [s["seat"] for s in summary["seats"]] == [1, 2]
    assert sum(s["games"] for s in summary["seats"]) == 2 * 4


def test_a_resumed_run_gives_the_same_files(run: tuple[Path, dict[str, bytes]],
                                            tmp_path: Path) -> None:
    folder, files = run
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("manifest.json",):
        (copy / name).write_bytes(files[name])
    chunks = sorted((folder / "chunks").rglob("*.jsonl"))
    assert len(chunks) == 2
    kept = copy / chunks[0].relative_to(folder)  # the second chunk and the results lost
    kept.parent.mkdir(parents=True)
    kept.write_bytes(chunks[0].read_bytes())
    castell_tournament("greedy,random", 4, 7, copy, chunk_size=2)
    assert {p.name: p.read_bytes() for p in copy.iterdir() if p.is_file()} == files


def test_the_picture_draws_every_bot(run: tuple[Path, dict[str, bytes]], tmp_path: Path) -> None:
    svg = run[1]["scores.svg"].decode()
    assert svg.startswith("<?xml") and "greedy" in svg and "random" in svg
    assert svg.count("<circle") == 8  # one dot a game a bot
    result = castell_tournament("greedy,random", 4, 7, chunk_size=4)
    write_scores_svg(tmp_path / "s.svg", result)
    assert (tmp_path / "s.svg").read_text() == svg


def test_bad_bots_and_counts_are_refused() -> None:
    with pytest.raises(SpecError, match="unknown bot 'clever'"):
        castell_tournament("greedy,clever", 1, 1)
    with pytest.raises(SpecError, match="seats 2-4"):
        castell_tournament("greedy", 1, 1)
    with pytest.raises(SpecError, match="1 to 1000000"):
        castell_tournament("greedy,random", 0, 1)


def test_every_planning_bot_is_run_a_game_a_chunk() -> None:
    """A bot that plans takes seconds a turn: its games go one a chunk (a chunk of ten would
    hold back a resumed run by minutes); the festival bot was missing from the list."""
    from planner.castell import BOTS, Advisor
    from service.castell.tournament import PLANNING_BOTS

    planning = {name for name, make in BOTS.items() if isinstance(make(), Advisor)}
    assert planning == PLANNING_BOTS


class _Stop(Exception):
    """Raised where the run would begin: the arguments are what is tested."""


def test_the_bots_that_plan_get_the_slack_and_their_folder_records_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: list[tuple[dict[str, object], float]] = []
    setup = tournament_module._setup

    def folder(out: object, command: str, arguments: dict[str, object]) -> None:
        seen.append((arguments, made[-1].wall_slack))
        raise _Stop

    made: list[Setup] = []

    def recorded(*args: Any) -> Setup:
        made.append(setup(*args))
        return made[-1]

    monkeypatch.setattr(tournament_module, "_setup", recorded)
    monkeypatch.setattr(tournament_module, "tournament_folder", folder)
    for bots, slack in (("score,greedy", 10), ("score,greedy", 1), ("greedy,random", 10)):
        with pytest.raises(_Stop):
            castell_tournament(bots, 2, 1, tmp_path / "run", slack=slack)
    # a slack of 1 is not recorded: folders from before the option were played at it
    assert [(a.get("slack"), s) for a, s in seen] == [(10, 10.0), (None, 1.0), (None, 10.0)]
    with pytest.raises(SpecError, match="slack"):
        castell_tournament("score,greedy", 2, 1, slack=0)


def test_a_run_at_one_slack_is_not_continued_at_another(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "manifest.json").write_text(json.dumps({
        "format": 2, "command": "tournament", "arguments": {
            "bots": "score,greedy", "games": 2, "seed": 1, "board": None, "rules": None,
            "wheel side": None, "chunk": 1, "slack": 10}}))
    with pytest.raises(SpecError, match="slack 10, not"):
        castell_tournament("score,greedy", 2, 1, folder, slack=1)


def test_the_options_slack_is_the_services() -> None:
    import cli.castell.tournament as cli_tournament

    assert (cli_tournament.SLACK, cli_tournament.MAX_SLACK) == (
        tournament_module.SLACK, tournament_module.MAX_SLACK)
