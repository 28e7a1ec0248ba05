"""The game state file (JSON): round, turn, wheel, regions, festivals and each player."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from models.errors import NotationError, SpecError
from models.files import load_json, validate
from models.game.board import Board, FestivalType, Prize
from models.game.consistency import state_problems
from models.tower import Festival, Pool, Size, SkillRanks


def _pool_text(text: str) -> str:
    try:
        return str(Pool.parse(text))
    except NotationError as error:
        raise ValueError(str(error)) from None


class _Model(BaseModel):
    # strict: a state file's numbers are numbers ("round": true is not round 1, "1" not 1)
    model_config = ConfigDict(extra="forbid", validate_assignment=True, strict=True)


class PlayerState(_Model):
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
        return Pool.parse(self.pool)

    @property
    def ranks(self) -> SkillRanks:
        return SkillRanks.parse(self.skills)


class RegionState(_Model):
    castellers: str = "none"
    performance_tiles: list[str] = []
    special_tokens: Annotated[int, Field(ge=0)] = 0

    @field_validator("castellers")
    @classmethod
    def _pool(cls, text: str) -> str:
        return _pool_text(text)

    @property
    def supply(self) -> Pool:
        return Pool.parse(self.castellers)


class FestivalSpace(_Model):
    round: Annotated[int, Field(ge=1)]
    location: str
    region: str
    type: FestivalType
    size_tokens: Annotated[list[Size], Field(min_length=1)]
    resolved: bool = False

    @property
    def festival(self) -> Festival:
        return Festival(tuple(self.size_tokens))


class TurnState(_Model):
    """Whose turn it is and which of the turn's actions are spent."""

    player: str
    moved: bool = False
    recruited: bool = False
    trained: bool = False
    special: bool = False
    free_special: bool = False  # a special tile was trained: a token-free special action is due


class GameState(_Model):
    board: str = "default"
    seed: int = 0
    round: Annotated[int, Field(ge=1)] = 1
    turn_order: Annotated[list[str], Field(min_length=2, max_length=4)]
    turn: TurnState
    wheel_rotation: int = 0
    wheel_side: Literal["standard", "advanced"] = "standard"
    regions: dict[str, RegionState]
    festivals: list[FestivalSpace] = []
    bag: str | None = None
    players: list[PlayerState]
    game_over: bool = False

    @field_validator("bag")
    @classmethod
    def _bag(cls, text: str | None) -> str | None:
        return None if text is None else _pool_text(text)

    def player(self, name: str) -> PlayerState:
        for player in self.players:
            if player.name == name:
                return player
        known = ", ".join(p.name for p in self.players)
        raise SpecError(f"no player '{name}' in this game (players: {known})", token=name)

    @property
    def current(self) -> PlayerState:
        return self.player(self.turn.player)

    def festivals_in(self, round_: int) -> list[FestivalSpace]:
        return [f for f in self.festivals if f.round == round_]

    def clone(self) -> GameState:
        """A deep copy (pickling is the fastest one pydantic models have)."""
        copy: GameState = pickle.loads(pickle.dumps(self))
        return copy

    def to_json(self) -> str:
        return json.dumps(self.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"


def check_against_board(state: GameState, board: Board) -> None:
    """Every region, tile and name in the state exists on the board and agrees."""
    known = set(board.region_ids)
    tiles = {t.id for t in board.performance_tiles}
    problems = []
    for extra in sorted(set(state.regions) - known):
        problems.append(f"regions.{extra}: not a region of this board")
    for missing in sorted(known - set(state.regions)):
        problems.append(f"regions: the board's region '{missing}' is missing")
    for region_id, region in state.regions.items():
        for tile in region.performance_tiles:
            if tile not in tiles:
                problems.append(f"regions.{region_id}.performance_tiles: unknown tile '{tile}'")
    names = [p.name for p in state.players]
    if sorted(names) != sorted(state.turn_order) or len(set(names)) != len(names):
        problems.append("turn_order: must name each player once")
    if state.turn.player not in names:
        problems.append(f"turn.player: no player '{state.turn.player}'")
    for index, player in enumerate(state.players):
        if player.pawn is not None and player.pawn not in known:
            problems.append(f"players.{index}.pawn: unknown region '{player.pawn}'")
        for tile in player.claimed_tiles:
            if tile not in tiles:
                problems.append(f"players.{index}.claimed_tiles: unknown tile '{tile}'")
        for region_id in player.earned_regions:
            if region_id not in known:
                problems.append(f"players.{index}.earned_regions: unknown region '{region_id}'")
    for index, space in enumerate(state.festivals):
        if space.region not in known:
            problems.append(f"festivals.{index}.region: unknown region '{space.region}'")
    if not problems:  # the whole state, once each name in it is known
        problems += state_problems(state, board)
    if problems:
        raise SpecError("state does not fit the board: " + "; ".join(problems))


def load_state(path: Path | str, board: Board | None = None) -> GameState:
    state = load_json(GameState, Path(path))
    if board is not None:
        check_against_board(state, board)
    return state


def state_from_dict(data: object, source: str = "state") -> GameState:
    return validate(GameState, data, source)
