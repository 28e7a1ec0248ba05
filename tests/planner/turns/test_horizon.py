"""The planner's horizon: turns, offers, the castellers counted on, and its assumptions."""

from __future__ import annotations

from dataclasses import replace

import pytest

from models.errors import SpecError
from models.game import EndTurn, apply
from models.game.actions import Recruit
from models.game.regions import RegionGraph
from models.tower.rules import STANDARD
from planner.turns.horizon import at_risk, build_horizon, contested_regions
from planner.turns.replay import cached_finder
from tests.planner.turns.game_states import BOARD, plan_roomy, played
from tests.planner.turns.test_plan import assert_replayed

GRAPH = RegionGraph(BOARD)


def test_turns_rounds_and_offers_follow_the_state() -> None:
    state = played(2, 3, 4)
    horizon = build_horizon(state, BOARD, state.turn.player, 3, STANDARD)
    assert [t.round for t in horizon.turns] == [4, 5, 6]
    for slot in horizon.turns:
        assert all(slot.offered[tile] for tile in slot.offered)
    assert any("bag adds" in a for a in horizon.assumptions)  # the refill after round 5


def test_the_horizon_stops_at_the_last_round() -> None:
    state = played(3, 2, 9)
    horizon = build_horizon(state, BOARD, state.turn.player, 5, STANDARD)
    assert [t.round for t in horizon.turns] == [9, 10]


def test_an_opponent_off_the_board_contests_every_region() -> None:
    state = played(4, 3, 1)
    assert state.players[1].pawn is None
    assert contested_regions(state, BOARD, state.players[0].name, STANDARD) == set(BOARD.region_ids)


def test_an_opponent_contests_at_least_its_neighbourhood() -> None:
    state = played(6, 2, 3)
    me, other = state.players
    assert other.pawn is not None
    lost = contested_regions(state, BOARD, me.name, STANDARD)
    assert GRAPH.within(other.pawn, 1) <= lost
    other.special_tokens = 0
    fewer = contested_regions(state, BOARD, me.name, STANDARD)
    assert fewer <= lost


def test_cautious_plans_recruit_only_where_no_opponent_comes_first() -> None:
    state = played(6, 2, 3)
    me = state.turn.player
    other = next(p for p in state.players if p.name != me)
    other.pawn, other.special_tokens = "terres-de-lebre", 0  # a corner, and one move a turn
    risk = at_risk(state, BOARD, me, 2, STANDARD)
    # one turn of the opponent's before the player's second: their next turn's reach (their
    # region, its neighbours, more where a special tile offers a free move)
    reach = contested_regions(state, BOARD, me, STANDARD)
    assert {other.pawn, *GRAPH.neighbours(other.pawn)} <= reach != set(BOARD.region_ids)
    assert {g for (t, g) in risk if t == 1} == {g for g in reach
                                                if state.regions[g].supply.total}
    assert not any(t == 0 for t, _ in risk)  # nobody plays before the player's first turn
    plan = plan_roomy(state, BOARD, me, rules=STANDARD, turns=2, cautious=True, time_limit=20)
    assert_replayed(plan)
    cautious = next(a for a in plan.assumptions if a.startswith("cautious"))
    # in a player's words ("region-turn(s) at risk" was not), with the count of at_risk's pairs
    assert "regions with castellers a rival could reach first, summed over the planned turns: " \
        f"{len(risk)})" in cautious
    recruits = [s for steps in plan.steps for s in steps
                if isinstance(s.action, Recruit) or getattr(s.action, "kind", "") == "recruit"]
    assert recruits  # not degenerate: the first turn's recruits are always safe
    assert all(s.at_risk is None for s in recruits)


def test_refuses_what_cannot_be_planned() -> None:
    state = played(2, 3, 4)
    other = state.turn_order[1]
    with pytest.raises(SpecError, match="turn"):
        build_horizon(state, BOARD, other, 2, STANDARD)
    with pytest.raises(SpecError, match="no player"):
        plan_roomy(state, BOARD, "Nobody", rules=STANDARD)
    owing = state.clone()
    owing.turn.free_special = True
    with pytest.raises(SpecError, match="free special"):
        build_horizon(owing, BOARD, owing.turn.player, 2, STANDARD)
    over = state.clone()
    over.game_over = True
    with pytest.raises(SpecError, match="over"):
        plan_roomy(over, BOARD, over.turn.player, rules=STANDARD)


def test_an_opponents_special_move_reaches_every_region_with_the_any_reading() -> None:
    state = played(6, 2, 3)
    me, other = state.players
    # a corner, Girona 3 steps away, and no token: a Move and the free special move of a
    # special tile reach all but Girona; with the "any" reading the free move jumps there
    other.pawn, other.special_tokens = "terres-de-lebre", 0
    anywhere = replace(STANDARD, special_move="any")
    near = contested_regions(state, BOARD, me.name, STANDARD)
    assert near == set(BOARD.region_ids) - {"girona"}
    assert contested_regions(state, BOARD, me.name, anywhere) == set(BOARD.region_ids)
    assert set(at_risk(state, BOARD, me.name, 2, STANDARD)) <= set(
        at_risk(state, BOARD, me.name, 2, anywhere))


def test_a_festivals_rivals_are_who_could_stand_in_its_region_when_it_is_held() -> None:
    state = played(6, 2, 3)
    assert not build_horizon(state, BOARD, "Anna", 3, STANDARD).coming  # only when cautious
    # Biel's turn: Anna played this round (she stands in Lleida), so the festival at its end
    # has no rival of his; by the next round's she plays a turn, and with her tokens her
    # reach holds every region (`contested_regions` from Biel's side)
    theirs = apply(state, BOARD, EndTurn(), STANDARD, cached_finder())
    horizon = build_horizon(theirs, BOARD, "Biel", 3, STANDARD, cautious=True)
    anna = theirs.player("Anna")
    assert anna.pawn == "lleida" and anna.special_tokens > 0
    rounds = {space.round: space for _, space in horizon.festivals}
    assert [rounds[r].region for r in (3, 4, 5)] == [
        "comarques-centrals", "alt-pirineu-aran", "barcelona"]
    assert horizon.coming[3, rounds[3].location] == ()
    near = contested_regions(theirs, BOARD, "Biel", STANDARD)
    assert {"alt-pirineu-aran", "barcelona"} <= near
    assert horizon.coming[4, rounds[4].location] == ("Anna",)
    assert horizon.coming[5, rounds[5].location] == ("Anna",)
    # Anna's turn: Biel plays this round after her, so he could come to its festival too
    mine = build_horizon(state, BOARD, "Anna", 3, STANDARD, cautious=True)
    assert mine.coming[3, rounds[3].location] == ("Biel",)
    assert any("competes there" in a for a in mine.assumptions)
