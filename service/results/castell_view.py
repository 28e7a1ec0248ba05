"""Castell's one view of a game: what every edge shows of a position (the table page draws
from it; `castell state show --view --json` prints it)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from models.game import Competitor, SizeTokenWinner
from service.results.base import Output, _Part


class TileView(_Part):
    id: str
    tile: str = Field(description="The tile in the notation (shape:..., exhibition:...).")
    asks: str = Field(description="What the tile asks, in words.")
    points: int
    shape: list[int] | None = Field(default=None, description=(
        "A shape tile's castellers a level, bottom up (null: another kind of tile)."))


class RegionView(_Part):
    id: str
    name: str
    castellers: str = Field(description="The castellers lying there (a pool).")
    special_tokens: int
    tiles: list[TileView]
    pawns: list[str] = Field(description="The players whose pawn stands there.")


class PlayerView(_Part):
    name: str
    pawn: str | None = Field(description="The region the pawn stands in (null: off the board).")
    team: str
    skills: dict[str, int]
    special_tokens: int
    best_tower: int = Field(description="The best tower score so far.")
    claimed_tiles: list[str]
    prizes: dict[str, int] = Field(description="Prize -> how many won (only those won).")
    size_tokens: list[int]
    points: int = Field(description="The end-of-game points if the game ended now.")


class StepView(_Part):
    """A legal step of the player to move: the text the referee takes, and its words."""

    step: str
    label: str
    kind: Literal["move", "recruit", "train", "special", "claim", "end"]
    region: str | None = Field(default=None, description="Where a move goes.")
    tile: str | None = Field(default=None, description="The tile a claim takes.")
    tower: str | None = Field(default=None,
                              description="The tower a claim offers (one that meets it).")


class FestivalView(_Part):
    """A festival of the calendar, held or to come."""

    round: int
    location: str
    region: str = Field(description="The region's id.")
    region_name: str
    type: str
    size_tokens: list[int]
    held: bool


class NamedTower(_Part):
    """A festival tower a player has named ahead of the festival (null tower: not
    competing; null location: for the round's festival)."""

    player: str
    location: str | None = None
    tower: str | None = None


class HistoryLine(_Part):
    """A recorded step with its round and the player who took it (null: the table's own,
    a refill)."""

    round: int
    player: str | None
    step: str


class HeldFestival(_Part):
    """A festival that was held: who competed with which tower (or why not), the prizes and
    who took each size token (nobody: a tie, or no tower had one)."""

    round: int
    location: str
    region: str
    competitors: list[Competitor]
    size_tokens: list[SizeTokenWinner]


class CastellView(Output):
    """`castell state show --view --json`: the game as every edge shows it."""

    round: int
    rounds: int
    rules: str = Field(description="The rules' name (the wheel side's).")
    wheel_side: str
    game_over: bool
    to_play: str | None = Field(description="Whose turn it is (null: game over, or a refill "
                                "is due first).")
    refills_due: dict[str, int] = Field(description="Region id -> castellers to record.")
    players: list[PlayerView]
    regions: list[RegionView]
    actions: list[StepView]
    festivals: list[FestivalView] = Field(description="The calendar, in round order.")
    history: list[HistoryLine] = Field(description="Oldest first.")
    held: list[HeldFestival] = Field(default_factory=list,
                                     description="The festivals held, the latest first.")
    named_towers: list[NamedTower] = Field(default_factory=list)
    deal: str = Field(description="How the game was dealt ('seeded', 'typed', ...).")
    seed: int | None = None
    final_scores: dict[str, int] | None = Field(
        default=None, description="Player -> final score, once the game is over.")
    winners: list[str] = Field(default_factory=list)


def skill_words(skills: dict[str, int]) -> str:
    """A player's trained skills in words ("balance 1, strength 2"; "none")."""
    return ", ".join(f"{name} {rank}" for name, rank in skills.items() if rank) or "none"
