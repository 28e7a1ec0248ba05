"""`castell combo`: JSON shapes, exact scores, a whole game played through the CLI, and clean
one-line errors that leave the files as they were."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from models.combo import (
    PUBLISHED,
    Grid,
    apply,
    legal_actions,
    load_deck,
    load_state,
    new_game,
    score_tableau,
)
from tests.cli.helpers import assert_bad_input, no_crash, one_json, run

TABLEAU = "C01,C02,C03/V01,V02,V03/~C06,C07,V12"


def assert_refused(result: Result, *fragments: str) -> str:
    """A step the rules refuse: exit 1, nothing on stdout, one line on stderr with every
    fragment."""
    no_crash(result)
    assert result.exit_code == 1, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def test_cards_lists_the_sample_deck() -> None:
    data = one_json(run("combo", "cards", "--json"))
    assert data["source"] == "sample" and len(data["cards"]) == 78
    result = run("combo", "cards")
    no_crash(result)
    assert result.exit_code == 0 and "C01" in result.stdout


def test_cards_stats_match_the_real_game() -> None:
    data = one_json(run("combo", "cards", "--stats", "--json"))
    assert data["all_match"] is True and data["published"] == PUBLISHED
    result = run("combo", "cards", "--stats")
    assert result.exit_code == 0 and "differs" not in result.stdout


def test_cards_stats_show_where_a_deck_differs(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('[[card]]\nid = "A1"\nname = "A"\nlocation = "castle"\ncost = 3\n'
                    'shields = ["faith"]\n', encoding="utf-8")
    data = one_json(run("combo", "cards", "--cards", str(path), "--stats", "--json"))
    assert data["all_match"] is False and data["matches"]["cards"] is False


def test_a_bad_card_file_is_one_line_naming_card_and_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[[card]]\nid = "Z9"\nname = "Z"\nlocation = "castle"\ncost = 3\n'
                    'colour = "red"\n', encoding="utf-8")
    assert_bad_input(run("combo", "cards", "--cards", str(path)), "card 'Z9'", "colour")


def test_deeply_nested_or_oversized_files_are_one_line_bad_input(tmp_path: Path) -> None:
    # a parser's RecursionError or a huge file must be bad input (exit 2), never a crash
    state = tmp_path / "deep.json"
    state.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert_bad_input(run("combo", "show", str(state)), "nested deeper than")
    cards = tmp_path / "deep.toml"
    cards.write_text("a = " + "[" * 5_000 + "]" * 5_000 + "\n", encoding="utf-8")
    assert_bad_input(run("combo", "cards", "--cards", str(cards)), "nested deeper than")
    deal = tmp_path / "deal.toml"
    deal.write_text(cards.read_text(encoding="utf-8"), encoding="utf-8")
    assert_bad_input(run("combo", "new", "--players", "Ana,Ben", "--deal", str(deal),
                         "--first", "Ana"),
                     "nested deeper than")
    big = tmp_path / "big.toml"
    big.write_text("#" * 1_000_001, encoding="utf-8")
    assert_bad_input(run("combo", "cards", "--cards", str(big)), "larger than 1000000 bytes")


def test_score_json_is_the_exact_score() -> None:
    data = one_json(run("combo", "score", TABLEAU, "--keys", "3", "--gold", "12",
                        "--stored", "right=1", "--json"))
    sheet = score_tableau(Grid.parse(TABLEAU), load_deck(), 3, 12, {"V03": 1})
    assert data["total"] == sheet.total
    assert [(c["cell"], c["id"], c["points"]) for c in data["cards"]] == \
        [(c.cell, c.card, c.points) for c in sheet.cards]
    assert data["keys"] == 3 and data["purses"] == sheet.purses
    assert data["gold_left"] == sheet.gold_left
    # by hand: the total is the card points plus the keys
    assert data["total"] == sum(c["points"] for c in data["cards"]) + 3
    result = run("combo", "score", TABLEAU, "--keys", "3")
    assert result.exit_code == 0 and "total" in result.stdout


@pytest.mark.parametrize(("args", "fragment"), [
    (["C01,C02/V01"], "3 rows"),
    (["C01,C02,ZZ9/-,-,-/-,-,-"], "no card 'ZZ9'"),
    (["C01,-,C02/-,-,-/-,-,-"], "not connected"),
    ([TABLEAU, "--stored", "centre"], "CELL=N"),
    ([TABLEAU, "--stored", "top-left=2"], "not a face-up purse"),
    (["C01,-,-/-,-,-/-,-,-", "--stored", "top=2"], "cell is empty"),
])
def test_score_bad_input(args: list[str], fragment: str) -> None:
    assert_bad_input(run("combo", "score", *args), fragment)


def _new(tmp_path: Path, *args: str) -> Path:
    path = tmp_path / "game.json"
    result = run("combo", "new", "--out", str(path), *args)
    no_crash(result)
    assert result.exit_code == 0, result.stderr
    return path


def test_a_whole_game_through_the_cli(tmp_path: Path) -> None:
    path = _new(tmp_path, "--players", "Ana,Ben,Cem", "--seed", "5")
    # the actions come from the rules core, the game is played by the CLI in batches
    state = new_game(load_deck(), ["Ana", "Ben", "Cem"], 5)
    rng = random.Random(5)
    texts = []
    while not state.now.game_over:
        action = rng.choice(legal_actions(state))
        state = apply(state, action)
        texts.append(str(action))
    for start in range(0, len(texts), 12):
        result = run("combo", "play", str(path), *texts[start:start + 12])
        no_crash(result)
        assert result.exit_code == 0, result.stderr
    data = one_json(run("combo", "show", str(path), "--json"))
    assert data["game_over"] is True and len(data["scores"]) == 3
    final = load_state(path)
    for player, scored in zip(final.now.players, data["scores"], strict=True):
        grid = str(player.grid())
        stored = ",".join(f"{k}={v}" for k, v in player.purses.items())
        again = one_json(run("combo", "score", grid, "--keys", str(player.keys), "--gold",
                             str(player.gold), *(["--stored", stored] if stored else []),
                             "--json"))
        assert again["total"] == scored["total"] and scored["player"] == player.name
    best = max(s["total"] for s in data["scores"])
    assert set(data["winners"]) <= {s["player"] for s in data["scores"] if s["total"] == best}
    shown = run("combo", "show", str(path))
    assert shown.exit_code == 0 and "winner" in shown.stdout
    before = path.read_bytes()
    assert_refused(run("combo", "play", str(path), "key move"), "game is over")
    assert path.read_bytes() == before


def test_illegal_play_leaves_the_file_untouched_and_undo_steps_back(tmp_path: Path) -> None:
    path = _new(tmp_path, "--players", "Ana,Ben", "--seed", "5", "--first", "Ana")
    state = load_state(path)
    castle = state.now.rows["castle"][0]
    before = path.read_bytes()
    assert_refused(run("combo", "play", str(path), f"buy {castle}"), "not the Messenger's")
    assert_refused(run("combo", "play", str(path), "key move", "key move"), "already used")
    assert_bad_input(run("combo", "play", str(path), "dance"), "unknown action")  # unreadable
    assert path.read_bytes() == before
    one_json(run("combo", "play", str(path), "key move", "--json"))
    one_json(run("combo", "play", str(path), "undo", "--json"))  # a key move shows no card
    assert load_state(path).now == state.now
    data = one_json(run("combo", "play", str(path), "key move", f"buy {castle}", "--json"))
    assert data["to_play"] == "Ben" and data["players"][0]["cards"] == 1
    during = path.read_bytes()
    # the take refilled the castle row: the card drawn is seen, the take cannot be undone
    assert_refused(run("combo", "play", str(path), "undo"), "cannot undo", "into a row")
    assert path.read_bytes() == during


def test_show_draws_the_tableaux(tmp_path: Path) -> None:
    path = _new(tmp_path, "--players", "Ana,Ben", "--seed", "1")
    state = load_state(path)
    actions = []
    for _ in range(4):
        action = legal_actions(state)[-1]  # a take (the keys come first)
        state = apply(state, action)
        actions.append(str(action))
    assert run("combo", "play", str(path), *actions).exit_code == 0
    svg = tmp_path / "t.svg"
    result = run("combo", "show", str(path), "--svg", str(svg))
    assert result.exit_code == 0, result.stderr
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<?xml") or text.startswith("<svg")
    assert text.count('class="card"') == 4


def test_recording_a_real_game(tmp_path: Path) -> None:
    deal = tmp_path / "deal.toml"
    deal.write_text('castle = ["C01", "C02", "C03"]\nvillage = ["V01", "V02", "V03"]\n',
                    encoding="utf-8")
    assert_bad_input(run("combo", "new", "--players", "Ana,Ben", "--deal", str(deal)),
                     "--first")
    path = _new(tmp_path, "--players", "Ana,Ben", "--deal", str(deal), "--first", "Ben")
    data = one_json(run("combo", "play", str(path), "buy V02 choose 1", "--json"))
    assert data["pending_reveals"] == {"village": 1}
    assert_refused(run("combo", "play", str(path), "buy V01 at 0,0"), "reveal")
    data = one_json(run("combo", "play", str(path), "reveal V30", "--json"))
    assert data["rows"]["village"] == ["V01", "V30", "V03"]


@pytest.mark.parametrize(("args", "fragment"), [
    (["--players", "Ana"], "2-5 players"),
    (["--players", "A,B,C,D,E,F"], "2-5 players"),
    (["--players", "Ana,Ana"], "same name"),
    (["--players", "Ana,Ben", "--first", "Cem"], "not one of"),
    (["--players", "Ana,Ben", "--reading", "colour=red"], "NAME=VALUE"),
    (["--players", "Ana,Ben", "--reading", "messenger_target=up"], "messenger_target"),
])
def test_new_bad_input(args: list[str], fragment: str) -> None:
    assert_bad_input(run("combo", "new", *args), fragment)


def test_new_with_a_reading_to_stdout() -> None:
    result = run("combo", "new", "--players", "Ana,Ben", "--reading",
                 "fill_purses_order=most_room")
    data: dict[str, Any] = json.loads(result.stdout)
    assert data["rules"]["fill_purses_order"] == "most_room"


def test_a_hand_edited_state_is_refused(tmp_path: Path) -> None:
    path = _new(tmp_path, "--players", "Ana,Ben", "--seed", "2")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["now"]["players"][0]["gold"] = 99
    path.write_text(json.dumps(data), encoding="utf-8")
    assert_bad_input(run("combo", "show", str(path)), "does not reach")
    data["now"]["players"][0]["gold"] = -1
    path.write_text(json.dumps(data), encoding="utf-8")
    assert_bad_input(run("combo", "show", str(path)), "gold")
    data["now"]["players"][0]["gold"] = 15
    del data["now"]["rows"]["castle"]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert_bad_input(run("combo", "show", str(path)), "'rows' needs exactly")
    path.write_text("{", encoding="utf-8")
    assert_bad_input(run("combo", "show", str(path)), "not valid JSON")


def test_player_names_are_printed_literally(tmp_path: Path) -> None:
    path = _new(tmp_path, "--players", "[bold]Ana,Ben", "--seed", "3")
    result = run("combo", "show", str(path))
    assert result.exit_code == 0 and "[bold]Ana" in result.stdout


def test_score_batch(tmp_path: Path) -> None:
    lines = tmp_path / "lines.jsonl"
    lines.write_text(json.dumps({"tableau": TABLEAU, "keys": 2, "gold": 5}) + "\n\n"
                     + json.dumps({"tableau": "C01,C02/V01"}) + "\n", encoding="utf-8")
    result = run("combo", "score", "--batch", str(lines))
    no_crash(result)
    assert result.exit_code == 2
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["total"] == score_tableau(Grid.parse(TABLEAU), load_deck(), 2, 5).total
    assert second["line"] == 3 and "3 rows" in second["error"]
    assert_bad_input(run("combo", "score", TABLEAU, "--batch", str(lines)), "not both")
    assert_bad_input(run("combo", "score"), "missing TABLEAU")


def test_actions_may_be_written_as_separate_words(tmp_path: Path) -> None:
    deal = tmp_path / "deal.toml"
    deal.write_text('castle = ["C01", "C02", "C03"]\nvillage = ["V04", "V05", "V06"]\n',
                    encoding="utf-8")
    path = _new(tmp_path, "--players", "Ana,Ben", "--deal", str(deal), "--first", "Ana")
    data = one_json(run("combo", "play", str(path), "key", "move", "buy", "C01", "--json"))
    assert data["history"] == [{"player": "Ana", "action": "key move"},
                               {"player": "Ana", "action": "buy C01 at 0,0"}]
    data = one_json(run("combo", "play", str(path), "reveal", "C20", "--json"))
    assert data["rows"]["castle"] == ["C20", "C02", "C03"]
    assert data["players"][0]["discounts"] == {"castle": 0, "village": 0}


def test_the_example_deal_records_a_game(tmp_path: Path) -> None:
    rows = Path(__file__).resolve().parents[3] / "examples" / "combo" / "rows.toml"
    path = _new(tmp_path, "--players", "Ana,Ben", "--deal", str(rows), "--first", "Ben")
    data = one_json(run("combo", "play", str(path), "buy V15", "reveal", "V08", "--json"))
    assert data["rows"]["village"] == ["V02", "V08", "V33"] and data["to_play"] == "Ana"


def test_a_refused_step_exits_1_and_the_wrong_player_is_refused(tmp_path: Path) -> None:
    path = _new(tmp_path, "--players", "Ana,Ben", "--seed", "5", "--first", "Ana")
    before = path.read_bytes()
    assert_refused(run("combo", "play", str(path), "key move", "--player", "Ben"),
                   "Ana's turn, not Ben's")
    assert_bad_input(run("combo", "play", str(path), "key move", "--player", "Bem"),
                     "did you mean 'Ben'")
    assert path.read_bytes() == before
    data = one_json(run("combo", "play", str(path), "key move", "--player", " ana", "--json"))
    assert data["history"] == [{"player": "Ana", "action": "key move"}]
    assert_refused(run("combo", "play", str(path), "undo", "--player", "Ben"), "Ana's")
    one_json(run("combo", "play", str(path), "undo", "--player", "Ana", "--json"))


def test_card_ids_and_names_are_read_as_typed(tmp_path: Path) -> None:
    path = _new(tmp_path, "--players", "Ana,Ben", "--seed", "5", "--first", "Ana")
    card = load_state(path).now.rows["village"][0]
    data = one_json(run("combo", "play", str(path), f"buy {card.lower()}", "--json"))
    assert data["history"][0]["action"] == f"buy {card} at 0,0"
    typed = one_json(run("combo", "score", TABLEAU.lower(), "--stored", "v03=1", "--json"))
    assert typed == one_json(run("combo", "score", TABLEAU, "--stored", "V03=1", "--json"))
    assert_bad_input(run("combo", "score", "C01,c01,-/-,-,-/-,-,-"), "appears twice")


def test_a_first_card_anywhere_then_every_legal_cell_and_advice(tmp_path: Path) -> None:
    path = _new(tmp_path, "--players", "Ana,Ben", "--seed", "5", "--first", "Ana")
    state = load_state(path)
    card = state.now.rows[state.now.messenger][0]
    assert run("combo", "play", str(path), f"flip {card} at 7,8").exit_code == 0
    state = load_state(path)
    ben = legal_actions(state)[-1]
    assert run("combo", "play", str(path), str(ben)).exit_code == 0
    # Ana's next card goes next to 7,8: the advisor ranks those cells (it crashed on them)
    data = one_json(run("combo", "advise", str(path), "--samples", "1", "--json"))
    assert data["player"] == "Ana" and any(" at 7,9" in r["action"] for r in data["ranking"])
    best = data["ranking"][0]["action"]
    assert run("combo", "play", str(path), best).exit_code == 0


def test_a_refused_step_prints_one_json_object_with_its_code(tmp_path: Path) -> None:
    game = _new(tmp_path, "--players", "Ana,Ben", "--seed", "5")
    before = game.read_bytes()
    result = run("combo", "play", str(game), "buy ZZZ at 0,0", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["refused"] is True and data["code"] == "not_offered_card"
    assert "ZZZ" in data["reason"] and game.read_bytes() == before
