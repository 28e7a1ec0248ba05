"""A puzzle file line (JSON Lines): pool, ranks, rule variant, target, measured difficulty and
the recorded solution."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from models.errors import NotationError
from models.tower import (
    ExhibitionTile,
    Festival,
    Pool,
    Rules,
    ShapeTile,
    SkillRanks,
    Tile,
    Tower,
    parse_tile,
    rules_named,
)

Kind = Literal["tallest", "festival", "shape", "exhibition"]
KINDS: tuple[Kind, ...] = ("tallest", "festival", "shape", "exhibition")
Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")


class Puzzle(BaseModel):
    """One puzzle of a puzzle file: kind, pool, skills, target, difficulty and the solution."""
    model_config = ConfigDict(extra="forbid", frozen=True)

    # generated ids are '2026-0000'; a 100,000-character one made `puzzle check` take minutes
    # (rich's highlighter scans the line quadratically)
    id: str = Field(min_length=1, max_length=100)
    kind: Kind
    pool: str
    skills: str = "none"
    rules: str = "standard"
    festival: str | None = None
    tile: str | None = None
    difficulty: dict[str, Any] = {}
    solution: str
    objective: int | None = None

    @model_validator(mode="after")
    def _readable(self) -> Puzzle:
        try:
            variant = self.variant
            Pool.parse(self.pool, variant)
            SkillRanks.parse(self.skills)
            Tower.parse(self.solution, variant)
            # a field that does not belong to the kind is refused, not ignored
            if self.kind != "festival" and self.festival is not None:
                raise ValueError(f"a {self.kind} puzzle takes no 'festival'")
            if self.kind not in ("shape", "exhibition") and self.tile is not None:
                raise ValueError(f"a {self.kind} puzzle takes no 'tile'")
            if self.kind == "festival":
                if self.festival is None:
                    raise ValueError("a festival puzzle needs 'festival'")
                Festival.parse(self.festival, variant)
            if self.kind in ("shape", "exhibition"):
                if self.tile is None:
                    raise ValueError(f"a {self.kind} puzzle needs 'tile'")
                tile = parse_tile(self.tile)
                wanted = ShapeTile if self.kind == "shape" else ExhibitionTile
                if not isinstance(tile, wanted):
                    raise ValueError(f"a {self.kind} puzzle needs a {self.kind} tile")
        except NotationError as error:
            raise ValueError(str(error)) from None
        return self

    @property
    def variant(self) -> Rules:
        """The puzzle's rules."""
        return rules_named(self.rules)

    @property
    def team(self) -> Pool:
        """The puzzle's pool."""
        return Pool.parse(self.pool, self.variant)

    @property
    def ranks(self) -> SkillRanks:
        """The puzzle's skill ranks."""
        return SkillRanks.parse(self.skills)

    @property
    def tower(self) -> Tower:
        """The puzzle's solution as a tower."""
        return Tower.parse(self.solution, self.variant)

    @property
    def target_tile(self) -> Tile | None:
        """The puzzle's tile, if it asks for one."""
        return parse_tile(self.tile) if self.tile else None

    @property
    def target_festival(self) -> Festival | None:
        """The puzzle's festival, if it asks for one."""
        return Festival.parse(self.festival, self.variant) if self.festival else None

    def target_text(self) -> str:
        """The puzzle's target in words."""
        if self.kind == "tallest":
            return "build the tallest tower (then the one with the most castellers)"
        if self.kind == "festival":
            return f"build the best festival tower for size tokens {self.festival}"
        tile = self.target_tile
        if isinstance(tile, ShapeTile):
            counts = "-".join(map(str, tile.counts))
            return f"build a tower of exactly this shape (castellers a level, bottom up): {counts}"
        assert isinstance(tile, ExhibitionTile)
        skills = " and ".join(s.value for s in tile.ordered_skills())
        return f"build a tower of exactly {tile.points} levels that uses {skills}"
