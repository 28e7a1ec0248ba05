"""The opponents in the festival forecast (`planner.turns.forecast`), on a hand-built state where
a rival reaches the festival; the expected values are the tower solver's and the referee's."""

from __future__ import annotations

from pathlib import Path

from models.game import GameState, load_state, resolve_festival
from models.tower import STANDARD
from planner.tower import FestivalTower, Status, solve
from planner.turns.replay import cached_finder
from tests.planner.turns.game_states import BOARD, ahead_roomy

ROUND3 = Path(__file__).parents[3] / "examples" / "game" / "round3.json"
GIRONA = "girona"  # the round-4 festival's region here, two moves from Camp de Tarragona
STRONG = "10x3,9x3,8x3,7x3,6x3,5x3,4x4,3x3,2x2,1x2"
SKILLED = "base=4,width=4,balance=4,strength=4,mix=4"


def _state() -> GameState:
    """Round 3 of the README's game, Carla to move, its round-4 festival moved to Girona: Biel
    (in Camp de Tarragona, a Move and a special move away, with tokens) holds a strong team;
    Anna, three moves away with no token, cannot get there in her one turn left (one Move and
    at most a special tile's free move)."""
    state = load_state(ROUND3, BOARD).without_history()
    far = "terres-de-lebre"
    assert BOARD.graph.distance(far, GIRONA) == 3
    festivals = [f.model_copy(update={"location": "Girona", "region": GIRONA})
                 if f.round == 4 else f for f in state.festivals]
    players = []
    for p in state.players:
        if p.name == "Biel":
            p = p.model_copy(update={"pool": STRONG, "skills": SKILLED})
        if p.name == "Anna":
            p = p.model_copy(update={"pawn": far, "special_tokens": 0})
        players.append(p)
    return state.model_copy(update={"players": players, "festivals": festivals})


def test_a_rival_who_can_reach_the_festival_is_counted_and_ranked() -> None:
    state = _state()
    found = ahead_roomy(state, BOARD, "Carla", rules=STANDARD, turns=2, time_limit=20)
    plan = found.plan
    forecast = next(f for f in found.forecasts if f.region == GIRONA)
    assert [r.name for r in forecast.rivals] == ["Biel"]  # Anna cannot get there in time
    biel = forecast.rivals[0]
    space = next(f for f in state.festivals if f.region == GIRONA and f.round == 4)
    me = state.player("Biel")
    best = solve(FestivalTower(space.festival), me.team, me.ranks, STANDARD)
    assert best.status is Status.OPTIMAL and best.tower is not None
    assert biel.score_now == space.festival.score(best.tower)
    assert biel.score_bound is not None and biel.score_bound >= biel.score_now
    assert not biel.there
    # the referee ranks Carla's planned tower against Biel's tower now, both standing there
    entry = next(f for f in plan.festivals if f.region == GIRONA).entry
    assert entry.tower is not None and entry.score == forecast.score
    assert plan.end is not None
    carla = plan.end.player("Carla")
    held = state.model_copy(update={"players": [
        p.model_copy(update={"pawn": GIRONA, "pool": carla.pool, "skills": carla.skills})
        if p.name == "Carla" else p.model_copy(update={"pawn": GIRONA}) if p.name == "Biel"
        else p for p in state.players]})
    outcome = resolve_festival(held, BOARD, space, STANDARD, cached_finder(),
                               {(space.location, "Carla"): entry.tower})
    referee = outcome.entry("Carla")
    assert (forecast.with_teams_now.rank, forecast.with_teams_now.prize) == \
        (referee.rank, referee.prize)
    assert biel.score_now > forecast.score  # the rival takes the better prize
    assert forecast.with_teams_now.rank == 2
    # at worst no better than with their teams now
    assert forecast.at_worst.rank >= forecast.with_teams_now.rank
    # the size tokens as the referee gives them out against Biel's tower now
    assert [k.size for k in forecast.size_tokens] == list(space.size_tokens)
    assert [k.with_teams_now for k in forecast.size_tokens] == [
        winner == "Carla" for _, winner in outcome.size_tokens]
    assert [k.mine for k in forecast.size_tokens] == [
        entry.tower.size_counts()[size] for size in space.size_tokens]
    assert biel.tokens_now is not None and biel.tokens_most is not None
    assert all(most >= now for most, now in zip(biel.tokens_most, biel.tokens_now, strict=True))
    assert all(k.with_teams_now or not k.at_worst for k in forecast.size_tokens)
