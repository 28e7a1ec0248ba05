"""Local performance tiles: `shape:4-3-2-1` and `exhibition:4:balance+width`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from models.errors import NotationError
from models.tower.notation import bounded, whole_number
from models.tower.rules import STANDARD
from models.tower.skills import SKILL_ORDER, Skill, parse_skill


@dataclass(frozen=True)
class ShapeTile:
    """A tower of exactly these counts per level, bottom to top."""

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.counts or any(c < 1 for c in self.counts):
            raise NotationError(f"a shape needs levels of at least 1 casteller: {self.counts}")

    @property
    def height(self) -> int:
        """The tile's number of levels."""
        return len(self.counts)

    def __str__(self) -> str:
        return "shape:" + "-".join(map(str, self.counts))


@dataclass(frozen=True)
class ExhibitionTile:
    """A tower of exactly `points` levels that uses every listed skill."""

    points: int
    skills: frozenset[Skill]

    def __post_init__(self) -> None:
        if self.points < 1:
            raise NotationError(f"an exhibition needs points >= 1, not {self.points}")
        if not self.skills:
            raise NotationError("an exhibition lists at least one skill")

    @property
    def height(self) -> int:
        """The tile's number of levels (its points)."""
        return self.points

    def ordered_skills(self) -> tuple[Skill, ...]:
        """The tile's skills in the canonical skill order."""
        return tuple(s for s in SKILL_ORDER if s in self.skills)

    def __str__(self) -> str:
        return f"exhibition:{self.points}:" + "+".join(s.value for s in self.ordered_skills())


Tile = ShapeTile | ExhibitionTile


def tile_words(tile: Tile) -> str:
    """What a tile asks, in words ("a tower of 3, 2, 1 castellers a level, bottom up")."""
    if isinstance(tile, ShapeTile):
        return ("a tower of exactly " + ", ".join(map(str, tile.counts))
                + " castellers a level, bottom up")
    skills = [s.value for s in tile.ordered_skills()]
    used = skills[0] if len(skills) == 1 else ", ".join(skills[:-1]) + " and " + skills[-1]
    return f"a tower of exactly {tile.points} levels that uses {used}"


@lru_cache(maxsize=1024)  # tiles are values; the board's are read at every legal-step listing
def parse_tile(text: str) -> Tile:
    """A tile from its notation (`shape:4-3-2-1`, `exhibition:4:balance+width`)."""
    body = bounded(text, "tile").strip()
    kind, _, rest = body.partition(":")
    kind = kind.lower()
    if kind == "shape":
        if rest.count("-") >= STANDARD.max_castellers:
            raise NotationError(f"shape tile '{body[:60]}...' has more levels than the bag has "
                                "castellers", token=body)
        return ShapeTile(tuple(_positive(part, body, "level count") for part in rest.split("-")))
    if kind == "exhibition":
        points, sep, skills = rest.partition(":")
        if not sep or not skills.strip():
            raise NotationError(
                f"exhibition tile '{body}' must be exhibition:POINTS:SKILL+SKILL", token=body
            )
        names = [parse_skill(name) for name in skills.split("+")]
        if len(set(names)) != len(names):
            raise NotationError(f"exhibition tile '{body}' lists a skill twice", token=body)
        return ExhibitionTile(_positive(points, body, "points"), frozenset(names))
    raise NotationError(
        f"tile '{body}' must start with 'shape:' or 'exhibition:' "
        "(e.g. shape:4-3-2-1, exhibition:4:balance+width)",
        token=body,
    )


def _positive(text: str, tile: str, what: str) -> int:
    value = whole_number(text.strip())
    if value is None:
        message = f"{what} '{text.strip()}' in tile '{tile}' is not a number"
        raise NotationError(message, token=tile)
    if value < 1:
        raise NotationError(f"{what} {value} in tile '{tile}' must be >= 1", token=tile)
    if value > STANDARD.max_castellers:  # no tower holds more than the whole bag
        raise NotationError(f"{what} {value} in tile '{tile}' is above "
                            f"{STANDARD.max_castellers} (the whole bag)", token=tile)
    return value
