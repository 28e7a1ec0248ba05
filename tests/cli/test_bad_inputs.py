"""The bad inputs of issue 13, each a regression test: bounded before anything is allocated
or solved, one line on stderr, exit 2 (or the batch goes on), never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import assert_bad_input, json_lines, no_crash, one_json, run

STATE = "examples/game/round3.json"
BAG = "1x15,2x15,3x15,4x15,5x15,6x15,7x15,8x15,9x15,10x15"  # the whole default bag


@pytest.mark.parametrize(("args", "fragments"), [
    # unbounded sizes: refused by the bag's count per size, before any list is built
    (["verify", "9x99999999"], ["99999999 castellers of size 9", "the bag has 15"]),
    (["best", "--pool", "9x99999999999"], ["size 9", "the bag has 15"]),
    (["best", "--pool", f"{BAG},9"], ["16 castellers of size 9"]),
    (["verify", "9x8/9x8"], ["16 castellers of size 9"]),
    (["check", "shape:4-3-2-99999999", "--pool", "9x4"], ["above 150"]),
    (["check", "exhibition:99999999:width", "--pool", "9x4"], ["above 150"]),
    (["best", "--pool", "9", "--skills", "width=99999999999"], ["above 150"]),
    (["wheel", STATE, "--ahead", "1000000000"], ["--ahead", "1 to 100"]),
    (["wheel", STATE, "--ahead", "11"], ["--ahead: 11 is more rounds", "(10)"]),
    (["wheel", STATE, "--round", "99"], ["--round: 99 is not a round", "1 to 10"]),
    (["puzzle", "generate", "--count", "100000000"], ["--count", "1 to 10000"]),
    # values passed on unchecked
    (["best", "--pool", "9", "--seed", "2147483648"], ["--seed", "0 to 2147483647"]),
    (["best", "--pool", "9", "--seed", "-1"], ["--seed"]),
    (["best", "--pool", "9", "--time-limit", "nan"],
     ["castell best: --time-limit must be a positive number of seconds", "'nan'",
      "see 'castell best --help'"]),
    (["best", "--pool", "9", "--time-limit", "inf"], ["--time-limit", "'inf'"]),
    (["best", "--pool", "9", "--workers", "0"], ["--workers", "1 to 64"]),
    (["state", "new", "--players", "9"], ["--players", "2 to 4"]),
    (["plan", STATE, "--turns", "11"], ["--turns", "1 to 10"]),
    # only ASCII digits, no underscores (Arabic-Indic and fullwidth digits are refused)
    (["verify", "1_0/9"], ["'1_0'"]),
    (["verify", "\u0661\u0660/9"], ["not a casteller size"]),
    (["verify", "\uff11\uff10/9"], ["not a casteller size"]),
    (["verify", "9x1_0"], ["SIZExCOUNT"]),
    (["best", "--pool", "9", "--skills", "width=\uff11"], ["not a whole number"]),
    (["best", "--pool", "9", "--seed", "\uff11"], ["--seed"]),
    # smaller
    (["plan", STATE, "--player", ""], ["no player ''"]),
    (["best", "--batch", "-", "--pool", "9"], ["--pool or --batch"]),
    (["check", "--batch", "-", "--pool", "9"], ["--pool or --batch"]),
    (["verify", "--batch", "-", "--pool", "9"], ["--pool or --batch"]),
    (["best", "--pol", "9"], ["castell best: No such option: --pol", "--help"]),
    (["nope"], ["No such command 'nope'"]),
    # a line break in the user's own text stays escaped: the message is one line
    (["best", "--pool", "9", "--skills", "0\x850"], ["'0\\x850'"]),
    (["verify", "9\n8"], ["'9\\n8'"]),
    # a notation longer than any game needs is refused before it is split
    (["verify", "9," * 5000], ["characters long"]),
    (["best", "--pool", "9", "--skills", "a" * 6000], ["the skills text is 6000 characters"]),
    # no player at all is not one player named ""
    (["state", "new", "--players", ""], ["--players: a count (2 to 4) or names", "not ''"]),
], ids=lambda value: " ".join(value)[:50] if isinstance(value, list) else None)
def test_bad_input_is_one_line(args: list[str], fragments: list[str]) -> None:
    assert_bad_input(run(*args, input=""), *fragments)


@pytest.mark.parametrize("command", ["sheet", "check", "solve"])
def test_a_puzzle_with_an_unbounded_pool_is_refused(tmp_path: Path, command: str) -> None:
    line = json.loads(Path("examples/puzzles/medium.jsonl").read_text().splitlines()[0])
    line["pool"] = "9x99999999999"
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(line) + "\n")
    args = ["--out", str(tmp_path / "sheets")] if command == "sheet" else []
    assert_bad_input(run("puzzle", command, str(path), *args), "line 1", "pool")
    assert not (tmp_path / "sheets").exists()


@pytest.mark.parametrize("command", ["check", "solve"])
def test_a_puzzle_id_longer_than_any_generated_is_refused(tmp_path: Path, command: str) -> None:
    # 100,000 characters made `puzzle check` run for minutes (rich's highlighter)
    line = json.loads(Path("examples/puzzles/medium.jsonl").read_text().splitlines()[0])
    line["id"] = "x" * 100_000
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps(line) + "\n")
    assert_bad_input(run("puzzle", command, str(path)), "line 1", "id", "at most 100")


def test_an_argument_that_is_not_utf8_is_refused() -> None:
    # what Python makes of the bytes b"\xff" in argv: a surrogate escape
    assert_bad_input(run("state", "new", "--names", "\udcff,b,c"), "not UTF-8 text")


def test_goal_tile_takes_the_id_quoted_with_it() -> None:
    quoted = one_json(run("plan", STATE, "--player", "Anna", "--goal", "tile lp02",
                          "--turns", "1", "-t", "2", "--json"))
    assert quoted["goal"] == "tile LP02"


def test_goal_tile_takes_the_id_in_any_case() -> None:
    spaced = one_json(run("plan", STATE, "--player", "Anna", "--goal", "tile", "lp02",
                          "--turns", "1", "-t", "2", "--json"))
    inline = one_json(run("plan", STATE, "--player", "Anna", "--goal", "tile:lp02",
                          "--turns", "1", "-t", "2", "--json"))
    assert spaced["goal"] == inline["goal"] == "tile LP02"


def test_a_deep_state_file_is_refused(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000)
    assert_bad_input(run("state", "show", str(deep)), "nested deeper than")
    assert_bad_input(run("plan", str(deep)), "nested deeper than")


def test_a_state_file_too_large_is_refused_before_it_is_read(tmp_path: Path) -> None:
    large = tmp_path / "large.json"
    with large.open("wb") as handle:
        handle.truncate(17 * 1024 * 1024)  # sparse: costs no disk
    assert_bad_input(run("state", "show", str(large)), "larger than 16 MiB")


def test_a_batch_goes_on_past_every_bad_line() -> None:
    lines = [
        {"tower": "9/8"},
        "[" * 200_000,                      # deep
        '{"tower": "\\ud800"}',             # a lone surrogate
        {"tower": "9x99999999"},            # unbounded
        "{not json",
        {"tower": "9,9/8", "skills": "balance=1"},
    ]
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    result = run("verify", "--batch", "-", input=text + "\n")
    items = json_lines(result)
    assert result.exit_code == 2
    assert [item.get("line") for item in items] == [None, 2, 3, 4, 5, None]
    assert items[0]["tower"] == "9/8" and items[-1]["tower"] == "9,9/8"
    assert "surrogate" in items[2]["error"]


def test_a_best_batch_with_bad_lines_answers_the_good_ones() -> None:
    text = "\n".join([json.dumps({"pool": "9x99999999999"}), "[" * 100_000,
                      json.dumps({"pool": "9,9,8", "time_limit": 2})])
    result = run("best", "--batch", "-", input=text)
    items = json_lines(result)
    assert result.exit_code == 2
    assert "error" in items[0] and "error" in items[1]
    assert items[2]["status"] == "optimal"


def test_an_internal_error_on_one_line_does_not_stop_the_batch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import service.castell.towers

    real = service.castell.towers.verify

    def flaky(tower: str, *args: object) -> object:
        if tower == "3":
            raise RuntimeError("planted bug")
        return real(tower, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(service.castell.towers, "verify", flaky)
    text = "\n".join(json.dumps({"tower": t}) for t in ("9", "3", "8"))
    result = run("verify", "--batch", "-", input=text)
    items = json_lines(result)
    assert result.exit_code == 4  # the exit code reflects the internal error
    assert items[1] == {"line": 2, "error": "internal error (RuntimeError: planted bug)"}
    assert items[0]["valid"] and items[2]["valid"]


MARKUP = ["[/]", "[bold red]X", "[link=x]y"]


@pytest.mark.parametrize("name", MARKUP)
@pytest.mark.parametrize("command", [["state", "show"], ["festival"], ["score"], ["wheel"],
                                     ["plan", "--turns", "1", "-t", "2"]])
def test_names_are_printed_literally(tmp_path: Path, name: str, command: list[str]) -> None:
    data = json.loads(Path(STATE).read_text())
    old = data["turn"]["player"]
    data["turn"]["player"] = name
    data["turn_order"] = [name if p == old else p for p in data["turn_order"]]
    for player in data["players"]:
        if player["name"] == old:
            player["name"] = name
    state = tmp_path / "game.json"
    state.write_text(json.dumps(data))
    result = run(command[0], *command[1:], str(state))
    no_crash(result)
    assert result.exit_code in (0, 1, 3), result.stderr
    if command[0] in ("state", "score", "plan"):
        assert name in result.stdout.replace("\n", "")


# --- red-team pass ------------------------------------------------------------------------

LONG = "9" * 5000  # past Python's int-conversion limit: json raised a plain ValueError (exit 4)


def test_a_number_with_thousands_of_digits_in_a_file_is_bad_input(tmp_path: Path) -> None:
    state = tmp_path / "game.json"
    state.write_text(Path(STATE).read_text().replace('"round": 3', f'"round": {LONG}'))
    assert_bad_input(run("state", "show", str(state)), "game.json", "thousands of digits")
    board = tmp_path / "board.toml"
    board.write_text(f"name = {LONG}\n")
    assert_bad_input(run("board", "--board", str(board)), "board.toml", "thousands of digits")


def test_a_number_with_thousands_of_digits_on_a_batch_line_is_that_line_s_error() -> None:
    result = run("verify", "--batch", "-", input=f'{{"tower": "9", "x": {LONG}}}\n{{"tower": "9"}}')
    items = json_lines(result)
    assert result.exit_code == 2
    assert "thousands of digits" in items[0]["error"]
    assert items[1]["valid"]


def test_special_tokens_beyond_the_box_are_refused(tmp_path: Path) -> None:
    data = json.loads(Path(STATE).read_text())
    data["players"][0]["special_tokens"] = 10**30
    state = tmp_path / "game.json"
    state.write_text(json.dumps(data))
    for command in (["state", "show"], ["plan", "--turns", "1", "-t", "2"]):
        assert_bad_input(run(*command, str(state)), "special_tokens", "the game has 21")


@pytest.mark.parametrize(("args", "fragments"), [
    # a missing argument is named (typer left click's message empty: "castell play: ACTION... ;")
    (["play", STATE], ["castell play: missing ACTION", "see 'castell play --help'"]),
    (["route", "Girona"], ["castell route: missing TO"]),
    (["schema"], ["castell schema: missing COMMAND"]),
    # the value as typed, not a count made of it ("-1" was "not 1", "9" was "got 1")
    (["state", "new", "--players", "-1"], ["--players", "'-1'"]),
    (["combo", "new", "--players", "9"], ["2-5 players", "'9'"]),
    # a value that starts with '-' is read as an option by click: say how to pass it
    (["combo", "score", "-,-,-/-,-,-/-,-,-"], ["No such option", "goes after '--'"]),
    (["play", STATE, "recruit", "-1"], ["No such option: -1", "goes after '--'"]),
    # plan --fix: the field and value, not pydantic's "1 validation error for Recruit"
    (["plan", STATE, "--fix", "recruit 99999999999"],
     ["--fix: 'recruit 99999999999'", "outside 1..10"]),
    (["plan", STATE, "--fix", "end"], ["--fix: 'end'", "leave 'end' out"]),
    (["plan", STATE, "--goal", "tile LP99"], ["unknown local performance tile 'LP99'"]),
    # an empty output name is not "a folder"
    (["state", "new", "--out", ""], ["cannot write ''", "file name is empty"]),
    (["board", "--svg", ""], ["cannot write ''", "file name is empty"]),
    (["combo", "new", "--players", "A,B", "--out", ""], ["cannot write ''"]),
    (["puzzle", "generate", "--count", "1", "--out", ""], ["cannot write ''"]),
    # ... nor the current folder (a folder's '' was read as '.')
    (["puzzle", "sheet", "examples/puzzles/medium.jsonl", "--out", ""], ["--out", "is empty"]),
    (["puzzle", "book", "--count", "1", "--out", " "], ["--out", "is empty"]),
    (["combo", "tournament", "--games", "1", "--out", ""], ["--out", "is empty"]),
    # the gold, not the CELL=N form, is what is wrong
    (["combo", "score", "C07,V12,C01/V03,~C20,V05/C11,V14,V22", "--stored", "C11=-1"],
     ["the gold '-1'", "0 to 99999"]),
], ids=lambda value: " ".join(value)[:50] if isinstance(value, list) else None)
def test_usage_messages_name_what_is_wrong(args: list[str], fragments: list[str]) -> None:
    assert_bad_input(run(*args), *fragments)


def test_an_option_given_twice_takes_its_last_value() -> None:
    """Click's rule, as documented (issue 50: the hand-made check that refused two different
    values re-read the command line behind click's back, and is gone)."""
    result = run("combo", "new", "--players", "A,B", "--players", "A,C")
    assert result.exit_code == 0, result.stderr
    state = json.loads(result.stdout)
    assert [player["name"] for player in state["now"]["players"]] == ["A", "C"]
    again = run("best", "--pool", "9x4", "-t", "5", "--time-limit=5", "--json")
    assert again.exit_code == 0, again.stderr


@pytest.mark.parametrize("command", [
    ["state", "show", "{game}", "--svg", "{game}"],
    ["verify", "9", "--state", "{game}", "--player", "Anna", "--svg", "{game}"],
    ["best", "--state", "{game}", "--player", "Anna", "--svg", "{game}"],
    ["check", "LP02", "--state", "{game}", "--player", "Anna", "--svg", "{game}"],
    ["board", "--board", "{board}", "--svg", "{board}"],
    ["state", "new", "--board", "{board}", "--out", "{board}"],
    ["combo", "show", "{combo}", "--svg", "{combo}"],
], ids=lambda c: " ".join(c[:2]))
def test_an_output_that_is_an_input_file_is_refused(tmp_path: Path, command: list[str]) -> None:
    # `--svg game.json` replaced the game with a picture (the write itself is atomic)
    files = {"game": tmp_path / "game.json", "board": tmp_path / "board.toml",
             "combo": tmp_path / "combo.json"}
    files["game"].write_text(Path(STATE).read_text())
    files["board"].write_text(Path("examples/boards/islands.toml").read_text())
    assert run("combo", "new", "--players", "A,B", "--out", str(files["combo"])).exit_code == 0
    before = {name: path.read_bytes() for name, path in files.items()}
    args = [part.format(**{k: str(v) for k, v in files.items()}) for part in command]
    assert_bad_input(run(*args), "is the input file", "pick another name")
    assert {name: path.read_bytes() for name, path in files.items()} == before


def test_a_byte_order_mark_is_not_a_syntax_error(tmp_path: Path) -> None:
    # Windows Notepad saves UTF-8 with a BOM: "not valid TOML: Invalid statement (line 1)"
    deal = tmp_path / "deal.toml"
    deal.write_bytes(b"\xef\xbb\xbf" + run("state", "template", "--players", "A,B").stdout
                     .encode())
    out = tmp_path / "game.json"
    result = run("state", "new", "--players", "A,B", "--deal", str(deal), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    state = tmp_path / "bom.json"
    state.write_bytes(b"\xef\xbb\xbf" + Path(STATE).read_bytes())
    assert one_json(run("state", "show", str(state), "--json"))["round"] == 3
    items = json_lines(run("verify", "--batch", "-", input=b'\xef\xbb\xbf{"tower": "9"}\n'))
    assert items[0]["valid"]
