"""The plan's replay through the referee: the cautious plans' festivals, held with the rivals
who could come to them (`planner.turns.replay`)."""

from __future__ import annotations

from models.tower import STANDARD
from planner.tower import Status
from planner.turns.horizon import Goal, build_horizon
from planner.turns.replay import replay
from planner.turns.score.stages import points_now
from tests.planner.turns.game_states import BOARD, plan_roomy, played


def test_a_coming_rival_competes_at_the_festival_and_stays_where_he_stood() -> None:
    state = played(1, 2, 8)  # Anna's turn; the round's festival is Girona's (a 9 token)
    biel = state.player("Biel")
    assert state.turn.player == "Anna" and biel.pawn == "barcelona"
    plain = replay(state, BOARD, "Anna", [[]], STANDARD)
    came = replay(state, BOARD, "Anna", [[]], STANDARD, coming={(8, "Girona"): ("Biel",)})
    (alone,), (held,) = plain.outcomes, came.outcomes
    assert not any(entry.eligible for entry in alone.entries)
    entry = next(entry for entry in held.entries if entry.player == "Biel")
    assert entry.eligible and entry.prize == "trophy"
    after = came.state.player("Biel")
    assert after.pawn == "barcelona"  # held in a clone: the replay never moves a rival
    assert after.prizes.get("trophy", 0) == plain.state.player("Biel").prizes.get("trophy", 0) + 1
    assert "girona" in after.earned_regions
    assert came.state.player("Anna") == plain.state.player("Anna")


def test_a_cautious_score_plan_counts_the_rivals_who_could_come() -> None:
    state = played(1, 2, 4)  # Anna's turn: Biel could reach Reus's and Manresa's festivals
    horizon = build_horizon(state, BOARD, "Anna", 2, STANDARD, cautious=True)
    assert horizon.coming == {(4, "Reus"): ("Biel",), (5, "Manresa"): ("Biel",)}
    plan = plan_roomy(state, BOARD, "Anna", rules=STANDARD, turns=2, goal=Goal("score"),
                      cautious=True)
    assert plan.status is Status.OPTIMAL  # the model counts them as the replay does
    assert plan.objective == plan.model_objective == plan.bound
    assert plan.end is not None and plan.objective == points_now(plan.end, BOARD, "Anna")
    # the same turns with the rivals staying where they stand score more: the caution bites
    idle = replay(state, BOARD, "Anna", [list(turn.actions) for turn in plan.turns], STANDARD)
    assert points_now(idle.state, BOARD, "Anna") > plan.objective
