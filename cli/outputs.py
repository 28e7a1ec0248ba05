"""What each command prints with `--json`, as pydantic models: `castell schema COMMAND` prints
their JSON Schema, and the tests validate every command's real output against them.

`cli.edge.emit_json` puts `schema_version` first in every object. `plan` and the `combo`
commands build their JSON from these models (`emit_output`: a model, or a command's data read
through one, dumped); the others build it as they always did, and the tests validate it. Every
model forbids unknown fields, so a field a command adds without adding it here fails the tests
(or, for a command built from its model, the command): the schema cannot drift from the
output. The state and puzzle
files (`state new`, `puzzle generate`) are file formats read back by other commands: their
schema is the file's own model and they carry no `schema_version` (see SCHEMAS).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    TypeAdapter,
    WithJsonSchema,
)

from cli.edge import SCHEMA_VERSION
from models.combo import Card
from models.game import Action, FestivalResult, FinalScore, GameState, Standing
from models.puzzle import Puzzle

SchemaVersion = Annotated[Literal[1], Field(
    description="The version of this output's schema; raised when a field is renamed, removed "
    "or changes meaning (new fields keep it).")]
TowerStatus = Literal["optimal", "feasible", "infeasible", "unknown"]


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Output(_Part):
    """One object a command prints."""

    schema_version: SchemaVersion


class BatchError(Output):
    """A batch line that could not be answered (the other lines still are)."""

    line: int = Field(description="1-based line number in the batch input.")
    error: str


class SkillUses(_Part):
    balance: int
    base: int
    mix: int
    strength: int
    width: int


class Violation(_Part):
    rule: str = Field(description="The rule broken (R1..., or 'pool').")
    level: int | None = Field(description="1-based level, null for the whole tower.")
    message: str


class VerifyOutput(Output):
    """`castell verify --json`: is the tower valid, and how."""

    valid: bool
    tower: str
    height: int
    castellers: int
    uses: SkillUses | None = Field(description="Skill uses of one valid accounting; null if "
                                   "invalid.")
    violations: list[Violation]


class Suggestion(_Part):
    add_casteller: int | None = None
    add_rank: str | None = None


class BestOutput(Output):
    """`castell best --json`: the best tower, or why there is none."""

    status: TowerStatus
    tower: str | None
    levels: list[list[int]] | None = Field(description="Casteller sizes, bottom level first.")
    height: int | None
    castellers: int | None
    score: int | None = Field(description="The festival score (with --festival), else null.")
    uses: SkillUses | None
    bound: int | float | None = Field(description="The proven bound on the objective (the "
                                      "height for the tallest tower).")
    wall_time_s: float
    stopped_by_clock: bool = Field(description="The wall-clock safety net, not the "
                                   "deterministic budget, ended an unproven solve.")
    engine: str
    reasons: list[str] = Field(description="Why not, when there is no tower.")
    closest: str | None = Field(description="The closest tower, when there is none.")
    suggestions: list[Suggestion]
    interrupted: Literal[True] | None = Field(
        default=None, description="Present when Ctrl-C stopped the solve: the best so far.")


class CheckOutput(BestOutput):
    """`castell check --json`: can the tile be claimed, with a tower that meets it."""

    achievable: bool | None = Field(description="null when the time limit came first.")


class Region(_Part):
    id: str
    name: str
    x: float
    y: float
    neighbours: list[str]
    festival_towns: list[str]


class FestivalTown(_Part):
    name: str
    region: str
    type: str


class BoardOutput(Output):
    """`castell board --json`."""

    name: str
    provisional: list[str] = Field(description="Board sections not yet checked against the "
                                   "printed board.")
    regions: list[Region]
    borders: list[tuple[str, str]]
    dotted_links: list[tuple[str, str]]
    festival_locations: list[FestivalTown]


class RouteOutput(Output):
    """`castell route --json` (region ids)."""

    model_config = ConfigDict(populate_by_name=True)

    from_: str = Field(alias="from")
    to: str
    moves: int
    paths: list[list[str]]
    turns: int
    turns_with_special: int


class WheelRound(_Part):
    round: int
    slots: dict[str, str] = Field(description="Slot (region id or 'all') -> skill tile.")


class WhereRound(_Part):
    round: int
    regions: list[str]


class WheelOutput(Output):
    """`castell wheel --json`."""

    side: str
    rounds: list[WheelRound]
    skill: str | None
    where: list[WhereRound] | None


class FestivalEntry(_Part):
    player: str
    eligible: bool
    reason: str | None
    tower: str | None
    score: int | None
    rank: int | None
    prize: str | None


class SizeTokenWinner(_Part):
    size: int
    player: str


class FestivalOutcome(_Part):
    round: int
    location: str
    region: str
    type: str
    size_tokens: list[int]
    entries: list[FestivalEntry]
    size_token_winners: list[SizeTokenWinner]


class FestivalSpace(_Part):
    round: int
    location: str
    region: str
    size_tokens: list[int]


class FestivalOutput(Output):
    """`castell festival --json`: the festivals held at the end of the round."""

    round: int
    festivals: list[FestivalOutcome]
    next: FestivalSpace | None = Field(description="The next festival, when none is held now.")


class ScoreOutput(Output):
    """`castell score --json`."""

    players: list[Standing]  # a player's five categories and total, as the state stores them
    winners: list[str]
    game_over: bool
    round: int | None = Field(description="The current round while the game goes on.")


class Switch(_Part):
    switch: str
    values: list[str]
    default: str
    meaning: str


class RulesOutput(Output):
    """`castell rules --json`."""

    variants: dict[str, list[str]] = Field(description="Variant -> its switches that differ "
                                           "from standard, as 'switch=value'.")
    switches: list[Switch]


class HeldFestival(_Part):
    location: str
    region: str
    round: int
    size_tokens: list[int]
    result: FestivalResult | None


class PlayOutput(Output):
    """`castell play --json`: the step recorded and what changed."""

    applied: str
    written: bool
    round: int
    turn: str | None
    festivals: list[HeldFestival]
    drawn: dict[str, str] = Field(description="Region id -> castellers a refill drew.")
    refills_due: dict[str, int]
    game_over: bool
    final_score: FinalScore | None


class StateShowOutput(GameState, Output):
    """`castell state show --json`: the state file's fields, with `schema_version`."""


class StateNewOutput(Output):
    """`castell state new --json`: the game started, and the state itself when it went to
    stdout (`--out -`)."""

    wrote: str | None = Field(description="The state file written; null for stdout.")
    players: list[str]
    seed: int | None = Field(description="The seed of a random deal; null for --deal.")
    deal: str | None
    rules: str
    state: GameState | None = Field(description="The new state, when not written to a file.")


class PuzzleGenerateOutput(Output):
    """`castell puzzle generate --out FILE --json`: what was written."""

    wrote: str
    puzzles: int


class PuzzleFailure(_Part):
    id: str
    problems: list[str]
    second: str | None = Field(description="A second solution, if one was found.")


class PuzzleCheckOutput(Output):
    """`castell puzzle check --json`."""

    ok: bool
    checked: int
    failed: list[PuzzleFailure]


class PuzzleSolveOutput(Output):
    """`castell puzzle solve --json`: one line per puzzle (JSON Lines)."""

    id: str
    status: TowerStatus
    tower: str | None
    objective: int | None
    matches_recorded: bool


class PuzzleSheetOutput(Output):
    """`castell puzzle sheet --json`."""

    wrote: list[str]
    puzzles: int


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

# A card as the card file writes it (`Card.as_file`), read back by the card model. The card
# file's flat forms are read by the model's own converters, which a JSON Schema cannot say: the
# schema names the fields every card has, the model checks the rest.
FileCard = Annotated[Card, PlainSerializer(lambda card: card.as_file()), WithJsonSchema({
    "type": "object",
    "description": "One card in the card file's format (as `castell combo cards --cards "
                   "FILE` reads it): id, name, location, cost, shields, and as the card has "
                   "them messenger, discount, score, ability.",
    "required": ["id", "name", "location", "cost", "shields"],
    "properties": {"id": {"type": "string"}, "name": {"type": "string"},
                   "location": {"enum": ["castle", "village"]}, "cost": {"type": "integer"},
                   "shields": {"type": "array", "items": {"type": "string"}}},
})]


class ComboCardsOutput(Output):
    """`castell combo cards --json`: the deck's cards, as the card file writes them."""

    source: str = Field(description="'sample' or the card file read.")
    warnings: list[str]
    cards: list[FileCard]


class PurseStats(_Part):
    count: int
    capacities: list[int]
    rates: list[int]


class DeckStats(_Part):
    """A deck's statistics (per location: castle, village)."""

    cards: dict[str, int]
    shields: dict[str, dict[str, int]]
    shields_per_card: dict[str, int] = Field(description="Cards with 0, 1, 2 shields.")
    costs: dict[str, dict[str, int]] = Field(description="Per location: cards per cost.")
    messenger: dict[str, int]
    purses: PurseStats


class ComboStatsOutput(Output):
    """`castell combo cards --stats --json`: the deck's statistics against the real game's."""

    source: str
    deck: DeckStats
    published: DeckStats
    matches: dict[str, bool]
    all_match: bool


class ComboCardScore(_Part):
    cell: str
    id: str
    face_down: bool
    counted: int = Field(description="What the scroll counted (1/0 for a condition).")
    points: int
    scroll: str


class ComboScoreOutput(Output):
    """`castell combo score --json`: a tableau's exact end score."""

    total: int
    cards: list[ComboCardScore]
    keys: int
    purses: dict[str, int] = Field(description="Card id -> gold on it at the end.")
    purse_added: dict[str, int] = Field(description="Card id -> leftover gold put on it now.")
    gold_left: int


class ComboPlayer(_Part):
    name: str
    gold: int
    keys: int
    tableau: str
    cards: int
    purses: dict[str, int]
    discounts: dict[str, int]


class ComboHistoryEntry(_Part):
    player: str
    action: str


class ComboFinalScore(_Part):
    player: str
    total: int
    cards: list[ComboCardScore]
    keys: int
    purses: dict[str, int]
    purse_added: dict[str, int]
    gold_left: int


class ComboStateOutput(Output):
    """`castell combo show --json` and `combo play --json`: the game as it stands."""

    game_over: bool
    to_play: str | None
    key_used: bool
    messenger: str
    rows: dict[str, list[str | None]] = Field(description="Per location, the row's cards "
                                              "(null: a hole a recorded game must reveal).")
    dead_rows: list[str]
    pending_reveals: dict[str, int]
    players: list[ComboPlayer]
    history: list[ComboHistoryEntry]
    scores: list[ComboFinalScore] | None = Field(None, description="Once the game is over.")
    winners: list[str] | None = Field(None, description="Once the game is over.")


class ComboArrangeOutput(Output):
    """`castell combo arrange --json`: the best arrangement of nine cards."""

    status: TowerStatus
    total: int | None
    tableau: str | None
    bound: int | float | None
    wall_time_s: float
    purse_added: dict[str, int] | None = Field(None, description="With an arrangement.")
    gold_left: int | None = Field(None, description="With an arrangement.")


class ComboActionValue(_Part):
    action: str
    value: float | None = Field(description="Mean final score; null if never sampled.")
    stderr: float
    samples: int
    exact: bool
    reason: str | None


class ComboAdviceOutput(Output):
    """`castell combo advise --json`: the actions of the player to move, best first."""

    player: str
    last_turn: bool
    value: Literal["score", "margin"] = Field(
        description="What a sampled value is: the player's mean final score, or its mean "
                    "margin over the best opponent (exact last-turn values are the score).")
    complete: bool
    wall_time_s: float
    ranking: list[ComboActionValue]


class BotStats(_Part):
    games: int
    wins: float = Field(description="A shared win counts 1/k.")
    win_rate: float
    ci95: list[float]
    mean_score: float
    sd_score: float
    min_score: int
    max_score: int


class CardStats(_Part):
    bought: int
    bought_per_game: float
    mean_points: float | None
    owners_win_rate: float | None


class ComboTournamentOutput(Output):
    """`castell combo tournament --json`: bots against each other."""

    games: int
    bots: dict[str, BotStats]
    cards: dict[str, CardStats]


# Command -> what one line of its `--json` output is. A union: the line is one of them (a
# batch error line, or a puzzle of the stream).
SCHEMAS: dict[str, Any] = {
    "verify": VerifyOutput | BatchError,
    "best": BestOutput | BatchError,
    "check": CheckOutput | BatchError,
    "board": BoardOutput,
    "route": RouteOutput,
    "wheel": WheelOutput,
    "festival": FestivalOutput,
    "score": ScoreOutput,
    "plan": PlanOutput,
    "play": PlayOutput,
    "rules": RulesOutput,
    "state new": StateNewOutput,
    "state show": StateShowOutput,
    "puzzle generate": PuzzleGenerateOutput | Puzzle,
    "puzzle check": PuzzleCheckOutput,
    "puzzle solve": PuzzleSolveOutput,
    "puzzle sheet": PuzzleSheetOutput,
    "combo cards": ComboCardsOutput | ComboStatsOutput,
    "combo score": ComboScoreOutput,
    "combo show": ComboStateOutput,
    "combo play": ComboStateOutput,
    "combo arrange": ComboArrangeOutput,
    "combo advise": ComboAdviceOutput,
    "combo tournament": ComboTournamentOutput,
}


M = TypeVar("M", bound=Output)


def output_of(model: type[M], data: dict[str, Any]) -> M:
    """A command's data read through its output model (unknown fields refused)."""
    return model.model_validate({"schema_version": SCHEMA_VERSION, **data})


def adapter(command: str) -> TypeAdapter[Any]:
    return TypeAdapter(SCHEMAS[command])
