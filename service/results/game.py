"""What the game commands answer: board, route, wheel, festival, score, rules, play, state."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from models.game import FestivalResult, FinalScore, GameState, Standing
from service.results.base import Output, _Part


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
    """`castell wheel --json` (only the game's rounds: none once the game is over)."""

    side: str
    rounds: list[WheelRound]
    skill: str | None
    where: list[WhereRound] | None
    game_over: bool = Field(False, description="The game is over: no round is left to show.")


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
    player: str | None = Field(description="Null: nobody (a tie, or no competitor had one).")


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


class PrizeItem(_Part):
    round: int
    location: str
    prize: str
    points: int


class TileItem(_Part):
    id: str
    points: int


class ScoreItems(_Part):
    """Where a player's points come from, category by category."""

    player: str
    best_tower: int = Field(description="The best festival tower score.")
    prizes: list[PrizeItem] = Field(description="Prizes won, by festival.")
    earned_regions: list[str] = Field(description="Region ids that count for variety.")
    size_tokens: list[int]
    tiles: list[TileItem] = Field(description="Local performance tiles claimed.")
    collected_tokens: int = Field(description="Special tokens collected with claims.")
    collected_token_points: int


class ScoreOutput(Output):
    """`castell score --json`."""

    players: list[Standing]  # a player's five categories and total, as the state stores them
    winners: list[str]
    game_over: bool
    round: int | None = Field(description="The current round while the game goes on.")
    items: list[ScoreItems] = Field(description="Each player's categories itemised.")


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


class PlayerChange(_Part):
    """What one step changed for one player (only the players it changed)."""

    player: str
    pawn: str | None = Field(None, description="The region id the pawn moved to.")
    recruited: list[int] = Field([], description="Castellers recruited, by size.")
    trained: list[str] = Field([], description="Skill ranks raised, as 'skill=rank'.")
    claimed: list[str] = Field([], description="Local performance tiles claimed.")
    special_tokens: int = Field(0, description="Change in special action tokens held.")
    collected_tokens: int = Field(0, description="Change in special tokens collected.")
    size_tokens: list[int] = Field([], description="Size tokens won.")
    best_tower_score: int = Field(0, description="Change in the best tower score.")


class PlayOutput(Output):
    """`castell play --json`: the step recorded and what changed."""

    applied: str
    step: str = Field(description="The step in the action notation ('undo' for an undo).")
    written: bool
    revision: int = Field(description="The game file's revision after the step (+1 on every "
                          "write).")
    round: int
    turn: str | None
    festivals: list[HeldFestival]
    drawn: dict[str, str] = Field(description="Region id -> castellers a refill drew.")
    refills_due: dict[str, int]
    changes: list[PlayerChange] = Field(description="Each player's gains from this step.")
    game_over: bool
    final_score: FinalScore | None


class RefusedOutput(Output):
    """`castell play --json` (and `combo play`) for a step that was refused: nothing was
    written."""

    refused: Literal[True]
    code: str = Field(description="The reason code (models.errors.Reason): e.g. "
                      "'not_adjacent', 'recruit_limit', 'wrong_player', 'stale_revision'.")
    reason: str = Field(description="The reason in words, as the CLI prints it.")


class StateShowOutput(GameState, Output):
    """`castell state show --json`: the state file's fields, with `schema_version`."""

    def to_json(self) -> str:
        return Output.to_json(self)  # one line, not the state file's indented form


class StateNewOutput(Output):
    """`castell state new --json`: the game started, and the state itself when it went to
    stdout (`--out -`)."""

    wrote: str | None = Field(description="The state file written; null for stdout.")
    players: list[str]
    seed: int | None = Field(description="The seed of a random deal; null for --deal.")
    deal: str | None
    rules: str
    state: GameState | None = Field(description="The new state, when not written to a file.")
