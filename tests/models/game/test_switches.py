"""Each game reading that is a switch changes a hand-built case as the rules page says, and
`--rules VARIANT,switch=value` sets it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from models.errors import SpecError
from models.game.actions import EndTurn, Move, Special, Train
from models.game.referee import IllegalAction, apply, legal_actions
from models.game.state import GameState
from models.tower.rules import STANDARD, SWITCHES, Rules, rules_from_settings, rules_named
from models.tower.tower import Tower
from tests.models.game.test_referee import (
    BOARD,
    at,
    festival_position,
    free_special_position,
    refused,
)

# Girona's neighbours on the default board: Alt Pirineu, Comarques Centrals, Barcelona; Terres
# de l'Ebre is two regions away.
FAR = "terres-de-lebre"


def test_special_move_adjacent_or_any() -> None:
    state = at("girona")
    refused(state, Special(kind="move", to=FAR), "not adjacent")
    anywhere = replace(STANDARD, special_move="any")
    moved = apply(state, BOARD, Special(kind="move", to=FAR), anywhere)
    assert moved.current.pawn == FAR
    # the normal move stays adjacent-only under either reading
    refused(state, Move(to=FAR), "not adjacent", rules=anywhere)
    refused(state, Special(kind="move", to="girona"), "already in Girona", rules=anywhere)
    far_moves = {a.to for a in legal_actions(state, BOARD, anywhere)
                 if isinstance(a, Special) and a.kind == "move"}
    assert FAR in far_moves and "girona" not in far_moves
    assert FAR not in {a.to for a in legal_actions(state, BOARD, STANDARD)
                       if isinstance(a, Special) and a.kind == "move"}


def _claimed(rules: Rules) -> GameState:
    state = at("girona")
    state.regions["girona"].performance_tiles = ["LP01"]  # shape:3-2-1
    return apply(state, BOARD, Special(kind="claim", tile="LP01", tower="9,9,9/7,7/5"), rules)


def _festival(rules: Rules) -> GameState:
    # Anna's tower wins the trophy and the size-7 token (three 7s); Biel's takes the medal
    state = festival_position()
    space = state.festivals[0]
    chosen = {(space.location, "Anna"): Tower.parse("9x4/7x3/5x2/3"),
              (space.location, "Biel"): Tower.parse("10x4/8x3/7x2/6")}
    return apply(state, BOARD, EndTurn(), rules, lambda *_: None, chosen)


@pytest.mark.parametrize(("reading", "tile_earns", "prize_earns"), [
    ("rewards", True, True), ("festivals", False, True), ("size-tokens", False, False)])
def test_earned_regions(reading: str, tile_earns: bool, prize_earns: bool) -> None:
    rules = replace(STANDARD, earned_regions=reading)
    claimer = _claimed(rules).current
    assert claimer.claimed_tiles == ["LP01"]
    assert (claimer.earned_regions == ["girona"]) == tile_earns
    after = _festival(rules)
    anna, biel = after.player("Anna"), after.player("Biel")
    assert anna.earned_regions == ["lleida"]  # her size token counts under every reading
    assert biel.prizes == {"medal": 1}
    assert (biel.earned_regions == ["lleida"]) == prize_earns


def test_free_special_is_extra_false_refuses_a_paid_and_a_trained_special() -> None:
    strict = replace(STANDARD, free_special_is_extra=False)
    # trained first: its free action replaces the turn's own
    moved = apply(free_special_position(), BOARD, Special(kind="move", to="lleida"), strict)
    refused(moved, Special(kind="move", to="alt-pirineu-aran"), "already taken", rules=strict)
    # paid first: training a special tile afterwards is refused (it was allowed before)
    state = at("alt-pirineu-aran")  # rotation 0: its slot faces a special tile
    paid = apply(state, BOARD, Special(kind="move", to="lleida"), strict)
    back = apply(paid, BOARD, Move(to="alt-pirineu-aran"), strict)
    refused(back, Train(skill="special"), "free_special_is_extra=false", rules=strict)
    assert Train(skill="special") not in legal_actions(back, BOARD, strict)
    # the standard reading: both in one turn
    extra = apply(back, BOARD, Train(skill="special"), STANDARD)
    assert extra.turn.free_special
    assert Train(skill="special") in legal_actions(back, BOARD, STANDARD)


def test_rules_text_sets_switches_and_round_trips() -> None:
    rules = rules_named("standard,prize_ties=turn-order,special_move=any")
    assert (rules.prize_ties, rules.special_move) == ("turn-order", "any")
    assert rules.name == "standard,prize_ties=turn-order,special_move=any"
    assert rules_from_settings(rules.settings()) == rules
    assert rules_named("one-fewer,free_special_is_extra=no").free_special_is_extra is False
    assert set(rules.settings()) == set(SWITCHES)
    assert rules_named("special_move=any").special_move == "any"  # standard is implied


@pytest.mark.parametrize(("text", "says"), [
    ("standrd", "did you mean 'standard'"),
    ("standard,prize_tie=share", "did you mean 'prize_ties'"),
    ("standard,special_move=far", "adjacent, any"),
    ("standard,free_special_is_extra=maybe", "true, false"),
    ("standard,width", "switch=value"),
])
def test_bad_rules_text_is_refused_with_a_hint(text: str, says: str) -> None:
    with pytest.raises(SpecError, match=says):
        rules_named(text)


def test_an_illegal_action_is_an_illegal_action() -> None:
    with pytest.raises(IllegalAction):
        apply(at("girona"), BOARD, Move(to=FAR), STANDARD)
