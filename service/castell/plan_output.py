"""A turn plan as its result model (`service.results.plan.PlanOutput`): what `castell plan
--json` prints and what an interface renders."""

from __future__ import annotations

from typing import Any

from models.game import FestivalSpace, Move, Special
from planner.turns import Ahead, Forecast, PlannedFestival, PlannedTurn, PlanResult, Step
from service.results import SCHEMA_VERSION
from service.results import plan as out
from service.results.game import FestivalSpace as OutFestivalSpace


def plan_output(result: PlanResult, *, interrupted: bool = False,
                what_if_rules: str | None = None) -> out.PlanOutput:
    """`result` (`planner.turns.plan`'s) as its output model; `interrupted`: a cancel stopped
    the solve (the plan is the best found so far); `what_if_rules`: the readings a what-if
    planned under."""
    plan = result.plan
    # the optional fields are given only when they hold (the JSON leaves them out otherwise)
    extra: dict[str, Any] = {}
    if result.fixed:
        other = result.unfixed
        extra = {"fixed": list(result.fixed),
                 "without_fix": None if other is None else out.UnfixedPlan(
                     status=other.status.value, objective=other.objective,
                     turns=[out.UnfixedTurn(round=t.round, actions=list(t.actions))
                            for t in other.turns]),
                 "difference": _difference(result)}
    if what_if_rules is not None:
        extra["what_if_rules"] = what_if_rules
    extra["festivals_ahead"] = [_ahead(a) for a in result.ahead]
    if result.untried is not None:
        extra["not_tried"] = _space(result.untried)
    if result.forecasts:
        extra["forecast"] = [_forecast(f) for f in result.forecasts]
    if result.chances is not None:
        chances = result.chances
        extra["chances"] = out.PlanChances(win=round(chances.win, 3),
                                           margin=round(chances.margin, 1), games=chances.games)
    if result.weighed:
        extra["first_turns"] = [out.PlanFirstTurn(
            turn=w.name, source=w.source, points=round(w.answered.mine, 1),
            best_rival=round(w.answered.rivals, 1), margin=round(w.answered.margin, 1),
            chosen=w.chosen) for w in result.weighed]
    stop: dict[str, Any] = {"interrupted": True} if interrupted else {}
    return out.PlanOutput(
        schema_version=SCHEMA_VERSION,
        player=plan.player,
        goal=str(result.goal),
        status=plan.status.value,
        objective=plan.objective,
        bound=_number(plan.bound),
        tie_breaks=[out.PlanTieBreak(name=t.name, value=t.value, proven=t.proven)
                    for t in plan.tie_breaks],
        horizon=plan.horizon,
        turns=[_turn(t, steps) for t, steps in
               zip(plan.turns, plan.steps or [()] * len(plan.turns), strict=True)],
        festivals=[_festival(f) for f in plan.festivals],
        # the next festival the player could compete in (its token sizes are in sight)
        next_festival=_space(result.next_festival),
        target=None if plan.target is None else out.PlanTarget(
            round=plan.target.round, location=plan.target.location,
            region=plan.target.region,
            tower=str(plan.target.tower) if plan.target.tower else None),
        why_not=list(plan.why_not),
        fewest_turns=plan.fewest_turns,
        assumptions=list(result.assumptions),
        # refills the plan does not see: those regions' new castellers are not counted on
        unknown_refills=[out.UnknownRefill(round=r.round, regions=list(r.regions))
                         for r in plan.refills],
        # true: the wall clock (--time-limit), not the deterministic budget, stopped the
        # search, so the same command may answer differently
        stopped_by_clock=result.clock_hit,
        **extra,
        wall_time_s=round(result.wall_time_s, 3),
        **stop,
    )


def _festival(festival: PlannedFestival) -> out.PlanFestival:
    entry = festival.entry
    # why not competing, as a code (and where the pawn stood): only when not competing
    absent: dict[str, Any] = {} if festival.absent is None else {
        "not_competing": festival.absent,
        **({"pawn": festival.pawn} if festival.absent == "away" else {})}
    return out.PlanFestival(
        round=festival.round, location=festival.location, region=festival.region,
        tower=str(entry.tower) if entry.tower else None, score=entry.score,
        rank=entry.rank, prize=entry.prize, reason=entry.reason, **absent)


def _ahead(ahead: Ahead) -> out.FestivalAhead:
    space = ahead.space
    return out.FestivalAhead(round=space.round, location=space.location, region=space.region,
                             turns=ahead.turns, out_of_reach=ahead.out_of_reach)


def _forecast(forecast: Forecast) -> out.PlanForecast:
    return out.PlanForecast(
        round=forecast.round, location=forecast.location, region=forecast.region,
        score=forecast.score,
        rivals=[out.ForecastRival(player=r.name, stands_there=r.there,
                                  score_with_team_now=r.score_now, score_at_most=r.score_bound)
                for r in forecast.rivals],
        with_teams_now=out.ForecastPlacing(rank=forecast.with_teams_now.rank,
                                           prize=forecast.with_teams_now.prize),
        at_worst=out.ForecastPlacing(rank=forecast.at_worst.rank,
                                     prize=forecast.at_worst.prize),
        size_tokens=[out.ForecastToken(size=k.size, yours=k.mine,
                                       with_teams_now=k.with_teams_now, at_worst=k.at_worst)
                     for k in forecast.size_tokens] or None)


def _space(space: FestivalSpace | None) -> OutFestivalSpace | None:
    if space is None:
        return None
    return OutFestivalSpace(round=space.round, location=space.location, region=space.region,
                            size_tokens=list(space.size_tokens))


def _turn(turn: PlannedTurn, steps: tuple[Step, ...]) -> out.PlanTurn:
    return out.PlanTurn(
        round=turn.round, ends_in=_ends_in(steps), actions=list(turn.actions),
        steps=[out.PlanStep(action=s.action, where=s.where or None, cost=s.cost,
                            reason=s.reason, at_risk=s.at_risk,
                            **({"serves": s.serves} if s.serves else {})) for s in steps])


def _ends_in(steps: tuple[Step, ...]) -> str | None:
    moves = [s.where for s in steps if isinstance(s.action, Move)
             or (isinstance(s.action, Special) and s.action.kind == "move")]
    if moves:
        return moves[-1]
    return next((s.where for s in steps if s.where), None)


def _difference(result: PlanResult) -> int | None:
    """The fixed plan's value less the free plan's (for a tile goal: rounds later, so
    positive is worse there)."""
    other, objective = result.unfixed, result.plan.objective
    if other is None or objective is None or other.objective is None:
        return None
    return objective - other.objective


def _number(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value
