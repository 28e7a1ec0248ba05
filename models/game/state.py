"""The game state file (JSON): round, turn, wheel, regions, festivals and each player."""

from __future__ import annotations

import functools
import json
import pickle
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from models.errors import NotationError, SpecError
from models.files import parse_json, validate
from models.game.actions import Action
from models.game.board import FestivalType, Prize
from models.names import did_you_mean, names_problem, typed_match
from models.tower import STANDARD, Festival, Pool, Rules, Size, SkillRanks, rules_from_settings


def _pool_text(text: str) -> str:
    try:
        return str(Pool.parse(text))
    except NotationError as error:
        raise ValueError(str(error)) from None


# the largest seed and wheel rotation a state file holds: a seed is 0..2^63-1 (a tournament's
# deals are seeded up to 2^62; `--seed` itself is 0..2^31-1, CP-SAT's range), the wheel turns
# once a round, 0..2^31-1
MAX_STATE_SEED = 2**63 - 1
MAX_ROTATION = 2**31 - 1


class _Model(BaseModel):
    # strict: a state file's numbers are numbers ("round": true is not round 1, "1" not 1)
    model_config = ConfigDict(extra="forbid", validate_assignment=True, strict=True)


class PlayerState(_Model):
    """A player in a game: pawn, team, skill ranks, tokens, tiles, prizes."""
    name: Annotated[str, Field(min_length=1)]
    pawn: str | None = None
    pool: str = "none"
    skills: str = "none"
    special_tokens: Annotated[int, Field(ge=0)] = 0
    claimed_tiles: list[str] = []
    collected_tokens: Annotated[int, Field(ge=0)] = 0
    prizes: dict[Prize, Annotated[int, Field(ge=0)]] = {}
    size_tokens: list[Size] = []
    best_tower_score: Annotated[int, Field(ge=0)] = 0
    earned_regions: list[str] = []

    @field_validator("pool")
    @classmethod
    def _pool(cls, text: str) -> str:
        return _pool_text(text)

    @field_validator("skills")
    @classmethod
    def _skills(cls, text: str) -> str:
        try:
            return str(SkillRanks.parse(text))
        except NotationError as error:
            raise ValueError(str(error)) from None

    @property
    def team(self) -> Pool:
        """The player's castellers as a pool."""
        return Pool.parse(self.pool)

    @property
    def ranks(self) -> SkillRanks:
        """The player's skill ranks."""
        return SkillRanks.parse(self.skills)


class RegionState(_Model):
    """A region in a game: its castellers, local performance tiles and tokens."""
    castellers: str = "none"
    performance_tiles: list[str] = []
    special_tokens: Annotated[int, Field(ge=0)] = 0

    @field_validator("castellers")
    @classmethod
    def _pool(cls, text: str) -> str:
        return _pool_text(text)

    @property
    def supply(self) -> Pool:
        """The region's castellers as a pool."""
        return Pool.parse(self.castellers)


class Competitor(_Model):
    """One player's part in a festival that was held."""

    player: str
    tower: str | None = None  # None: did not compete (see `reason`)
    reason: str | None = None
    score: int | None = None
    rank: int | None = None
    prize: Prize | None = None


class SizeTokenWinner(_Model):
    """Who won a festival's size token (nobody on a tie)."""
    size: Size
    player: str | None  # None: nobody (a tie, or no competitor had one)


class FestivalResult(_Model):
    """What happened at a festival: who competed with which tower, prizes and size tokens."""

    competitors: list[Competitor]
    size_tokens: list[SizeTokenWinner]


class FestivalSpace(_Model):
    """A festival space of the calendar in a game, and its outcome once held."""
    round: Annotated[int, Field(ge=1)]
    location: str
    region: str
    type: FestivalType
    size_tokens: Annotated[list[Size], Field(min_length=1)]
    resolved: bool = False
    result: FestivalResult | None = None  # written when the festival is held

    @property
    def festival(self) -> Festival:
        """The festival's size tokens as a Festival."""
        return Festival(tuple(self.size_tokens))


class TurnState(_Model):
    """Whose turn it is and which of the turn's actions are spent."""

    player: str
    moved: bool = False
    recruited: bool = False
    trained: bool = False
    special: bool = False
    free_special: bool = False  # a special tile was trained: a token-free special action is due


class ActionEntry(_Model):
    """An action the player whose turn it was took (an `end_turn` that ended a round also
    resolved that round's festivals: their results are in the state's festival spaces)."""

    type: Literal["action"] = "action"
    player: str
    action: Action


class RefillEntry(_Model):
    """Castellers really drawn from the bag for a region at a refill (recorded deals)."""

    type: Literal["refill"] = "refill"
    region: str
    castellers: str


class TowerChoiceEntry(_Model):
    """The tower a player names for this round's festival (`none`: not competing); with a
    `location`, for that festival only (two festivals in one region, two towers)."""

    type: Literal["festival_tower"] = "festival_tower"
    player: str
    tower: str | None
    location: str | None = None


HistoryEntry = Annotated[ActionEntry | RefillEntry | TowerChoiceEntry,
                         Field(discriminator="type")]


class History(_Model):
    """How the game got here: the state it started from and every step recorded since, so
    that replaying `entries` from `start` gives the state again (and `undo` is a replay)."""

    start: GameState
    entries: list[HistoryEntry] = []


class Standing(_Model):
    """A player's final score (stored once the game is over)."""

    player: str
    best_tower: int
    region_variety: int
    prizes: int
    size_tokens: int
    local_performances: int
    total: int


class FinalScore(_Model):
    """The stored final score: each player's standing and the winners."""
    cards: list[Standing]
    winners: list[str]


class GameState(_Model):
    """A Castell game state file: board, players, regions, festivals, bag, turn, history."""
    board: str = "default"
    seed: Annotated[int, Field(ge=0, le=MAX_STATE_SEED)] = 0
    # "seeded": refills are drawn from the bag with the seed; "recorded": the real deal was
    # typed in, and each refill's real draw is recorded (see `refills_due`)
    deal: Literal["seeded", "recorded"] = "seeded"
    # the readings the game was started with (`Rules.settings()`); None = the standard rules
    rules: dict[str, Any] | None = None
    round: Annotated[int, Field(ge=1)] = 1
    turn_order: Annotated[list[str], Field(min_length=2, max_length=4)]
    turn: TurnState
    wheel_rotation: Annotated[int, Field(ge=0, le=MAX_ROTATION)] = 0
    wheel_side: Literal["standard", "advanced"] = "standard"
    regions: dict[str, RegionState]
    festivals: list[FestivalSpace] = []
    bag: str | None = None
    players: list[PlayerState]
    game_over: bool = False
    # castellers each region still has to draw from the bag at a refill (recorded deals)
    refills_due: dict[str, Annotated[int, Field(ge=1)]] = {}
    # towers players named for this round's festival (tower text, None = not competing)
    festival_towers: dict[str, str | None] = {}
    # towers named for one festival of this round only: festival location -> player -> tower
    # (two festivals in one region, two towers); they go before `festival_towers`
    festival_towers_at: dict[str, dict[str, str | None]] = {}
    final_score: FinalScore | None = None
    history: History | None = None
    # +1 on every write of the file (service.store): a writer that loaded an older revision
    # is refused, so two writers never lose a step
    revision: Annotated[int, Field(ge=0)] = 0

    @field_validator("players")
    @classmethod
    def _names(cls, players: list[PlayerState]) -> list[PlayerState]:
        # no reserved, control or bidi name, no two names only case apart (`models.names`)
        problem = names_problem([p.name for p in players])
        if problem:
            raise ValueError(problem)
        return players

    @field_validator("bag")
    @classmethod
    def _bag(cls, text: str | None) -> str | None:
        return None if text is None else _pool_text(text)

    @field_validator("rules")
    @classmethod
    def _rules(cls, settings: dict[str, Any] | None) -> dict[str, Any] | None:
        if settings is None:
            return None
        try:
            return rules_from_settings(settings).settings()
        except SpecError as error:
            raise ValueError(str(error)) from None

    @property
    def game_rules(self) -> Rules:
        """The readings this game is played with."""
        if self.rules is None:
            return STANDARD
        # read once per settings: the referee asks at every step of a replay
        return _rules_of(json.dumps(self.rules, sort_keys=True))

    def without_history(self) -> GameState:
        """This state with no history (what the referee and the planner work on)."""
        if self.history is None:
            return self
        copy = self.model_copy(update={"history": None})
        return copy

    def player(self, name: str) -> PlayerState:
        """The player called `name`: as stored, or as a player at the table types it (another
        case, spaces around it) when that names exactly one player."""
        found = typed_match([p.name for p in self.players], name)
        if found is not None:
            return self.players[found]
        names = [p.name for p in self.players]
        raise SpecError(f"no player '{name}' in this game (players: {', '.join(names)})"
                        f"{did_you_mean(names, name)}", token=name)

    @property
    def current(self) -> PlayerState:
        """The player whose turn it is."""
        return self.player(self.turn.player)

    def festivals_in(self, round_: int) -> list[FestivalSpace]:
        """The festival spaces of a round."""
        return [f for f in self.festivals if f.round == round_]

    def clone(self) -> GameState:
        """A deep copy (pickling is the fastest one pydantic models have)."""
        copy: GameState = pickle.loads(pickle.dumps(self))
        return copy

    def to_json(self) -> str:
        """The state file's JSON text."""
        # pydantic's own writer: the same text as `json.dumps(..., indent=2,
        # ensure_ascii=False)` of the JSON dump (a test compares them), four times faster
        return self.model_dump_json(indent=2) + "\n"


@functools.lru_cache(maxsize=64)
def _rules_of(settings: str) -> Rules:
    """The rules of a state file's settings (their JSON, keys sorted: one per settings)."""
    return rules_from_settings(json.loads(settings))


# `castell state show --json` prints the state with the JSON output's `schema_version` first;
# such a file is read as the state it shows (the key is the output's, no field of the state)
SHOWN_SCHEMA_VERSION = 1


def state_from_text(text: str, source: str = "state") -> GameState:
    """A game state from a state file's text (or `state show --json` output), checked."""
    data = parse_json(text, source)
    if isinstance(data, dict) and data.get("schema_version") == SHOWN_SCHEMA_VERSION:
        data = {key: value for key, value in data.items() if key != "schema_version"}
    return validate(GameState, data, source)


def state_from_dict(data: object, source: str = "state") -> GameState:
    """A game state from a parsed state file, checked."""
    return validate(GameState, data, source)


History.model_rebuild()
GameState.model_rebuild()
