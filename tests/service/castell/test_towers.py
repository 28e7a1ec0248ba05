"""The tower use cases called directly: asked of a pool or of a game's player (names as
typed), the game's stored readings honoured, `--rules` refused with a game, what-ifs said."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import service.castell.towers
from models.errors import SpecError
from models.tower import rules_named
from service.castell import RULES_WITH_STATE
from service.castell.towers import (
    Asked,
    Solving,
    best,
    best_batch,
    check,
    check_batch,
    verify,
    verify_batch,
)

ROUND3 = "examples/game/round3.json"
ANNA = Asked(pool="10x4,8,6x2,5,1", skills="balance=1,strength=1,width=1")  # as in ROUND3
DP = Solving("dp", 10.0)
WIDE = "10,10,10,10/6,6/5/1"  # valid under the standard rules, not under one-fewer (R4)
TILE = "shape:4-2-1-1"  # likewise


def _game(tmp_path: Path, rules: str | None = None, **anna: Any) -> Path:
    """A copy of ROUND3 with stored readings `rules` and Anna's fields changed."""
    data = json.loads(Path(ROUND3).read_text())
    if rules is not None:
        data["rules"] = rules_named(rules).settings()
    for player in data["players"]:
        if player["name"] == "Anna":
            player.update(anna)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    return path


def _same(a: dict[str, Any], b: dict[str, Any]) -> None:
    a.pop("wall_time_s", None)
    b.pop("wall_time_s", None)
    assert a == b


def _best(asked: Asked, festival: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(best(asked, festival, DP).output().to_json())
    return data


def _check(asked: Asked, tile: str = TILE) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(check(tile, asked, DP).output().to_json())
    return data


def _verify(asked: Asked, tower: str = WIDE) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(verify(tower, asked).output().to_json())
    return data


# -- names as typed -------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["anna", "ANNA", " Anna "])
def test_a_player_is_named_as_typed(typed: str) -> None:
    game = Asked(state=ROUND3, player=typed)
    reply = best(game, None, DP)  # was an internal error: 'anna' is not in list
    assert reply.looked_for == "Anna" and reply.reached is not None
    _same(_best(game), _best(Asked(state=ROUND3, player="Anna")))
    assert _verify(game) == _verify(ANNA)
    _same(_check(game), _check(ANNA))


def test_an_unknown_player_is_bad_input_with_a_hint() -> None:
    with pytest.raises(SpecError, match="did you mean 'Anna'"):
        best(Asked(state=ROUND3, player="Ana"), None, DP)


# -- the game's readings --------------------------------------------------------------------


def test_the_stored_readings_are_the_answers_readings(tmp_path: Path) -> None:
    stored = "standard,decrease=one-fewer"  # as a state stores one-fewer (its readings' name)
    game = Asked(state=_game(tmp_path, stored), player="Anna")
    explicit = Asked(pool=ANNA.pool, skills=ANNA.skills, rules=stored)
    assert _verify(game) == _verify(explicit)
    assert _verify(game)["valid"] is False and _verify(ANNA)["valid"] is True
    _same(_check(game), _check(explicit))
    assert _check(game)["achievable"] is False and _check(ANNA)["achievable"] is True
    _same(_best(game), _best(explicit, "10"))
    assert _best(game)["score"] == 7 and _best(ANNA, "10")["score"] == 8


def test_the_stored_special_move_reading_decides_the_festival_reached(tmp_path: Path) -> None:
    # Anna to move, three moves from Girona with one token: only `special_move=any` gets
    # her to Girona's festival this round (reach used to ignore the game's readings)
    path = _game(tmp_path, "standard,special_move=any", pawn="terres-de-lebre",
                 special_tokens=1)
    data = json.loads(path.read_text())
    data["turn"]["player"] = "Anna"
    data["festivals"][0].update(region="girona", location="Girona", size_tokens=[8])
    path.write_text(json.dumps(data))
    reply = best(Asked(state=path, player="anna"), None, DP)
    assert reply.reached is not None and reply.reached.location == "Girona"
    _same(_best(Asked(state=path, player="anna")),
          _best(Asked(pool=ANNA.pool, skills=ANNA.skills, rules="standard,special_move=any"),
                "8"))


@pytest.mark.parametrize("ask", [
    lambda a: best(a, None, DP), lambda a: check(TILE, a, DP), lambda a: verify(WIDE, a)])
def test_rules_with_a_game_are_refused(ask: Any) -> None:
    with pytest.raises(SpecError) as refused:
        ask(Asked(state=ROUND3, player="Anna", rules="one-fewer"))
    assert str(refused.value) == RULES_WITH_STATE


def test_a_what_if_uses_its_readings_and_says_so() -> None:
    what_if = Asked(state=ROUND3, player="Anna", what_if_rules="one-fewer")
    explicit = Asked(pool=ANNA.pool, skills=ANNA.skills, rules="one-fewer")
    for got, asked in ((_verify(what_if), _verify(explicit)),
                       (_check(what_if), _check(explicit)),
                       (_best(what_if), _best(explicit, "10"))):
        assert got.pop("what_if_rules") == "one-fewer"
        _same(got, asked)
    assert "what_if_rules" not in _best(Asked(state=ROUND3, player="Anna"))
    assert best(what_if, None, DP).what_if_rules == "one-fewer"


def test_a_what_if_needs_a_game() -> None:
    with pytest.raises(SpecError, match="a what-if goes with a game") as refused:
        verify(WIDE, Asked(pool="9", what_if_rules="one-fewer"))
    assert refused.value.field == "what_if_rules"


def test_a_team_is_given_once() -> None:
    with pytest.raises(SpecError, match="a pool or skills do not go with it") as refused:
        verify(WIDE, Asked(state=ROUND3, skills="width=1"))
    assert refused.value.field == "pool"
    with pytest.raises(SpecError, match="a player goes with a game") as refused:
        verify(WIDE, Asked(player="Anna"))
    assert refused.value.field == "player"


# -- batches --------------------------------------------------------------------------------


def _lines(*items: Any) -> list[tuple[int, str]]:
    return [(n, item if isinstance(item, str) else json.dumps(item))
            for n, item in enumerate(items, start=1)]


def test_a_batch_answers_each_line_and_marks_the_bad_ones() -> None:
    items = list(verify_batch(_lines({"tower": "9/8"}, "{", {"tower": "9", "rules": "nope"})))
    assert [(i.bad, i.internal) for i in items] == [(False, False), (True, False),
                                                   (True, False)]
    assert json.loads(items[1].output.to_json())["line"] == 2
    best_items = list(best_batch(_lines({"pool": "9,9,8", "festival": "9"}, {"pool": "9"})))
    assert [json.loads(i.output.to_json())["status"] for i in best_items] == \
        ["infeasible", "optimal"]
    check_items = list(check_batch(_lines({"pool": "9x3,7x2,5", "tile": "shape:3-2-1"})))
    assert json.loads(check_items[0].output.to_json())["achievable"] is True


def test_an_internal_error_on_one_line_is_marked_and_the_batch_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = service.castell.towers.verify

    def flaky(tower: str, asked: Asked) -> service.castell.towers.Verified:
        if tower == "3":
            raise RuntimeError("planted bug")
        return real(tower, asked)

    monkeypatch.setattr(service.castell.towers, "verify", flaky)
    items = list(verify_batch(_lines(*({"tower": t} for t in ("9", "3", "8")))))
    assert [(i.bad, i.internal) for i in items] == [(False, False), (True, True),
                                                   (False, False)]
    assert json.loads(items[1].output.to_json()) == {
        "schema_version": 1, "line": 2, "error": "internal error (RuntimeError: planted bug)"}
