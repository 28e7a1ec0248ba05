"""What `castell plan` answers."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import PlainSerializer

from models.game import Action
from service.results.base import Output, TowerStatus, _Part
from service.results.game import FestivalSpace


class PlanTieBreak(_Part):
    name: str
    value: int | float | None
    proven: bool


def _action_json(action: Any) -> Any:
    return action.model_dump(mode="json", exclude_none=True)


# an action as the state file's history writes it (its unset options left out)
PlanAction = Annotated[Action, PlainSerializer(_action_json)]


class PlanStep(_Part):
    action: PlanAction
    where: str | None
    cost: str
    reason: str
    at_risk: str | None


class PlanTurn(_Part):
    round: int
    ends_in: str | None
    actions: list[PlanAction]
    steps: list[PlanStep]


class PlanFestival(_Part):
    round: int
    location: str
    region: str
    tower: str | None
    score: int | None
    rank: int | None
    prize: str | None
    reason: str | None


class PlanTarget(_Part):
    round: int
    location: str
    region: str
    tower: str | None


class UnknownRefill(_Part):
    round: int
    regions: list[str]


class UnfixedTurn(_Part):
    round: int
    actions: list[PlanAction]


class UnfixedPlan(_Part):
    status: TowerStatus
    objective: int | None
    turns: list[UnfixedTurn]


class PlanOutput(Output):
    """`castell plan --json`."""

    player: str
    goal: str
    status: TowerStatus
    objective: int | None
    bound: int | float | None
    tie_breaks: list[PlanTieBreak]
    horizon: int
    turns: list[PlanTurn]
    festivals: list[PlanFestival]
    next_festival: FestivalSpace | None
    target: PlanTarget | None
    why_not: list[str]
    fewest_turns: int | None
    assumptions: list[str]
    unknown_refills: list[UnknownRefill]
    stopped_by_clock: bool
    fixed: list[PlanAction] | None = None
    without_fix: UnfixedPlan | None = None
    difference: int | None = None
    wall_time_s: float
    interrupted: Literal[True] | None = None


# -- Castle Combo ------------------------------------------------------------------------------
