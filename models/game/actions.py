"""A turn's actions, as they appear in plans and files: `{"type": "move", "to": ...}` etc."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from models.tower import Size


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Move(_Action):
    """Move the pawn to a region."""
    type: Literal["move"] = "move"
    to: str

    def __str__(self) -> str:
        return f"move to {self.to}"


RECRUIT_LIMIT = 2  # castellers one Recruit action takes (a special action takes one more)


class Recruit(_Action):
    """Recruit one or two castellers from the pawn's region."""
    type: Literal["recruit"] = "recruit"
    sizes: Annotated[list[Size],
                     Field(min_length=1, max_length=RECRUIT_LIMIT)]

    def __str__(self) -> str:
        return "recruit " + ", ".join(map(str, self.sizes))


class Train(_Action):
    """Train a skill the wheel offers in the pawn's region (or a special board skill tile)."""
    type: Literal["train"] = "train"
    skill: str  # a skill name, or "special" for a special board skill tile

    def __str__(self) -> str:
        return f"train {self.skill}"


class Special(_Action):
    """A special action: recruit one more casteller, move once more, or claim a tile."""

    type: Literal["special"] = "special"
    kind: Literal["recruit", "move", "claim"]
    size: Size | None = None
    to: str | None = None
    tile: str | None = None
    tower: str | None = None

    @model_validator(mode="after")
    def _fields_for_kind(self) -> Special:
        needed = {"recruit": ("size",), "move": ("to",), "claim": ("tile", "tower")}[self.kind]
        for name in ("size", "to", "tile", "tower"):
            given = getattr(self, name) is not None
            if given != (name in needed):
                verb = "needs" if name in needed else "takes no"
                raise ValueError(f"a special {self.kind} {verb} '{name}'")
        return self

    def __str__(self) -> str:
        if self.kind == "recruit":
            return f"special: recruit {self.size}"
        if self.kind == "move":
            return f"special: move to {self.to}"
        return f"special: claim {self.tile} with {self.tower}"


class EndTurn(_Action):
    """End the player's turn (after the last player: the round)."""
    type: Literal["end_turn"] = "end_turn"

    def __str__(self) -> str:
        return "end turn"


Action = Annotated[Move | Recruit | Train | Special | EndTurn, Field(discriminator="type")]
ACTION = TypeAdapter(Action)
