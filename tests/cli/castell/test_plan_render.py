"""`castell plan`'s verdict in a player's words: "the best possible for these turns" only when
the plan is proven and no clock decided anything; the tie-breaks as what it prefers among plans
as good, each with this plan's value."""

from __future__ import annotations

import pytest

from cli.castell.plan_render import _preferred, _verdict
from service.results.plan import PlanOutput, PlanTieBreak


def _output(goal: str = "score", status: str = "optimal", bound: float | None = 24,
            clock: bool = False) -> PlanOutput:
    return PlanOutput.model_construct(
        goal=goal, status=status, objective=24, bound=bound, stopped_by_clock=clock,
        fewest_turns=None,
        tie_breaks=[PlanTieBreak(name="special tokens spent", value=1, proven=False),
                    PlanTieBreak(name="castellers in the team", value=11, proven=True)])


def test_a_proven_plan_is_the_best_possible_and_says_what_proven_means() -> None:
    text = _verdict(_output())
    assert "the best possible for these turns" in text
    assert "no other plan of these turns ends with more points" in text
    assert "optimal" not in text


def test_the_win_goals_proof_is_for_its_chosen_first_turn() -> None:
    assert "starts with this first turn" in _verdict(_output(goal="win"))


@pytest.mark.parametrize(("output", "words"), [
    (_output(clock=True), "proven only for the search the clock left"),
    (_output(status="feasible", bound=30), "not proven the best"),
    (_output(status="feasible", bound=None), "not proven the best")],
    ids=["clock", "bounded", "unbounded"])
def test_no_best_possible_when_unproven_or_the_clock_decided(output: PlanOutput,
                                                            words: str) -> None:
    text = _verdict(output)
    assert "best possible" not in text
    assert words in text


def test_an_unproven_plans_bound_in_points() -> None:
    assert "at most 6 points more than this plan" in _verdict(_output("score", "feasible", 30))


def test_the_tie_breaks_say_what_is_preferred_in_order() -> None:
    text = _verdict(_output())
    assert ("among plans as good, it prefers fewer special tokens spent (this plan: 1, not "
            "proven), then more castellers in the team (this plan: 11)") in text


@pytest.mark.parametrize(("name", "said"), [
    ("special tokens spent", "fewer special tokens spent"),
    ("tallest valid tower at the end", "a taller valid tower at the end"),
    ("local performance points", "more local performance points"),
    ("castellers of size 7, 6 (round 5 festival)", "more castellers of size 7, 6 (round 5 "
     "festival)")])
def test_each_tie_break_by_what_it_prefers(name: str, said: str) -> None:
    assert _preferred(name) == said
