"""What `castell plan` answers."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, PlainSerializer

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
    # a move: the region its reason says it serves (the pawn ends in it or nearer to it)
    serves: str | None = None


class PlanTurn(_Part):
    round: int
    ends_in: str | None
    actions: list[PlanAction]
    steps: list[PlanStep]


# why the player does not compete (given only then): their pawn stands elsewhere (`pawn`:
# where; null off the board), they chose not to, or no tower of their team can compete there
NotCompeting = Literal["away", "declined", "no_tower"]


class PlanFestival(_Part):
    round: int
    location: str
    region: str
    tower: str | None
    score: int | None
    rank: int | None
    prize: str | None
    reason: str | None
    not_competing: NotCompeting | None = None
    pawn: str | None = None


class PlanTarget(_Part):
    round: int
    location: str
    region: str
    tower: str | None


# why a festival ahead is out of reach: the pawn cannot stand in its region in time; no team
# the player could have by then builds a tower that can compete there; the plan through it
# proved it reaches no festival tower (the first two are bounds, before any plan)
OutOfReach = Literal["too_far", "no_tower", "plan_proves_none"]


class FestivalAhead(_Part):
    round: int
    location: str
    region: str
    turns: int  # the player's turns through it
    out_of_reach: OutOfReach | None = None  # None: the player could compete there


class ForecastRival(_Part):
    """An opponent who could stand in the festival's region in time (their special tokens and
    a special tile's free move counted)."""
    player: str
    stands_there: bool  # now (the plan's own ranking counts them already)
    score_with_team_now: int | None  # their best tower with their team now (None: none)
    # no tower of theirs scores more, with what they could recruit and train on the way
    score_at_most: int | None


class ForecastPlacing(_Part):
    rank: int
    prize: str | None


class PlanChances(_Part):
    """The player's estimated chances from where they asked: estimated by a model fitted on
    whole games of the default advice against a panel of rival styles."""
    win: float = Field(ge=0, le=1, description="The chance to win (a shared win counts).")
    margin: float = Field(description="The expected final margin to the best rival, points.")
    games: int = Field(ge=0, description="The games the estimate was fitted on.")

    def words(self) -> str:
        """The chances in a player's words, with what they rest on (the terminal's and the
        table page's one wording)."""
        margin = round(self.margin)
        ahead = ("level with the best rival" if margin == 0 else
                 f"{abs(margin)} point{'s' if abs(margin) != 1 else ''} "
                 f"{'ahead of' if margin > 0 else 'behind'} the best rival")
        return (f"chance to win from here: about {round(self.win * 100)}%; expected to end "
                f"{ahead} (estimated from {self.games} games against several kinds of "
                f"player)")


class PlanFirstTurn(_Part):
    """A first turn the default advice weighed: each rival answers it with the greedy bot's
    turn, then the player's turns are planned from there."""
    turn: str = Field(description="Whose first turn, in words: the cautious plan's or the "
                      "greedy bot's.")
    source: Literal["plan", "greedy"] = Field(description="Whose first turn, as a code: "
                                              "\"plan\" (the cautious plan's) or \"greedy\" "
                                              "(the greedy bot's).")
    points: float = Field(description="The player's points at the end of the plan from where "
                          "the rivals' answers leave the game.")
    best_rival: float = Field(description="The best rival's points after their answers.")
    margin: float = Field(description="points less best_rival: how far ahead the player ends "
                          "with this first turn.")
    chosen: bool = Field(description="The first turn advised (the plan shown starts with it).")


class PlanForecast(_Part):
    """A festival the plan competes in, against the opponents who could be there."""
    round: int
    location: str
    region: str
    score: int
    rivals: list[ForecastRival]
    with_teams_now: ForecastPlacing  # if the rivals came with their teams now
    at_worst: ForecastPlacing  # if each scored their bound
    size_tokens: list[ForecastToken] | None = None  # each of the festival's size tokens


class ForecastToken(_Part):
    """A size token of the festival: the castellers of its size in the planned tower, and
    whether the player takes it against the rivals' teams now and against the most of that
    size any tower of theirs could hold by then."""
    size: int
    yours: int
    with_teams_now: bool
    at_worst: bool


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


def _goals_schema(schema: dict[str, Any]) -> None:
    """The goal's schema names the registered goals (`planner.turns.GOALS`), read when the
    schema is made: the result models load no solver."""
    from planner.turns import GOALS  # deferred: only the schema needs the planner

    written = [f"{name} TILE_ID" if goal.takes_tile else name for name, goal in GOALS.items()]
    schema["description"] = f"the goal asked: {', '.join(written)}"


class PlanOutput(Output):
    """`castell plan --json`."""

    player: str
    goal: str = Field(json_schema_extra=_goals_schema)
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
    # a what-if under other readings than the game's (`--what-if-rules`): those readings
    what_if_rules: str | None = None
    # the festivals ahead of the plan's start: which the player could compete in, why not
    festivals_ahead: list[FestivalAhead] | None = None
    # the default horizon: the festival within reach it had no time left to plan through
    not_tried: FestivalSpace | None = None
    # the opponents who could reach each festival the plan competes in
    forecast: list[PlanForecast] | None = None
    # the default advice's chances (once its model is fitted on enough games)
    chances: PlanChances | None = None
    # the default advice's first turns weighed against the rivals' answers, the advised first
    first_turns: list[PlanFirstTurn] | None = None
    wall_time_s: float
    interrupted: Literal[True] | None = None

    # what an interface shows or exits with, read from the fields above (not in the JSON)

    @property
    def goal_kind(self) -> str:
        """The goal's name (a registered goal's: `planner.turns.GOALS`)."""
        return self.goal.split(" ", 1)[0]

    @property
    def goal_tile(self) -> str | None:
        """The tile the goal names, for a goal that takes one."""
        _, _, tile = self.goal.partition(" ")
        return tile or None

    @property
    def found(self) -> bool:
        """A plan was found (proven best or not)."""
        return self.status in ("optimal", "feasible")


# -- Castle Combo ------------------------------------------------------------------------------
