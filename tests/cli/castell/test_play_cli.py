"""`castell play` and the real-game commands: whole games recorded through the CLI alone and
replayed from their history, illegal steps refused with the file byte-identical, undo byte for
byte, a killed write leaving the old file, and the CLI equal to the referee API."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.game import (
    ActionEntry,
    GameState,
    RefillEntry,
    apply,
    load_board,
    load_state,
    offers,
    recorded_towers,
    refill,
    replay,
    score_game,
)
from models.tower import Pool
from tests.cli.game_driver import castell, random_step, words_of
from tests.cli.helpers import no_crash

BOARD = load_board()
BOX = sum(BOARD.bag.values())  # 150 on the default board
NAMES = ["Anna", "Biel", "Carla", "Dani"]


def census(path: Path) -> Counter[int]:
    """Every casteller in the file, counted from its JSON text (not the project's census)."""
    data = json.loads(path.read_text())
    counts: Counter[int] = Counter()
    texts = [data["bag"], *(r["castellers"] for r in data["regions"].values()),
             *(p["pool"] for p in data["players"])]
    for text in texts:
        counts.update(Pool.parse(text).counts())
    return counts


def new_recorded(tmp_path: Path, players: int, seed: int = 5) -> Path:
    """A game started from a real deal file (the template's example values)."""
    names = ",".join(NAMES[:players])
    deal = tmp_path / "deal.toml"
    template = castell("state", "template", "--players", names, "--seed", str(seed))
    assert template.exit_code == 0, template.stderr
    deal.write_text(template.stdout)
    game = tmp_path / "game.json"
    made = castell("state", "new", "--players", names, "--deal", str(deal), "-o", str(game))
    assert made.exit_code == 0, made.stderr
    return game


def play(game: Path, *words: str) -> tuple[int, str]:
    result = castell("play", str(game), *words)
    no_crash(result)
    return result.exit_code, result.stdout + result.stderr


def play_out(game: Path, seed: int) -> int:
    """Random legal steps typed through `castell play` until the game is over."""
    rng = random.Random(seed)
    steps = 0
    while not (state := load_state(game)).game_over:
        words = words_of(random_step(state, BOARD, rng), BOARD)
        code, text = play(game, *words)
        assert code == 0, (words, text)
        assert census(game) == Counter(BOARD.bag), words
        steps += 1
    return steps


# --- whole games -----------------------------------------------------------------------------


# the fewest and the most players (3 took 21 s more: each step loads and replays the history)
@pytest.mark.parametrize("players", [2, 4])
def test_whole_game_recorded_through_the_cli_replays_to_the_same_state(
        tmp_path: Path, players: int) -> None:
    game = new_recorded(tmp_path, players)
    assert json.loads(game.read_text())["deal"] == "recorded"
    play_out(game, seed=players)
    final = load_state(game)
    assert final.history is not None and final.final_score is not None
    # the refills were typed in: every refill round's draws are in the history
    refills = [e for e in final.history.entries if isinstance(e, RefillEntry)]
    assert refills, "a recorded game records the refills it drew"
    again = replay(final.history.start, BOARD, final.history.entries, recorded_towers(final))
    # the same state but for the file's revision, which counts the writes (one per step)
    assert final.revision == len(final.history.entries)
    assert again.model_copy(update={"revision": final.revision}).to_json() == final.to_json()
    cards, winners = score_game(again, BOARD)
    shown = json.loads(castell("score", str(game), "--json").stdout)
    assert shown["game_over"] is True and shown["winners"] == winners
    assert [p["total"] for p in shown["players"]] == [c.total for c in cards]
    assert [c.total for c in final.final_score.cards] == [c.total for c in cards]
    text = castell("score", str(game)).stdout
    assert "game is over" in text and "winner" in text
    held = [f for f in final.festivals if f.result is not None]
    assert len(held) == len(final.festivals), "every festival's outcome is stored"


def test_score_before_the_end_is_a_standing(tmp_path: Path) -> None:
    game = new_recorded(tmp_path, 2)
    text = castell("score", str(game)).stdout
    assert "Standing in round 1" in text and "not a result" in text
    assert json.loads(castell("score", str(game), "--json").stdout)["game_over"] is False


def test_festival_on_a_round_without_one_names_the_next(tmp_path: Path) -> None:
    game = new_recorded(tmp_path, 2)
    state = load_state(game)
    first = min(state.festivals, key=lambda f: f.round)
    assert first.round > 1
    data = json.loads(castell("festival", str(game), "--json").stdout)
    assert data["festivals"] == [] and data["next"]["location"] == first.location
    assert data["next"]["round"] == first.round
    assert first.location in castell("festival", str(game)).stdout


# --- refills ---------------------------------------------------------------------------------


def _to_refill(game: Path) -> GameState:
    """Play (recruiting, so regions run short) until a refill is due."""
    rng = random.Random(1)
    while not (state := load_state(game)).refills_due:
        entry = random_step(state, BOARD, rng)
        code, text = play(game, *words_of(entry, BOARD))
        assert code == 0, text
    return state


def test_recorded_refills_are_asked_for_and_end_and_plan_name_them(tmp_path: Path) -> None:
    game = new_recorded(tmp_path, 2)
    state = _to_refill(game)
    region, count = next(iter(state.refills_due.items()))
    before = game.read_bytes()
    code, text = play(game, "end")
    assert code == 1 and region in text and "refill" in text
    assert game.read_bytes() == before
    planned = castell("plan", str(game))
    assert planned.exit_code == 2 and region in planned.stderr
    # a wrong count, and sizes the bag no longer holds, are refused
    code, text = play(game, "refill", region, *["1"] * (count + 1))
    assert code == 1 and f"draws {count}" in text
    bag = Pool.parse(state.bag or "none")
    absent = [s for s in range(1, 11) if bag.count(s) == 0]
    if absent:
        code, text = play(game, "refill", region, *[str(absent[0])] * count)
        assert code == 1 and "bag lacks" in text
    assert game.read_bytes() == before
    drawn = list(bag)[:count]
    code, text = play(game, "refill", BOARD.region(region).name, *map(str, drawn))
    assert code == 0, text
    after = load_state(game)
    assert region not in after.refills_due
    assert census(game) == Counter(BOARD.bag)


def test_a_seeded_game_draws_its_refills_from_the_bag(tmp_path: Path) -> None:
    game = tmp_path / "seeded.json"
    assert castell("state", "new", "--players", "Anna,Biel", "-o", str(game)).exit_code == 0
    rng = random.Random(2)
    rounds = set(BOARD.refill_rounds)
    while (state := load_state(game)).round <= max(rounds):
        assert not state.refills_due
        code, text = play(game, *words_of(random_step(state, BOARD, rng), BOARD))
        assert code == 0, text
        assert census(game) == Counter(BOARD.bag)


# --- refusals leave the file as it was -----------------------------------------------------


def _refused(game: Path, *words: str, code: int = 1, says: str = "") -> None:
    before = game.read_bytes()
    got, text = play(game, *words)
    assert got == code, (words, text)
    assert says.lower() in text.lower(), (words, text)
    assert game.read_bytes() == before, words
    assert not list(game.parent.glob(f".{game.name}.*")), "no temporary file left behind"


def test_every_illegal_step_is_refused_with_the_file_byte_identical(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    castell("state", "new", "--players", "Anna,Biel", "--seed", "3", "-o", str(game))
    state = load_state(game)
    _refused(game, "recruit", "5", says="pawn is not on the board")
    _refused(game, "special", "claim", "LP01", "4/3/2/1", says="pawn is not on the board")
    _refused(game, "move", "gyrona", code=2, says="did you mean 'Girona'")
    _refused(game, "dance", code=2, says="unknown action")
    _refused(game, "refill", "girona", "5", says="no refill is due")
    _refused(game, "festival-tower", "Anna", "4/3/2/1", says="no festival")
    assert play(game, "move", "girona")[0] == 0
    _refused(game, "move", "lleida", says="already moved")
    far = [r for r in BOARD.region_ids if r != "girona"
           and r not in {"alt-pirineu-aran", "comarques-centrals", "barcelona"}]
    _refused(game, "special", "move", far[0], says="not adjacent")
    supply = load_state(game).regions["girona"].supply
    missing = next(s for s in range(1, 11) if supply.count(s) == 0)
    _refused(game, "recruit", str(missing), says="lacks")
    _refused(game, "recruit", "1", "2", "3", says="at most 2")
    offered = set(offers(BOARD, state.wheel_rotation, "girona", state.wheel_side))
    not_offered = next(s for s in ("balance", "base", "mix", "strength", "width")
                       if s not in offered)
    _refused(game, "train", not_offered, says="does not offer")
    tile = load_state(game).regions["girona"].performance_tiles[0]
    _refused(game, "special", "claim", tile, "1", says="does not meet")
    other = next(t.id for t in BOARD.performance_tiles
                 if t.id not in load_state(game).regions["girona"].performance_tiles)
    _refused(game, "special", "claim", other, "4/3/2/1", says="not in girona's row")
    size = supply.sizes[0]
    assert play(game, "special", "recruit", str(size))[0] == 0
    _refused(game, "special", "recruit", str(supply.sizes[-1]), says="already taken")
    # the game over: nothing more is recorded
    over = tmp_path / "over.json"
    data = json.loads(game.read_text())
    data["game_over"], data["round"], data["history"] = True, 11, None
    over.write_text(json.dumps(data))
    _refused(over, "end", says="game is over")


def test_a_trained_special_must_be_taken_before_the_turn_ends(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    castell("state", "new", "--players", "Anna,Biel", "-o", str(game))
    state = load_state(game)
    region = next(r for r in BOARD.region_ids
                  if "special" in offers(BOARD, state.wheel_rotation, r, state.wheel_side))
    assert play(game, "move", region)[0] == 0
    assert play(game, "train", "special")[0] == 0
    _refused(game, "end", says="free special action")
    _refused(game, "recruit", "1", says="free special action comes first")


def test_no_tokens_left_refuses_a_special(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    castell("state", "new", "--players", "Anna,Biel", "-o", str(game))
    data = json.loads(game.read_text())
    data["players"][0]["special_tokens"] = 0
    game.write_text(json.dumps(data, indent=2) + "\n")
    assert play(game, "move", "girona")[0] == 0
    _refused(game, "special", "move", "barcelona", says="no special action token")


# --- undo and atomic writes -----------------------------------------------------------------


def unrevised(data: bytes) -> bytes:
    return re.sub(rb'\n  "revision": \d+\n', b"\n", data)


def test_undo_restores_every_previous_file_byte_for_byte(tmp_path: Path) -> None:
    game = new_recorded(tmp_path, 2, seed=8)
    rng = random.Random(8)
    kinds: set[str] = set()
    while (state := load_state(game)).round <= 4:
        before = game.read_bytes()
        entry = random_step(state, BOARD, rng)
        code, text = play(game, *words_of(entry, BOARD))
        assert code == 0, text
        after = game.read_bytes()
        assert play(game, "undo")[0] == 0
        # byte for byte, but for the revision: the undo is one more write of the file
        assert unrevised(game.read_bytes()) == unrevised(before), words_of(entry, BOARD)
        assert load_state(game).revision == json.loads(after)["revision"] + 1
        game.write_bytes(after)
        kinds.add(type(entry).__name__ if not isinstance(entry, ActionEntry)
                  else entry.action.type)
        if state.festivals_in(state.round) and state.turn.player == state.turn_order[-1]:
            kinds.add("festival round")
    assert {"move", "recruit", "end_turn", "RefillEntry", "festival round"} <= kinds


def test_dry_run_shows_and_does_not_write(tmp_path: Path) -> None:
    game = new_recorded(tmp_path, 2)
    before = game.read_bytes()
    code, text = play(game, "move", "girona", "--dry-run")
    assert code == 0 and "Girona" in text and "dry run" in text
    assert game.read_bytes() == before


def test_a_write_killed_before_the_rename_leaves_the_old_file(tmp_path: Path) -> None:
    game = new_recorded(tmp_path, 2)
    before = game.read_bytes()
    script = ("import os, signal, sys\n"
              "os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL)\n"
              "from cli.main import app\n"
              "sys.argv = ['castell', 'play', sys.argv[1], 'move', 'girona']\n"
              "app()\n")
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, "-c", script, str(game)], cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)}, check=False)
    assert done.returncode == -9
    assert game.read_bytes() == before


# --- the CLI is the referee ------------------------------------------------------------------


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_random_steps_through_the_cli_equal_the_referee_api(
        tmp_path_factory: pytest.TempPathFactory, seed: int, players: int) -> None:
    folder = tmp_path_factory.mktemp("api")
    game = new_recorded(folder, players, seed=seed)
    start = load_state(game)
    rng = random.Random(seed)
    state = start
    rules = start.game_rules
    for _ in range(40):
        entry = random_step(state, BOARD, rng)
        code, text = play(game, *words_of(entry, BOARD))
        assert code == 0, text
        if isinstance(entry, RefillEntry):
            state = refill(state, BOARD, entry.region, list(Pool.parse(entry.castellers)))
        else:
            assert isinstance(entry, ActionEntry)
            towers = recorded_towers(load_state(game))
            state = apply(state, BOARD, entry.action, rules, lambda *_: None, towers)
        stored = load_state(game).without_history()
        assert stored.model_copy(update={"revision": 0}) == state  # the file counts writes
        assert sum(census(game).values()) == BOX


# --- readings, deal files, festival towers ---------------------------------------------------


def test_castell_rules_lists_every_switch_with_values_and_default() -> None:
    from models.tower import STANDARD, SWITCHES, switch_values
    data = json.loads(castell("rules", "--json").stdout)
    rows = {row["switch"]: row for row in data["switches"]}
    assert set(rows) == set(SWITCHES)
    for name in SWITCHES:
        assert rows[name]["values"] == list(switch_values(name))
        assert rows[name]["default"] == str(getattr(STANDARD, name)).lower()
        assert rows[name]["meaning"]
    assert "special_move" in castell("rules").stdout


def test_a_game_keeps_the_readings_it_was_started_with(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    made = castell("state", "new", "--players", "Anna,Biel", "--rules",
                   "standard,prize_ties=turn-order,special_move=any", "-o", str(game))
    assert made.exit_code == 0, made.stderr
    stored = json.loads(game.read_text())["rules"]
    assert stored["prize_ties"] == "turn-order" and stored["special_move"] == "any"
    assert play(game, "move", "girona")[0] == 0
    # Terres de l'Ebre is two regions from Girona: only special_move=any allows it
    code, text = play(game, "special", "move", "terres de l'ebre")
    assert code == 0, text
    assert load_state(game).current.pawn == "terres-de-lebre"
    bad = castell("state", "new", "--rules", "standard,special_move=far", "-o",
                  str(tmp_path / "x.json"))
    assert bad.exit_code == 2 and "adjacent, any" in bad.stderr


@pytest.mark.parametrize(("edit", "says"), [
    (('castellers = "', 'castellers = "1,'), "regions."),
    (('performance_tiles = ["', 'performance_tiles = ["LP99", "'), "unknown tile 'LP99'"),
    (("location = \"", "location = \"Nowhere"), "festivals.0.location"),
    (("[players]\n", "[players]\nZoe = \"1\"\n"), "players"),
    (('rotation = 0', 'rotation = "x"'), "wheel.rotation"),
])
def test_a_bad_deal_file_is_refused_naming_the_field(tmp_path: Path, edit: tuple[str, str],
                                                     says: str) -> None:
    template = castell("state", "template", "--players", "Anna,Biel").stdout
    deal = tmp_path / "deal.toml"
    deal.write_text(template.replace(*edit, 1))
    made = castell("state", "new", "--players", "Anna,Biel", "--deal", str(deal), "-o",
                   str(tmp_path / "g.json"))
    assert made.exit_code == 2, made.stdout
    assert says in made.stderr and "Traceback" not in made.stderr
    assert not (tmp_path / "g.json").exists()


def _festival_eve(tmp_path: Path) -> tuple[Path, str]:
    """Round 3, Biel's turn (the last of the round); Anna stands in the festival's region
    with 9x4,7x3,5x2,3 and width 1, the festival's token is a 7 (the referee tests' case).
    The bag gives up Anna's castellers, so the census still holds."""
    game = tmp_path / "eve.json"
    castell("state", "new", "--players", "Anna,Biel", "-o", str(game))
    data = json.loads(game.read_text())
    space = next(f for f in data["festivals"] if f["round"] == 3)
    space["size_tokens"] = [7]
    data["round"], data["wheel_rotation"], data["turn"] = 3, 2, {"player": "Biel"}
    anna, biel = data["players"]
    anna.update(pawn=space["region"], pool="9x4,7x3,5x2,3", skills="width=1")
    biel.update(pawn=next(r for r in BOARD.region_ids if r != space["region"]))
    held = Counter[int]()
    for text in [*(r["castellers"] for r in data["regions"].values()),
                 *(p["pool"] for p in data["players"])]:
        held.update(Pool.parse(text).counts())
    data["bag"] = str(Pool.from_counts(Counter(BOARD.bag) - held))
    game.write_text(json.dumps(data, indent=2) + "\n")
    assert census(game) == Counter(BOARD.bag)
    return game, space["location"]


def test_a_named_festival_tower_is_the_one_built(tmp_path: Path) -> None:
    game, location = _festival_eve(tmp_path)
    _refused(game, "festival-tower", "Anna", "10/9/8/7", says="cannot build")
    _refused(game, "festival-tower", "Zoe", "none", code=2, says="no player 'Zoe'")
    # hand-derived: 9x4/7x3/5x2/3 (4 levels, width 1 for the 4) scores 4 + three 7s = 7
    assert play(game, "festival-tower", "Anna", "9x4/7x3/5x2/3")[0] == 0
    assert load_state(game).festival_towers == {"Anna": "9,9,9,9/7,7,7/5,5/3"}
    code, text = play(game, "end")
    assert code == 0 and "scores 7" in text, text
    space = next(f for f in load_state(game).festivals if f.location == location)
    assert space.result is not None
    anna = next(c for c in space.result.competitors if c.player == "Anna")
    assert (anna.tower, anna.score, anna.rank) == ("9,9,9,9/7,7,7/5,5/3", 7, 1)
    assert [(t.size, t.player) for t in space.result.size_tokens] == [(7, "Anna")]
    assert load_state(game).festival_towers == {}


def test_a_player_may_name_no_tower_and_not_compete(tmp_path: Path) -> None:
    game, location = _festival_eve(tmp_path)
    assert play(game, "festival-tower", "Anna", "none")[0] == 0
    assert play(game, "end")[0] == 0
    state = load_state(game)
    space = next(f for f in state.festivals if f.location == location)
    assert space.result is not None
    anna = next(c for c in space.result.competitors if c.player == "Anna")
    assert anna.tower is None and anna.reason == "chose not to compete"
    assert state.player("Anna").prizes == {}
    # undo takes the festival back, and replaying the history gives the same state again
    assert play(game, "undo")[0] == 0
    assert load_state(game).festival_towers == {"Anna": None}


# --- tower questions from the game ---------------------------------------------------------


def _json(*args: str) -> dict[str, object]:
    result = castell(*args, "--json")
    no_crash(result)
    data = json.loads(result.stdout.splitlines()[-1])
    assert isinstance(data, dict)
    return data


def test_best_check_verify_take_a_players_team_from_the_state(tmp_path: Path) -> None:
    game, _ = _festival_eve(tmp_path)
    team = ("--pool", "9x4,7x3,5x2,3", "--skills", "width=1")
    mine = ("--state", str(game), "--player", "Anna")
    assert _json("verify", "9x4/7x3/5x2/3", *mine) == _json("verify", "9x4/7x3/5x2/3", *team)
    assert _json("verify", "9x4/7x3/5x2/3", *mine)["valid"] is True
    tile = BOARD.tile("LP09")
    by_id = _json("check", "LP09", *mine)
    by_text = _json("check", tile.tile, *team)
    assert by_id.pop("wall_time_s") and by_text.pop("wall_time_s")
    assert by_id == by_text
    # no --festival: the festival Anna stands at (round 3, size token 7) is the next reachable
    best = _json("best", *mine)
    assert best.pop("wall_time_s") is not None
    asked = _json("best", *team, "--festival", "7")
    asked.pop("wall_time_s")
    assert best == asked and best["score"] == 7
    assert castell("best", "--player", "Anna", *team).exit_code == 2
    assert castell("verify", "9/7", *mine, "--pool", "9,7").exit_code == 2


def test_the_wheel_side_is_an_option(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    made = castell("state", "new", "--players", "2", "--wheel-side", "advanced", "-o", str(game))
    assert made.exit_code == 0, made.stderr
    assert load_state(game).wheel_side == "advanced"
    assert castell("state", "new", "--wheel-side", "sideways").exit_code == 2


def test_play_as_a_player_refuses_a_step_out_of_turn(tmp_path: Path) -> None:
    game = new_recorded(tmp_path, 2)
    before = game.read_bytes()
    mover = load_state(game).turn.player
    other = next(n for n in NAMES[:2] if n != mover)
    code, text = play(game, "--player", other.lower(), "end")
    assert code == 1 and f"it is {mover}'s turn, not {other}'s" in text
    assert game.read_bytes() == before
    code, _ = play(game, "--player", mover, "end")
    assert code == 0


def test_a_refused_step_prints_one_json_object_with_its_code(tmp_path: Path) -> None:
    game = new_recorded(tmp_path, 2)
    result = castell("play", str(game), "recruit", "9", "9", "9", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data == {"schema_version": 1, "refused": True, "code": "recruit_limit",
                    "reason": "a recruit takes at most 2 castellers, not 3"}
    assert "recruit" in result.stderr


def test_play_json_says_the_revision_and_the_notation(tmp_path: Path) -> None:
    game = new_recorded(tmp_path, 2)
    region = BOARD.regions[0]
    result = castell("play", str(game), "move", region.id, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["step"] == f"move {region.name}" and data["revision"] == 1
    assert data["written"] is True


def test_a_clock_is_never_recorded_as_cannot_compete(tmp_path: Path) -> None:
    """The end of round 3 holds the festival at Reus. With a thousandth of a second the
    towers are either still proven (the dp is that fast: the same result as with the default
    limit) or the round is not resolved at all (exit 2, the file untouched): never a "no valid
    tower" for a player who has one."""
    example = Path(__file__).parents[3] / "examples" / "game" / "round3.json"
    slow, fast = tmp_path / "slow.json", tmp_path / "fast.json"
    for path in (slow, fast):
        path.write_bytes(example.read_bytes())
    assert play(slow, "end")[0] == 0
    before = fast.read_bytes()
    code, text = play(fast, "end", "--time-limit", "0.001")
    if code == 0:
        held = [f.result for f in load_state(fast).festivals if f.round == 3]
        assert held == [f.result for f in load_state(slow).festivals if f.round == 3]
    else:
        assert code == 2 and "not proven within the time limit" in text, text
        assert fast.read_bytes() == before


def _slow_towers(monkeypatch: pytest.MonkeyPatch, under: float) -> list[float]:
    """Festival tower searches that prove nothing within less than `under` seconds (as a
    search too big for its limit); the limits asked, in order."""
    import planner.tower
    from planner.tower import SolveResult, Status

    real = planner.tower.solve
    asked: list[float] = []

    def solve(question: object, *args: object, time_limit: float = 10.0, **kwargs: object
              ) -> SolveResult:
        asked.append(time_limit)
        if time_limit < under:
            return SolveResult(Status.UNKNOWN, None, None, None, None, time_limit, "dp")
        return real(question, *args, time_limit=time_limit, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(planner.tower, "solve", solve)
    return asked


def test_a_festival_the_limit_cuts_short_is_exit_3_not_bad_input(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (issue 38): `castell festival -t` and `castell play ... end` exited 2 (bad
    input) when the time limit came before a festival tower was proven; a time limit is 3."""
    game, _ = _festival_eve(tmp_path)
    _slow_towers(monkeypatch, under=1000.0)
    before = game.read_bytes()
    for words in (("festival", str(game), "-t", "5"), ("play", str(game), "end")):
        result = castell(*words)
        no_crash(result)
        assert result.exit_code == 3, (words, result.stdout, result.stderr)
        line = result.stderr.strip()
        assert len(line.splitlines()) == 1
        assert "not proven within the time limit" in line and "--time-limit" in line
    assert game.read_bytes() == before  # nothing recorded
