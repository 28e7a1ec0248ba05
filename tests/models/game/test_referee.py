"""The referee: whole random games keep the game's invariants; illegal actions are refused with
a reason; claims and festivals change the state as the rules say (rules sections 3 to 5)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from models.game.actions import ACTION, Action, EndTurn, Move, Recruit, Special, Train
from models.game.board import load_board
from models.game.consistency import check_against_board
from models.game.contest import resolve_festival
from models.game.referee import IllegalAction, apply, end_round, end_turn, legal_actions
from models.game.scoring import score_player
from models.game.setup import casteller_census, new_game
from models.game.state import FestivalSpace, GameState, TurnState
from models.tower.festival import Festival
from models.tower.pool import Pool
from models.tower.rules import STANDARD, Rules
from models.tower.skills import SKILL_ORDER
from models.tower.tower import Tower
from planner.tower.finders import festival_tower, tile_tower

BOARD = load_board()


# --- whole random games -------------------------------------------------------------------------


def _pick(state: GameState, actions: list[Action], rng: random.Random) -> Action:
    """A random legal action, nudged towards claims and festivals so that games reach them."""
    claims = [a for a in actions if isinstance(a, Special) and a.kind == "claim"]
    if claims and rng.random() < 0.7:
        return rng.choice(claims)
    due = {f.region for f in state.festivals_in(state.round)}
    towards = [a for a in actions if isinstance(a, Move | Special) and getattr(a, "to", None)
               in due and state.current.pawn not in due]
    if towards and rng.random() < 0.6:
        return rng.choice(towards)
    others = [a for a in actions if not isinstance(a, EndTurn)]
    if EndTurn() in actions and (not others or rng.random() < 0.25):
        return EndTurn()
    return rng.choice(others)


def _tokens(state: GameState) -> int:
    return (sum(p.special_tokens + p.collected_tokens for p in state.players)
            + sum(r.special_tokens for r in state.regions.values()))


def _tiles(state: GameState) -> Counter[str]:
    return Counter([t for r in state.regions.values() for t in r.performance_tiles]
                   + [t for p in state.players for t in p.claimed_tiles])


def _check_step(old: GameState, new: GameState, census: Counter[int]) -> None:
    check_against_board(new, BOARD)
    assert casteller_census(new) == census
    assert _tokens(new) == _tokens(old)
    assert _tiles(new) == _tiles(old)
    for before, after in zip(old.players, new.players, strict=True):
        assert before.name == after.name
        for skill in SKILL_ORDER:
            assert after.ranks[skill] >= before.ranks[skill]
        assert after.special_tokens <= before.special_tokens
        assert after.best_tower_score >= before.best_tower_score
        assert after.collected_tokens >= before.collected_tokens
        # castellers are never spent: a team only grows
        assert not Counter(before.team.counts()) - Counter(after.team.counts())
        assert after.claimed_tiles[:len(before.claimed_tiles)] == before.claimed_tiles
        assert after.size_tokens[:len(before.size_tokens)] == before.size_tokens
        assert set(before.earned_regions) <= set(after.earned_regions)
        for prize, count in before.prizes.items():
            assert after.prizes.get(prize, 0) >= count


@settings(max_examples=20)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6),
       policy=st.integers(0, 2**32))
def test_random_games_keep_the_invariants(players: int, seed: int, policy: int) -> None:
    rng = random.Random(policy)
    state = new_game(BOARD, players, seed)
    census = casteller_census(state)
    assert census == Counter(BOARD.bag)
    rounds_ended = 0
    for _step in range(3000):
        if state.game_over:
            break
        # the claim finder is the slow part: use it on about half of the steps
        tiles = tile_tower if rng.random() < 0.5 else None
        actions = legal_actions(state, BOARD, STANDARD, tiles=tiles)
        assert actions
        if state.turn.free_special:
            assert all(isinstance(a, Special) for a in actions)
        action = _pick(state, actions, rng)
        snapshot = state.model_copy(deep=True)
        new = apply(state, BOARD, action, STANDARD, finder=festival_tower)
        assert state == snapshot  # the referee never changes the state it was given
        _check_step(state, new, census)
        if new.round != state.round:
            rounds_ended += 1
            assert new.round == state.round + 1
            assert new.wheel_rotation == state.wheel_rotation + 1
            assert all(f.resolved for f in new.festivals if f.round <= state.round)
            assert new.turn == TurnState(player=new.turn_order[0])
            assert new.game_over == (rounds_ended == BOARD.rounds)
        else:
            assert not new.game_over
        state = new
    assert state.game_over
    assert rounds_ended == BOARD.rounds == 10
    assert state.round == BOARD.rounds + 1
    assert all(f.resolved for f in state.festivals)
    assert legal_actions(state, BOARD, STANDARD) == []
    with pytest.raises(IllegalAction, match="over"):
        apply(state, BOARD, EndTurn(), STANDARD)


# --- hand-made positions ------------------------------------------------------------------------


def at(region: str | None, *, pool: str = "9x3,7x2,5", skills: str = "none", tokens: int = 7,
       players: int = 2) -> GameState:
    """A fresh game whose first player stands in `region` with the given team."""
    state = new_game(BOARD, players, seed=0)
    me = state.current
    me.pawn = region
    me.pool = pool
    me.skills = skills
    me.special_tokens = tokens
    return state


def refused(state: GameState, action: Action, reason: str, rules: Rules = STANDARD) -> str:
    with pytest.raises(IllegalAction) as caught:
        apply(state, BOARD, action, rules)
    message = str(caught.value)
    assert reason in message, f"{reason!r} not in {message!r}"
    return message


def test_the_first_move_goes_anywhere_then_only_to_neighbours() -> None:
    state = at(None)
    placed = apply(state, BOARD, Move(to="girona"), STANDARD)
    assert placed.current.pawn == "girona"
    assert placed.turn.moved
    # Lleida and Girona share no border (the twelve borders of the default board)
    refused(at("lleida"), Move(to="girona"), "Girona is not adjacent to Lleida")  # names
    refused(at("lleida"), Move(to="valencia"), "unknown region")
    refused(at("lleida"), Move(to="lleida"), "not adjacent")
    moved = apply(at("lleida"), BOARD, Move(to="terres-de-lebre"), STANDARD)
    assert moved.current.pawn == "terres-de-lebre"


def test_moving_twice_is_refused_but_a_special_move_is_not() -> None:
    state = apply(at(None), BOARD, Move(to="lleida"), STANDARD)
    refused(state, Move(to="comarques-centrals"), "already moved")
    again = apply(state, BOARD, Special(kind="move", to="comarques-centrals"), STANDARD)
    assert again.current.pawn == "comarques-centrals"
    assert again.current.special_tokens == 6


def test_recruiting_three_is_a_validation_error() -> None:
    with pytest.raises(ValidationError, match="sizes"):
        Recruit(sizes=[1, 2, 3])
    with pytest.raises(ValidationError, match="sizes"):
        ACTION.validate_python({"type": "recruit", "sizes": [9, 9, 9]})
    with pytest.raises(ValidationError):
        Recruit(sizes=[])
    with pytest.raises(ValidationError):
        Recruit(sizes=[11])


def test_recruiting_takes_from_the_region() -> None:
    state = at("lleida", pool="9x3,7x2,5")
    state.regions["lleida"].castellers = "9,7,4,2"
    new = apply(state, BOARD, Recruit(sizes=[9, 4]), STANDARD)
    assert new.regions["lleida"].supply == Pool.parse("7,2")
    assert new.current.team == Pool.parse("9x4,7x2,5,4")
    refused(new, Recruit(sizes=[7]), "already recruited")
    # a special recruit is one more, on top of the turn's recruit
    more = apply(new, BOARD, Special(kind="recruit", size=2), STANDARD)
    assert more.regions["lleida"].supply == Pool.parse("7")


def test_recruiting_a_size_the_region_lacks_is_refused() -> None:
    state = at("lleida")
    state.regions["lleida"].castellers = "9,7,4,2"
    refused(state, Recruit(sizes=[5]), "1 x size 5")
    refused(state, Recruit(sizes=[9, 9]), "1 x size 9")
    refused(state, Special(kind="recruit", size=10), "size 10")
    refused(at(None), Recruit(sizes=[5]), "move first")


def test_training_twice_is_refused() -> None:
    # rotation 0: Girona's slot faces base, the All Regions slot faces balance (board.toml)
    state = apply(at("girona"), BOARD, Train(skill="base"), STANDARD)
    assert state.current.ranks.base == 1
    refused(state, Train(skill="balance"), "already trained")


def test_training_what_the_wheel_does_not_offer_is_refused() -> None:
    refused(at("girona"), Train(skill="mix"), "does not offer mix")
    refused(at("girona"), Train(skill="special"), "does not offer special")
    refused(at("girona"), Train(skill="juggling"), "unknown skill")
    refused(at(None), Train(skill="balance"), "off the board")
    assert apply(at("girona"), BOARD, Train(skill="BALANCE"), STANDARD).current.ranks.balance == 1


def test_a_special_action_needs_a_token() -> None:
    state = at("lleida", tokens=0)
    refused(state, Special(kind="move", to="comarques-centrals"), "no special action token")
    refused(state, Special(kind="recruit", size=9), "no special action token")
    assert not [a for a in legal_actions(state, BOARD, STANDARD) if isinstance(a, Special)]


def test_a_second_special_action_in_one_turn_is_refused() -> None:
    state = at("lleida")
    state.regions["lleida"].castellers = "9,7,4,2"
    once = apply(state, BOARD, Special(kind="recruit", size=9), STANDARD)
    assert once.current.special_tokens == 6
    assert once.regions["lleida"].special_tokens == 1  # the token lies in the region's row
    refused(once, Special(kind="recruit", size=7), "already taken")
    refused(once, Special(kind="move", to="camp-de-tarragona"),
            "already taken")
    # the next turn (the next player's) has its own special action
    later = end_turn(once, BOARD, STANDARD)
    later = apply(later, BOARD, Move(to="lleida"), STANDARD)
    paid = apply(later, BOARD, Special(kind="recruit", size=7), STANDARD)
    assert paid.current.special_tokens == 6


def claim_position() -> GameState:
    state = at("lleida")
    region = state.regions["lleida"]
    region.performance_tiles = ["LP01", "LP17"]  # shape:3-2-1 and exhibition:4:balance
    region.special_tokens = 2
    return state


def test_claiming_with_a_tower_that_does_not_meet_the_tile_is_refused() -> None:
    state = claim_position()
    refused(state, Special(kind="claim", tile="LP01", tower="9,9,9/7,7"), "does not meet LP01")
    # the tower is valid and 3-2-1, but the team has no 10s
    refused(state, Special(kind="claim", tile="LP01", tower="10,10,10/7,7/5"),
            "does not meet LP01")
    # a 3-2-1 tower does not meet a 4-level balance exhibition
    refused(state, Special(kind="claim", tile="LP17", tower="9,9,9/7,7/5"), "does not meet LP17")
    refused(state, Special(kind="claim", tile="LP01", tower="9,9,9//5"), "claim tower")


def test_claiming_a_tile_not_in_the_regions_row_is_refused() -> None:
    state = claim_position()
    message = refused(state, Special(kind="claim", tile="LP02", tower="9,9/7,7/5"), "not in")
    assert "LP01" in message  # the row's tiles are shown
    state.regions["girona"].performance_tiles = ["LP02"]
    refused(state, Special(kind="claim", tile="LP02", tower="9,9/7,7/5"), "Lleida's row")


def test_a_valid_claim_moves_the_tile_and_collects_the_tokens() -> None:
    state = claim_position()
    new = apply(state, BOARD, Special(kind="claim", tile="LP01", tower="9,9,9/7,7/5"), STANDARD)
    me = new.current
    assert me.claimed_tiles == ["LP01"]
    assert new.regions["lleida"].performance_tiles == ["LP17"]
    assert me.special_tokens == 6
    # claim_collects_own_token (standard): the 2 lying there + the one spent on the claim
    assert me.collected_tokens == 3
    assert new.regions["lleida"].special_tokens == 0
    assert me.earned_regions == ["lleida"]
    assert me.team == state.current.team  # building spends no casteller
    assert new.turn.special
    # LP01 prints 3 points, + 3 collected tokens
    assert score_player(me, BOARD).local_performances == 6


def test_a_claim_without_collecting_the_own_token() -> None:
    rules = replace(STANDARD, claim_collects_own_token=False)
    new = apply(claim_position(), BOARD,
                Special(kind="claim", tile="LP01", tower="9,9,9/7,7/5"), rules)
    assert new.current.collected_tokens == 2
    assert new.regions["lleida"].special_tokens == 1  # the spent token stays in the row
    assert new.current.special_tokens == 6


def test_legal_actions_offer_the_claims_the_finder_can_meet() -> None:
    state = claim_position()
    claims = [a for a in legal_actions(state, BOARD, STANDARD, tiles=tile_tower)
              if isinstance(a, Special) and a.kind == "claim"]
    # 9x3,7x2,5 builds exactly 3-2-1; with no ranks, no 4-level balance tower
    assert [a.tile for a in claims] == ["LP01"]
    assert apply(state, BOARD, claims[0], STANDARD).current.claimed_tiles == ["LP01"]
    assert not [a for a in legal_actions(state, BOARD, STANDARD)
                if isinstance(a, Special) and a.kind == "claim"]  # no finder, no claims


def free_special_position() -> GameState:
    # rotation 0: Alt Pirineu's slot faces a special tile (board.toml)
    state = at("alt-pirineu-aran")
    state.regions["alt-pirineu-aran"].performance_tiles = ["LP01"]
    state.regions["alt-pirineu-aran"].special_tokens = 2
    state.regions["alt-pirineu-aran"].castellers = "8,6"
    new = apply(state, BOARD, Train(skill="special"), STANDARD)
    assert new.turn.free_special and new.turn.trained
    return new


def test_a_pending_free_special_comes_before_anything_else() -> None:
    state = free_special_position()
    reason = "free special action"
    refused(state, Move(to="lleida"), reason)
    refused(state, Recruit(sizes=[8]), reason)
    refused(state, Train(skill="balance"), reason)
    refused(state, EndTurn(), reason)
    with pytest.raises(IllegalAction, match=reason):
        end_turn(state, BOARD, STANDARD)
    actions = legal_actions(state, BOARD, STANDARD)
    assert actions and all(isinstance(a, Special) for a in actions)


def test_the_free_special_costs_no_token() -> None:
    state = free_special_position()
    moved = apply(state, BOARD, Special(kind="move", to="lleida"), STANDARD)
    assert moved.current.pawn == "lleida"
    assert moved.current.special_tokens == 7
    assert sum(r.special_tokens for r in moved.regions.values()) == 2  # none added
    assert not moved.turn.free_special
    assert not moved.turn.moved  # the turn's own Move is still there
    # free_special_is_extra (standard): the turn's own special action is still there too
    paid = apply(moved, BOARD, Special(kind="move", to="terres-de-lebre"), STANDARD)
    assert paid.current.special_tokens == 6


def test_a_free_claim_collects_the_row_without_spending() -> None:
    state = free_special_position()
    new = apply(state, BOARD, Special(kind="claim", tile="LP01", tower="9,9,9/7,7/5"), STANDARD)
    assert new.current.claimed_tiles == ["LP01"]
    assert new.current.collected_tokens == 2
    assert new.current.special_tokens == 7
    assert new.regions["alt-pirineu-aran"].special_tokens == 0


def test_a_free_special_that_replaces_the_turns_own() -> None:
    rules = replace(STANDARD, free_special_is_extra=False)
    state = free_special_position()
    moved = apply(state, BOARD, Special(kind="recruit", size=8), rules)
    refused(moved, Special(kind="recruit", size=6), "already taken", rules=rules)


# --- festivals through end_round ----------------------------------------------------------------


def festival_position(dani: str = "girona") -> GameState:
    """Round 3 of a 4-player game, one type I festival in Lleida with a size-7 token."""
    state = new_game(BOARD, 4, seed=0)
    state.round = 3
    state.wheel_rotation = 2
    state.festivals = [FestivalSpace(round=3, location="Lleida", region="lleida", type="I",
                                     size_tokens=[7])]
    anna, biel, carla, dani_ = state.players
    anna.pawn, anna.pool, anna.skills, anna.best_tower_score = (
        "lleida", "9x4,7x3,5x2,3", "width=1", 4)
    biel.pawn, biel.pool, biel.skills, biel.best_tower_score = (
        "lleida", "10x4,8x3,7x2,6", "width=1", 8)
    carla.pawn, carla.pool = "lleida", "5,3"
    dani_.pawn, dani_.pool, dani_.skills = dani, "9x4,7x3,5x2,3", "width=1"
    state.turn = TurnState(player="Dani")
    return state


def test_a_festival_resolved_at_the_end_of_the_round() -> None:
    state = festival_position()
    new = apply(state, BOARD, EndTurn(), STANDARD, finder=festival_tower)
    assert (new.round, new.wheel_rotation, new.turn.player) == (4, 3, "Anna")
    assert new.festivals[0].resolved
    anna, biel, carla, dani = new.players
    # Anna (width 1, 9x4,7x3,5x2,3): her only 4-level tower is 9x4/7x3/5x2/3, score 4 + three
    # 7s = 7. Biel: 10x4/8x3/7x2/6, score 4 + two 7s = 6. Carla cannot build 4 levels; Dani is
    # in Girona. Type I, 4 players: trophy, medal, ribbon.
    assert anna.best_tower_score == 7            # up from 4
    assert biel.best_tower_score == 8            # 6 is below his earlier best
    assert (carla.best_tower_score, dani.best_tower_score) == (0, 0)
    assert anna.prizes == {"trophy": 1}
    assert biel.prizes == {"medal": 1}
    assert carla.prizes == {} and dani.prizes == {}
    # the size-7 token: Anna's tower has three 7s, Biel's two
    assert anna.size_tokens == [7]
    assert biel.size_tokens == [] and carla.size_tokens == [] and dani.size_tokens == []
    assert anna.earned_regions == ["lleida"] and biel.earned_regions == ["lleida"]
    assert carla.earned_regions == [] and dani.earned_regions == []


def test_the_festival_outcome_says_who_competed_and_why_not() -> None:
    state = festival_position()
    outcome = resolve_festival(state, BOARD, state.festivals[0], STANDARD, festival_tower)
    anna, biel, carla, dani = (outcome.entry(n) for n in ("Anna", "Biel", "Carla", "Dani"))
    assert (anna.score, anna.rank, anna.prize) == (7, 1, "trophy")
    assert (biel.score, biel.rank, biel.prize) == (6, 2, "medal")
    assert anna.tower is not None and Festival((7,)).eligible(anna.tower)
    assert not carla.eligible and carla.reason and "no valid tower" in carla.reason
    assert not dani.eligible and dani.reason and "girona" in dani.reason
    assert outcome.size_tokens == ((7, "Anna"),)


def test_a_player_may_choose_the_festival_tower_or_not_compete() -> None:
    state = festival_position()
    space = state.festivals[0]
    # Anna (who would win) declines; Biel names his tower: he takes rank 1 and the token
    chosen = {(space.location, "Biel"): Tower.parse("10x4/8x3/7x2/6"),
              (space.location, "Anna"): None}
    outcome = resolve_festival(state, BOARD, space, STANDARD, festival_tower, chosen)
    anna, biel = outcome.entry("Anna"), outcome.entry("Biel")
    assert not anna.eligible and anna.reason == "chose not to compete"
    assert (str(biel.tower), biel.score, biel.rank, biel.prize) == (
        "10,10,10,10/8,8,8/7,7/6", 6, 1, "trophy")
    assert outcome.size_tokens == ((7, "Biel"),)
    with pytest.raises(ValueError, match="cannot compete"):
        resolve_festival(state, BOARD, space, STANDARD, festival_tower,
                         {(space.location, "Biel"): Tower.parse("10x4/8x3/7/6")})


def test_festival_ties_share_the_prize_and_nobody_takes_a_tied_token() -> None:
    state = festival_position(dani="lleida")
    new = apply(state, BOARD, EndTurn(), STANDARD, finder=festival_tower)
    anna, biel, _carla, dani = new.players
    # Anna and Dani both score 7 and share rank 1; Biel is third (rank 2 is skipped)
    assert anna.prizes == {"trophy": 1} and dani.prizes == {"trophy": 1}
    assert biel.prizes == {"ribbon": 1}
    # three 7s each: the token is tied, and goes to nobody under the standard rules
    assert anna.size_tokens == [] and dani.size_tokens == []


def test_festival_ties_by_turn_order() -> None:
    rules = replace(STANDARD, prize_ties="turn-order", size_token_ties="turn-order")
    state = festival_position(dani="lleida")
    new = end_round(state, BOARD, rules, festival_tower)
    anna, biel, _carla, dani = new.players
    assert anna.prizes == {"trophy": 1}
    assert dani.prizes == {"medal": 1}
    assert biel.prizes == {"ribbon": 1}
    assert anna.size_tokens == [7] and dani.size_tokens == []


def test_a_due_festival_needs_a_finder() -> None:
    with pytest.raises(ValueError, match="finder"):
        end_round(festival_position(), BOARD, STANDARD)
