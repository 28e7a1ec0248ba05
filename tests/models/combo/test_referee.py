"""The referee: whole random games to the end, each turn step and ability form by hand, the
refusals the rule sheet warns about, refill with reshuffle and dead rows, undo and recording."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.combo import (
    CARDS_EACH,
    ComboRules,
    Deck,
    GameState,
    IllegalAction,
    Placed,
    PlayerState,
    Table,
    apply,
    drawn,
    final_scores,
    legal_actions,
    load_deck,
    new_game,
    parse_action,
    pending_reveals,
    play,
    recorded_game,
    replay_problem,
    rewind,
    score_tableau,
    sequence_problem,
    state_from_dict,
    undo,
)
from models.errors import CastellError, Reason, SpecError
from tests.models.combo.builders import card, deck, filler

NAMES = ["Ana", "Ben", "Cem", "Dee", "Eli"]


@settings(max_examples=25)
@given(st.integers(2, 5), st.integers(0, 10_000))
def test_random_legal_games_reach_the_end(players: int, seed: int) -> None:
    state = new_game(load_deck(), NAMES[:players], seed)
    rng = random.Random(seed)
    previous = state
    while not state.now.game_over:
        actions = legal_actions(state)
        assert actions, "a player always has a legal action"
        previous, state = state, apply(state, rng.choice(actions))
        for player in state.now.players:
            assert player.gold >= 0 and player.keys >= 0
            assert sequence_problem((p.row, p.column) for p in player.tableau) is None
    assert rewind(state).now == previous.now  # the history replayed but its last action
    if drawn(previous.now, state.now):  # the last take showed a new card: no undo over it
        with pytest.raises(IllegalAction) as refused:
            undo(state)
        assert refused.value.code is Reason.UNDO_CROSSES_DRAW
    else:
        assert undo(state).now == previous.now
    assert replay_problem(state) is None
    deck = state.deck()
    scores, winners = final_scores(state)
    for player, result in zip(state.now.players, scores, strict=True):
        assert len(player.tableau) == CARDS_EACH and player.grid().full
        assert result.sheet == score_tableau(player.grid(), deck, player.keys, player.gold,
                                             player.purses)
    assert winners
    # the file round-trips, including the embedded cards
    assert state_from_dict(state.model_dump(mode="json")) == state
    with pytest.raises(IllegalAction, match="game is over"):
        apply(state, parse_action("key move"))


# --- hand-set tables -------------------------------------------------------------------------

def _state(d: Deck, castle: list[str], village: list[str], *, messenger: str = "village",
           players: list[dict[str, Any]] | None = None, castle_deck: list[str] | None = None,
           village_deck: list[str] | None = None, discard: dict[str, list[str]] | None = None,
           rules: ComboRules | None = None) -> GameState:
    """A state whose rows, decks (top first) and players a test chooses; every card somewhere."""
    people = [PlayerState(**{"gold": 15, "keys": 2, **p})
              for p in (players or [{"name": "Ana"}, {"name": "Ben"}])]
    used = set(castle) | set(village) | {p.card for pl in people for p in pl.tableau}
    used |= {c for pile in (discard or {}).values() for c in pile}
    decks = {"castle": castle_deck, "village": village_deck}
    for location in ("castle", "village"):
        if decks[location] is None:
            decks[location] = [c.id for c in d.of(location) if c.id not in used]  # type: ignore
    table = Table(decks=decks, rows={"castle": list(castle), "village": list(village)},
                  discard=discard or {"castle": [], "village": []},
                  messenger=messenger, players=people)
    return GameState(rules=rules or ComboRules(), cards=list(d.cards), card_source=d.source,
                     start=table, now=table.model_copy(deep=True))


def _run(state: GameState, *texts: str) -> GameState:
    return play(state, texts)


def _refused(state: GameState, text: str, fragment: str) -> None:
    with pytest.raises(CastellError, match=fragment):
        play(state, [text])


BASE = [*filler("c", "castle", 8, cost=2), *filler("v", "village", 8, cost=2)]


def test_refusals_the_rule_sheet_warns_about() -> None:
    d = deck(*BASE, card("RICH", "village", 7))
    state = _state(d, ["c00", "c01", "c02"], ["v00", "v01", "RICH"])
    _refused(state, "buy c00", "castle row, not the Messenger's")  # the other row
    _refused(_run(state, "key move"), "key move", "already used a key")  # a second key
    _refused(state, "buy v05", "not face up")
    poor = _state(d, ["c00", "c01", "c02"], ["v00", "v01", "RICH"],
                  players=[{"name": "Ana", "gold": 6}, {"name": "Ben"}])
    _refused(poor, "buy RICH", "costs 7 gold, Ana has 6")  # buying without the gold
    assert _run(poor, "flip RICH").now.players[0].gold == 12  # ...but flipping is free
    row = [Placed(card=f"c0{i}", row=0, column=i - 3) for i in range(3, 6)]
    full = _state(d, ["c00", "c01", "c02"], ["v00", "v01", "v02"],
                  players=[{"name": "Ana", "tableau": row}, {"name": "Ben"}])
    _refused(full, "buy v00 at 0,3", "4th row or column")  # a 4th card in a row
    _refused(full, "buy v00 at 2,0", "not next to")
    _refused(full, "buy v00", "where does")
    no_keys = _state(d, ["c00", "c01", "c02"], ["v00", "v01", "v02"],
                     players=[{"name": "Ana", "keys": 0}, {"name": "Ben"}])
    _refused(no_keys, "key renew", "no key")
    _refused(state, "reveal c03", "recorded game")


def test_a_turn_buy_pays_places_and_passes_on() -> None:
    d = deck(*BASE, card("M", "village", 5, messenger=True, discount=["castle"]))
    state = _state(d, ["c00", "c01", "c02"], ["M", "v00", "v01"], castle_deck=["c03"])
    state = _run(state, "buy M")
    ana = state.now.players[0]
    assert ana.gold == 10 and [p.card for p in ana.tableau] == ["M"]  # own discount not on itself
    assert state.now.messenger == "castle"  # the Messenger icon: to the other row
    assert state.now.current == 1 and state.now.rows["village"][0] == "v02"  # refilled
    state = _run(state, "flip c00")  # Ben: a face-down card never moves the Messenger
    assert state.now.messenger == "castle"
    assert (state.now.players[1].gold, state.now.players[1].keys) == (21, 4)
    state = _run(state, "buy c01 at 0,1")  # Ana: 2 - 1 (M's castle discount)
    assert state.now.players[0].gold == 9


def test_key_move_and_renew() -> None:
    d = deck(*BASE)
    state = _state(d, ["c00", "c01", "c02"], ["v00", "v01", "v02"],
                   village_deck=["v03", "v04", "v05", "v06", "v07"])
    moved = _run(state, "key move")
    assert moved.now.messenger == "castle" and moved.now.players[0].keys == 1
    renewed = _run(state, "key renew")
    assert renewed.now.rows["village"] == ["v03", "v04", "v05"]
    assert renewed.now.discard["village"] == ["v00", "v01", "v02"]
    assert renewed.now.rows["castle"] == ["c00", "c01", "c02"]


def test_an_empty_deck_is_rebuilt_from_the_discard_pile_and_a_row_can_die() -> None:
    d = deck(*filler("c", "castle", 4), *filler("v", "village", 6))
    # the village deck is empty; its discard pile holds v03 v04 v05 after a renewal
    state = _state(d, ["c00", "c01", "c02"], ["v00", "v01", "v02"], village_deck=[],
                   discard={"castle": [], "village": ["v03", "v04", "v05"]},
                   castle_deck=["c03"])
    state = _run(state, "buy v00")
    assert state.now.rows["village"][1:] == ["v01", "v02"]
    assert state.now.rows["village"][0] in {"v03", "v04", "v05"}
    assert len(state.now.decks["village"]) == 2 and state.now.discard["village"] == []
    # castle: 3 in the row, 1 in the deck; take two: the second hole cannot be filled
    state = _run(state, "key move", "buy c00")  # Ben
    assert state.now.rows["castle"] == ["c03", "c01", "c02"]
    state = _run(state, "buy c01 at 0,1")  # Ana, the Messenger still at the castle row
    assert "castle" in state.now.dead
    assert state.now.messenger == "village"  # the Messenger leaves the dead row
    _refused(state, "key move", "out of the game")
    assert parse_action("key renew") in legal_actions(state)


def _ability_state(ability: list[dict[str, Any]], *, extra: list[dict[str, Any]] = (),
                   players: list[dict[str, Any]] | None = None, **fields: Any) -> GameState:
    d = deck(*BASE, *extra, card("X", "village", 1, ("faith",), ability=ability, **fields))
    return _state(d, ["c00", "c01", "c02"], ["X", "v00", "v01"], players=players)


def test_gain_and_gain_per_count_the_card_itself() -> None:
    state = _run(_ability_state([{"gain": "gold", "amount": 3}, {"gain": "keys", "amount": 1}]),
                 "buy X")
    assert (state.now.players[0].gold, state.now.players[0].keys) == (15 - 1 + 3, 3)
    faith = card("F", "castle", 0, ("faith", "faith"))
    state = _ability_state([{"gain": "gold", "amount": 2, "per": "shield", "shield": "faith"}],
                           extra=[faith],
                           players=[{"name": "Ana",
                                     "tableau": [Placed(card="F", row=0, column=0)]},
                                    {"name": "Ben"}])
    # F's two faith and X's own one: 3 x 2 gold, less X's cost of 1
    assert _run(state, "buy X at 0,1").now.players[0].gold == 15 - 1 + 6


def test_neighbour_counts_and_opponents_gain() -> None:
    ability = [{"gain": "gold", "amount": 1, "per": "banner", "location": "castle",
                "from": "neighbour"}, {"opponents_gain": "keys", "amount": 1}]
    people = [{"name": "Ana"},
              {"name": "Ben", "tableau": [Placed(card="c05", row=0, column=0),
                                          Placed(card="c06", row=0, column=1)]},
              {"name": "Cem", "tableau": [Placed(card="c07", row=0, column=0, face_down=True)]}]
    state = _ability_state(ability, players=people)
    _refused(state, "buy X", "neighbour Ben' or 'neighbour Cem")
    after = _run(state, "buy X neighbour Ben")
    assert after.now.players[0].gold == 15 - 1 + 2  # Ben's two castle banners
    assert [p.keys for p in after.now.players] == [2, 3, 3]
    assert _run(state, "buy X neighbour Cem").now.players[0].gold == 14  # face down: nothing
    _refused(state, "buy X neighbour Ana", "not a neighbour")


def test_purse_gold_and_fill_purses() -> None:
    purse = {"score": {"points": 2, "per": "purse_gold", "capacity": 3}}
    state = _run(_ability_state([{"purse_gold": 2}], **purse), "buy X")
    assert state.now.players[0].purses == {"X": 2}  # the card itself is a purse
    big = card("BIG", "castle", 0, score={"points": 1, "per": "purse_gold", "capacity": 9})
    small = card("SMALL", "castle", 0, score={"points": 5, "per": "purse_gold", "capacity": 2})
    tableau = [Placed(card="BIG", row=0, column=0), Placed(card="SMALL", row=0, column=1)]
    people = [{"name": "Ana", "tableau": tableau, "purses": {"SMALL": 1}}, {"name": "Ben"}]
    state = _ability_state([{"fill_purses": 1}], extra=[big, small], players=people)
    # most points: BIG gains 9 x 1, SMALL 1 x 5 -> BIG is filled
    assert _run(state, "buy X at 1,0").now.players[0].purses == {"BIG": 9, "SMALL": 1}
    room = _ability_state([{"fill_purses": 1}], extra=[big, small], players=people)
    room = room.model_copy(update={"rules": ComboRules(fill_purses_order="most_room")})
    assert _run(room, "buy X at 1,0").now.players[0].purses == {"BIG": 9, "SMALL": 1}


def test_discard_from_row_and_choose() -> None:
    state = _ability_state([{"discard_from_row": "castle", "reward": "keys"}])
    _refused(state, "buy X", "discard ID")
    _refused(state, "buy X discard v00", "not in the castle row")
    after = _run(state, "buy X discard c01")
    assert after.now.players[0].keys == 2 + 2  # c01's printed cost
    assert "c01" in after.now.discard["castle"] and "c01" not in after.now.rows["castle"]
    assert None not in after.now.rows["castle"]  # refilled at the end of the turn
    choice = [{"choose": [[{"gain": "gold", "amount": 4}], [{"gain": "keys", "amount": 2}]]}]
    state = _ability_state(choice)
    _refused(state, "buy X", "choose 1; choose 2")
    _refused(state, "buy X choose 3", "2 options")
    _refused(state, "buy X choose 1 choose 2", "does not use: choose 2")
    assert _run(state, "buy X choose 2").now.players[0].keys == 4
    assert _run(state, "buy X choose 1").now.players[0].gold == 15 - 1 + 4


def test_legal_actions_are_legal_and_include_every_choice() -> None:
    state = _ability_state([{"choose": [[{"gain": "gold", "amount": 4}],
                                        [{"discard_from_row": "castle", "reward": "gold"}]]}])
    texts = {str(a) for a in legal_actions(state)}
    assert {"buy X at 0,0 choose 1", "buy X at 0,0 choose 2 discard c00", "flip X at 0,0",
            "key move", "key renew"} <= texts
    for action in legal_actions(state):
        apply(state, action)


def test_undo_and_a_refused_action_leave_the_state_as_it_was() -> None:
    d = deck(*BASE)
    state = _state(d, ["c00", "c01", "c02"], ["v00", "v01", "v02"])
    before = state.model_dump()
    _refused(state, "buy c00", "Messenger")
    assert state.model_dump() == before
    moved = _run(state, "key move")
    assert _run(moved, "undo").now == state.now  # a key move shows no card: undone
    with pytest.raises(IllegalAction, match="nothing to undo") as nothing:
        undo(state)
    assert nothing.value.code is Reason.NOTHING_TO_UNDO


def test_undo_never_goes_back_over_a_card_drawn_into_a_row() -> None:
    d = deck(*BASE)
    state = _state(d, ["c00", "c01", "c02"], ["v00", "v01", "v02"])
    took = _run(state, "key move", "buy c00")  # the castle row refilled: c03 seen by all
    assert drawn(rewind(took).now, took.now) == ["c03"]
    with pytest.raises(IllegalAction, match="drew c03 into a row") as crossing:
        undo(took)
    assert crossing.value.code is Reason.UNDO_CROSSES_DRAW
    renewed = _run(state, "key renew")  # three new cards at once
    with pytest.raises(IllegalAction) as renewing:
        undo(renewed)
    assert renewing.value.code is Reason.UNDO_CROSSES_DRAW
    # a take from a row with nothing left to draw shows nothing: it may be undone
    dry = _state(d, ["c00", "c01", "c02"], ["v00", "v01", "v02"], messenger="castle",
                 castle_deck=[])
    assert _run(_run(dry, "buy c00"), "undo").now == dry.now


def test_a_recorded_game_waits_for_reveals() -> None:
    d = load_deck()
    state = recorded_game(d, ["Ana", "Ben"], ["C01", "C02", "C03"], ["V01", "V02", "V03"],
                          "Ben")
    state = _run(state, "buy V01")
    assert state.now.player.name == "Ana" and pending_reveals(state.now) == {"village": 1}
    _refused(state, "buy V02 at 0,0", "reveal the new cards first")
    _refused(state, "reveal V02", "not in the village deck")
    _refused(state, "reveal C10", "no castle card is waiting")
    state = _run(state, "reveal V20", "buy V20")
    assert state.now.rows["village"] == [None, "V02", "V03"]
    assert replay_problem(state) is None
    assert _run(state, "undo").now.rows["village"] == ["V20", "V02", "V03"]


def test_messenger_target_reading() -> None:
    d = deck(*BASE, card("P", "village", 0, messenger="village"))
    state = _state(d, ["c00", "c01", "c02"], ["P", "v00", "v01"])
    assert _run(state, "buy P").now.messenger == "castle"  # other_row: always the other row
    printed = state.model_copy(update={"rules": ComboRules(messenger_target="printed")})
    assert _run(printed, "buy P").now.messenger == "village"  # the row the file names


def test_renewing_with_an_empty_deck_reshuffles_the_discarded_row() -> None:
    d = deck(*filler("c", "castle", 3), *filler("v", "village", 3))
    state = _state(d, ["c00", "c01", "c02"], ["v00", "v01", "v02"], village_deck=[])
    renewed = _run(state, "key renew")
    assert sorted(renewed.now.rows["village"]) == ["v00", "v01", "v02"]
    assert renewed.now.dead == [] and renewed.now.shuffles == 1


def test_a_deck_too_small_for_the_players_is_refused() -> None:
    # 9 cards each for 2 players, and up to 2 left in each of two dead rows: 23 are needed
    small = deck(*filler("c", "castle", 11), *filler("v", "village", 11))
    with pytest.raises(SpecError, match="too few for 2 players"):
        new_game(small, ["Ana", "Ben"], 0)
    enough = deck(*filler("c", "castle", 11), *filler("v", "village", 12))
    state = new_game(enough, ["Ana", "Ben"], 0)
    rng = random.Random(0)
    while not state.now.game_over:  # rows may die on the way, but the game ends
        state = apply(state, rng.choice(legal_actions(state)))


# --- every refusal carries its code -------------------------------------------------------------

def _code(state: GameState, text: str) -> Reason:
    with pytest.raises(IllegalAction) as refused:
        play(state, [text])
    return refused.value.code


def test_every_refusal_says_which_rule() -> None:
    d = deck(*BASE, card("RICH", "village", 7))
    state = _state(d, ["c00", "c01", "c02"], ["v00", "v01", "RICH"])
    poor = _state(d, ["c00", "c01", "c02"], ["v00", "v01", "RICH"],
                  players=[{"name": "Ana", "gold": 6}, {"name": "Ben"}])
    placed = _run(state, "buy v00")
    placed = _run(placed, "buy v01")  # Ben
    assert _code(state, "buy c00") is Reason.NOT_OFFERED_CARD
    assert _code(_run(state, "key move"), "key move") is Reason.KEY_USED
    assert _code(poor, "buy RICH") is Reason.TOO_EXPENSIVE
    assert _code(placed, "buy v02") is Reason.CELL_NEEDED
    assert _code(placed, "buy v02 at 5,5") is Reason.CELL_ILLEGAL
    no_keys = _state(d, ["c00", "c01", "c02"], ["v00", "v01", "v02"],
                     players=[{"name": "Ana", "keys": 0}, {"name": "Ben"}])
    assert _code(no_keys, "key renew") is Reason.NO_KEY
    assert _code(state, "reveal c03") is Reason.NOT_RECORDED
    assert _code(state, "undo") is Reason.NOTHING_TO_UNDO
    choice = _ability_state([{"choose": [[{"gain": "gold", "amount": 4}],
                                         [{"gain": "keys", "amount": 2}]]}])
    assert _code(choice, "buy X") is Reason.CHOICE_NEEDED
    assert _code(choice, "buy X choose 3") is Reason.CHOICE_NEEDED
    assert _code(choice, "buy X choose 1 choose 2") is Reason.UNUSED_OPTION
    discard = _ability_state([{"discard_from_row": "castle", "reward": "keys"}])
    assert _code(discard, "buy X") is Reason.DISCARD_NEEDED
    assert _code(discard, "buy X discard v00") is Reason.NOT_IN_ROW
    near = _ability_state([{"gain": "gold", "amount": 1, "per": "banner", "location": "castle",
                            "from": "neighbour"}],
                          players=[{"name": "Ana"}, {"name": "Ben"}, {"name": "Cem"}])
    assert _code(near, "buy X") is Reason.NEIGHBOUR_NEEDED
    assert _code(near, "buy X neighbour Ana") is Reason.NOT_NEIGHBOUR


def test_the_rows_and_the_record_refuse_with_their_codes() -> None:
    d = deck(*filler("c", "castle", 4), *filler("v", "village", 6))
    state = _state(d, ["c00", "c01", "c02"], ["v00", "v01", "v02"], castle_deck=["c03"],
                   messenger="castle")
    dead = _run(state, "buy c00", "buy c01")  # the castle row cannot be refilled: out
    assert "castle" in dead.now.dead
    assert _code(dead, "key move") is Reason.ROW_CLOSED
    recorded = recorded_game(load_deck(), ["Ana", "Ben"], ["C01", "C02", "C03"],
                             ["V01", "V02", "V03"], "Ana")
    waiting = _run(recorded, "buy V01")
    assert _code(waiting, "buy V02 at 0,0") is Reason.REVEAL_FIRST
    assert _code(waiting, "reveal C10") is Reason.NOT_WAITING
    finished = new_game(load_deck(), ["Ana", "Ben"], 3)
    rng = random.Random(3)
    while not finished.now.game_over:
        finished = apply(finished, rng.choice(legal_actions(finished)))
    assert _code(finished, "key move") is Reason.GAME_OVER


# --- what players type ------------------------------------------------------------------------

def test_card_ids_and_neighbours_are_matched_as_typed() -> None:
    ability = [{"gain": "gold", "amount": 1, "per": "banner", "location": "castle",
                "from": "neighbour"}]
    people = [{"name": "Ana"},
              {"name": "Ben", "tableau": [Placed(card="c05", row=0, column=0)]},
              {"name": "Cem"}]
    state = _ability_state(ability, players=people)
    after = _run(state, "buy x neighbour ben")  # X, Ben
    assert after.history[-1].action == "buy X at 0,0 neighbour Ben"
    assert after.now.players[0].gold == 15 - 1 + 1  # Ben's castle banner counted
    discard = _ability_state([{"discard_from_row": "castle", "reward": "keys"}])
    assert _run(discard, "buy X discard C01").history[-1].action == "buy X at 0,0 discard c01"
    recorded = recorded_game(load_deck(), ["Ana", "Ben"], ["C01", "C02", "C03"],
                             ["V01", "V02", "V03"], "Ana")
    assert _run(recorded, "buy v01", "reveal v30").now.rows["village"][0] == "V30"


def test_a_first_card_written_anywhere_lets_every_legal_cell_be_played() -> None:
    # positions are relative to the first card: 7,8 for it makes 7,9 and 8,8 legal, never
    # "too far out"
    state = new_game(load_deck(), ["Ana", "Ben"], 5, first="Ana")
    card = state.now.rows[state.now.messenger][0]
    state = _run(state, f"flip {card} at 7,8")
    rng = random.Random(1)
    while not state.now.game_over:
        for action in legal_actions(state):
            apply(state, action)  # every action offered is accepted
        state = apply(state, rng.choice(legal_actions(state)))
    ana = state.now.players[0]
    assert {(p.row, p.column) for p in ana.tableau} >= {(7, 8)} and ana.grid().full
    assert replay_problem(state) is None
