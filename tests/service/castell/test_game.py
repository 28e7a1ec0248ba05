"""service.castell.Game: the game handle every interface asks. Its readings are the game's,
its steps are typed outcomes or typed refusals, its writes are atomic, under a lock and
refused when stale, and its undo never crosses a draw that was seen."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.errors import Reason, Refused, SpecError
from models.game import (
    ActionEntry,
    format_action,
    format_step,
    legal_actions,
    load_board,
    new_game,
    parse_action,
    parse_step,
    resolve_festival,
)
from models.tower import rules_named
from service.castell import Game
from service.castell.festivals import referee_finder
from service.store import StaleRevision

EXAMPLE = Path(__file__).parents[3] / "examples" / "game" / "round3.json"
BOARD = load_board()


@pytest.fixture()
def round3(tmp_path: Path) -> Path:
    copy = tmp_path / "game.json"
    shutil.copy(EXAMPLE, copy)
    return copy


def with_readings(path: Path, rules: str) -> Path:
    data = json.loads(path.read_text())
    data["rules"] = rules_named(rules).settings()
    path.write_text(json.dumps(data))
    return path


# --- loading, names, saving -------------------------------------------------------------------

def test_a_player_is_found_as_typed_and_an_unknown_one_gets_a_hint(round3: Path) -> None:
    game = Game.load(round3)
    assert game.player(" anna ").name == "Anna"
    assert game.player().name == game.state.turn.player
    with pytest.raises(SpecError, match="did you mean 'Biel'"):
        game.player("Bile")


def test_save_counts_revisions_and_refuses_a_stale_writer(round3: Path) -> None:
    first, second = Game.load(round3), Game.load(round3)
    assert first.revision == second.revision == 0
    first.step("end")
    first.save()
    assert Game.load(round3).revision == 1
    second.step("end")
    with pytest.raises(StaleRevision, match="revision 0, now 1") as refused:
        second.save()
    assert refused.value.code is Reason.STALE_REVISION
    assert len(Game.load(round3).state.history.entries) == 1  # type: ignore[union-attr]


def test_a_step_sent_for_an_old_revision_is_refused(round3: Path) -> None:
    game = Game.load(round3)
    with pytest.raises(Refused) as refused:
        game.step("end", expect_revision=7)
    assert refused.value.code is Reason.STALE_REVISION


# --- steps and refusals -----------------------------------------------------------------------

def test_a_step_reports_what_it_changed() -> None:
    game = Game.from_state(new_game(BOARD, 3, 1), BOARD)
    mover = game.state.turn.player
    region = BOARD.regions[0]
    moved = game.step(f"move {region.name.lower()}")
    assert moved.step == f"move {region.name}"
    assert [c.pawn for c in moved.changes] == [region.id]
    size = max(game.state.regions[region.id].supply.sizes)
    outcome = game.step(["recruit", str(size)])
    change = next(c for c in outcome.changes if c.player == mover)
    assert change.recruited == [size]
    assert outcome.step == f"recruit {size}"
    assert outcome.turn == mover


@pytest.mark.parametrize(("text", "code"), [
    ("move Girona", Reason.NOT_ADJACENT),
    ("recruit 7 5 3", Reason.RECRUIT_LIMIT),
    ("train mix", Reason.ALREADY_TRAINED),
    ("special claim LP01 9x4/7x3/5x2/3", Reason.TILE_NOT_HERE),
])
def test_refusals_carry_their_code(round3: Path, text: str, code: Reason) -> None:
    game = Game.load(round3)
    with pytest.raises(Refused) as refused:
        game.step(text)
    assert refused.value.code is code, str(refused.value)


def test_a_step_by_the_wrong_player_is_refused(round3: Path) -> None:
    game = Game.load(round3)
    other = next(p.name for p in game.state.players if p.name != game.state.turn.player)
    with pytest.raises(Refused) as refused:
        game.step("end", as_player=other.lower())
    assert refused.value.code is Reason.WRONG_PLAYER
    game.step("end", as_player=game.state.turn.player)


def test_undo_never_crosses_a_seeded_draw(tmp_path: Path) -> None:
    """The end of a refill round refills the regions from the bag (a seeded deal): the players saw
    the draw, so the step that made it is not undone; the steps before it are."""
    path = tmp_path / "seeded.json"
    path.write_text(new_game(BOARD, 2, 5).to_json())
    game = Game.load(path)
    first = min(BOARD.refill_rounds)
    game.step(f"move {BOARD.regions[0].name}")
    game.undo()  # no draw: undone
    while game.state.round < first + 1:
        recruits = [a for a in game.legal_actions() if a.type == "recruit"]
        if recruits:  # a region short of castellers draws at the refill
            game.step(recruits[0])
        else:
            game.step(next(a for a in game.legal_actions() if a.type == "move"))
        outcome = game.step("end")  # the last one ends a refill round: a draw from the bag
    assert outcome.drawn
    with pytest.raises(Refused) as refused:
        game.undo()
    assert refused.value.code is Reason.UNDO_CROSSES_DRAW


# --- festivals --------------------------------------------------------------------------------

def test_the_festival_preview_gives_the_prizes_end_gives(round3: Path) -> None:
    """Anna named no tower (none: not competing), Biel a tower of his own: the preview and
    the festival `end` then holds agree, prize for prize."""
    game = Game.load(round3)
    game.step("festival-tower Anna none")
    biel = game.player("Biel")
    tower = "10/8/7,7/5"  # hypothesis-free: a valid festival tower for Biel's team?
    try:
        game.step(f"festival-tower Biel {tower}")
    except Refused:
        biel_named = False
    else:
        biel_named = True
    preview = {e.player: e.prize for o in game.preview_festivals() for e in o.entries}
    assert preview["Anna"] is None
    while game.state.round == 3:
        outcome = game.step("end")
    held = {c.player: c.prize for f in outcome.festivals
            for c in f.result.competitors} if outcome.festivals else {}  # type: ignore[union-attr]
    assert held == preview
    assert biel.name == "Biel" and isinstance(biel_named, bool)


def test_a_named_tower_that_cannot_compete_is_refused_when_named(round3: Path) -> None:
    game = Game.load(round3)
    anna = game.player("Anna")
    short = "10,10/8/6"  # valid for her team, but three levels: festivals need four
    with pytest.raises(Refused, match="levels") as refused:
        game.step(f"festival-tower Anna {short}")
    assert refused.value.code is Reason.CANNOT_COMPETE, str(refused.value)
    with pytest.raises(Refused, match="rank is 1") as refused:  # the checker's words, no repr
        game.step("festival-tower Anna 10/10/10/10")
    assert "Violation(" not in str(refused.value)
    best = next(o for o in game.preview_festivals()).entry("Anna").tower
    assert best is not None
    data = json.loads(round3.read_text())
    data["festivals"][0]["size_tokens"] = [7]  # a size Anna has none of
    round3.write_text(json.dumps(data))
    with pytest.raises(Refused, match="no casteller of size 7") as refused:
        Game.load(round3).step(f"festival-tower Anna {best}")
    assert refused.value.code is Reason.CANNOT_COMPETE
    data["festivals"][0]["size_tokens"] = [10]
    data["players"][0]["pawn"] = "lleida"  # away from Reus
    round3.write_text(json.dumps(data))
    with pytest.raises(Refused, match="pawn is in Lleida") as refused:
        Game.load(round3).step(f"festival-tower Anna {best}")
    assert refused.value.code is Reason.CANNOT_COMPETE
    assert anna.pawn == "camp-de-tarragona"


def test_two_festivals_in_one_region_take_a_tower_each(round3: Path) -> None:
    data = json.loads(round3.read_text())
    data["festivals"][1].update(location="Valls", region="camp-de-tarragona", round=3,
                                type="II", size_tokens=[8])
    round3.write_text(json.dumps(data))
    game = Game.load(round3)
    step = parse_step(["festival-tower", "anna", "Valls", "none"], game.state, game.board)
    assert format_step(step, game.board) == "festival-tower Anna Valls none"
    game.step(step)  # type: ignore[arg-type]
    outcomes = {o.space.location: o.entry("Anna") for o in game.preview_festivals()}
    assert outcomes["Valls"].tower is None and outcomes["Valls"].reason is not None
    assert outcomes["Reus"].tower is not None  # her best one there


def test_the_referee_finder_never_turns_a_clock_into_cannot_compete() -> None:
    """With no time at all the search cannot prove: the festival is not resolved (a refusal
    to resolve), rather than recorded as 'no valid tower can compete'."""
    from service.castell.festivals import TowerSearchUnfinished

    state = Game.load(EXAMPLE).position()
    space = state.festivals_in(state.round)[0]
    finder = referee_finder(1e-9)
    try:
        outcome = resolve_festival(state, BOARD, space, state.game_rules, finder)
    except TowerSearchUnfinished:
        return
    proven = resolve_festival(state, BOARD, space, state.game_rules, referee_finder(10.0))
    assert outcome == proven  # fast enough to prove even then: the same festival


# --- the readings are the game's --------------------------------------------------------------

def test_the_festival_preview_uses_the_stored_readings(round3: Path) -> None:
    with_readings(round3, "standard,prize_ties=share,size_token_ties=turn-order")
    game = Game.load(round3)
    rules = rules_named("standard,prize_ties=share,size_token_ties=turn-order")
    state = game.position()
    expected = [resolve_festival(state, BOARD, space, rules, referee_finder(10.0))
                for space in state.festivals_in(state.round)]
    assert game.preview_festivals() == expected
    assert game.rules == rules


# --- the notation -----------------------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 30))
def test_every_legal_action_formats_and_parses_back(seed: int, steps: int) -> None:
    import random

    rng = random.Random(seed)
    state = new_game(BOARD, rng.choice([2, 3, 4]), seed)
    rules = state.game_rules
    game = Game.from_state(state, BOARD)
    for _ in range(steps):
        actions = legal_actions(game.position(), BOARD, rules)
        for action in actions:
            text = format_action(action, BOARD)
            assert parse_action(text, BOARD) == action, text
            assert parse_action(text.lower().split(), BOARD) == action, text
        if game.state.game_over:
            break
        choice = rng.choice(actions)
        game.step(ActionEntry(player=game.state.turn.player, action=choice))


def test_training_past_the_highest_rank_is_refused_not_a_crash() -> None:
    game = Game.from_state(new_game(BOARD, 2, 1), BOARD)
    for region in BOARD.regions:  # the first region whose slot offers a skill this round
        trial = Game.from_state(game.state.clone(), BOARD)
        trial.step(f"move {region.name}")
        skills = [a.skill for a in trial.legal_actions() if a.type == "train"
                  and a.skill != "special"]
        if skills:
            break
    trial.state.current.skills = f"{skills[0]}=150"
    with pytest.raises(Refused, match="rank 150 already") as refused:
        trial.step(f"train {skills[0]}")
    assert refused.value.code is Reason.RANK_MAX


def test_an_unknown_skill_is_bad_input_with_a_hint() -> None:
    with pytest.raises(SpecError, match="did you mean 'width'"):
        parse_action("train widht", BOARD)


def _recorded(tmp_path: Path) -> Path:
    """A seeded 2-player game with a few steps in its history, saved."""
    path = tmp_path / "recorded.json"
    path.write_text(new_game(BOARD, 2, 4).to_json())
    with Game.editing(path) as game:
        game.step(f"move {BOARD.regions[0].name}")
        recruit = next(a for a in game.legal_actions() if a.type == "recruit")
        game.step(recruit)
        game.step("end")
        game.save()
    return path


def _rank(data: dict[str, Any]) -> None:
    data["players"][0]["skills"] = "width=9"  # no training in the history gives it


def _entry(data: dict[str, Any]) -> None:
    data["history"]["entries"][0]["action"]["to"] = "no-such-region"


def _start(data: dict[str, Any]) -> None:
    data["history"]["start"]["players"][0]["pawn"] = "atlantis"


@pytest.mark.parametrize(("edit", "message"), [
    (_rank, r"players\.0\.skills.*edited by hand"),
    (_entry, r"history\.entries\.0: does not replay"),
    (_start, r"history\.start: .*atlantis"),
], ids=["hand-edited rank", "entry that does not replay", "start off the board"])
def test_a_record_that_does_not_replay_is_refused_when_loaded(
        tmp_path: Path, edit: Callable[[dict[str, Any]], None], message: str) -> None:
    path = _recorded(tmp_path)
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))
    with pytest.raises(SpecError, match=message):
        Game.load(path)


def test_undo_then_loads_again(tmp_path: Path) -> None:
    path = _recorded(tmp_path)
    for _ in range(3):
        with Game.editing(path) as game:
            game.undo()
            game.save()
        Game.load(path)  # every file undo writes loads and replays
