"""Levels and towers, with the `9,9,9,9/7,7,7/5,5/3` notation (bottom to top)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from models.errors import NotationError
from models.tower.notation import bounded, parse_sizes
from models.tower.pool import Pool
from models.tower.rules import STANDARD, Rules


@dataclass(frozen=True)
class Level:
    """One level's castellers, sizes kept largest first."""

    sizes: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.sizes:
            raise ValueError("a level holds at least one casteller")
        if any(not isinstance(s, int) or s < 1 for s in self.sizes):
            raise ValueError(f"level sizes must be integers >= 1: {self.sizes}")
        if list(self.sizes) != sorted(self.sizes, reverse=True):
            object.__setattr__(self, "sizes", tuple(sorted(self.sizes, reverse=True)))

    @classmethod
    def of(cls, sizes: Iterable[int]) -> Level:
        """A level of these sizes."""
        return cls(tuple(sorted(sizes, reverse=True)))

    @property
    def count(self) -> int:
        """How many castellers the level holds."""
        return len(self.sizes)

    @property
    def low(self) -> int:
        """The smallest size in the level."""
        return self.sizes[-1]

    @property
    def high(self) -> int:
        """The largest size in the level."""
        return self.sizes[0]

    @property
    def spread(self) -> int:
        """Largest minus smallest size."""
        return self.high - self.low

    def __str__(self) -> str:
        return ",".join(map(str, self.sizes))


@dataclass(frozen=True)
class Tower:
    """Levels bottom (index 0, "level 1") to top."""

    levels: tuple[Level, ...]

    @classmethod
    def of(cls, levels: Iterable[Iterable[int]]) -> Tower:
        """A tower from its levels' sizes, bottom first."""
        return cls(tuple(Level.of(level) for level in levels))

    @classmethod
    def parse(cls, text: str, rules: Rules = STANDARD) -> Tower:
        """`9,9,9,9/7,7,7/5,5/3` or `9x4/7x3/5x2/3`, bottom level first."""
        body = bounded(text, "tower").strip()
        if not body:
            raise NotationError("the tower is empty; write levels like '9x4/7x3/5x2/3'", token=text)
        levels = []
        held: Counter[int] = Counter()
        for number, part in enumerate(body.split("/"), start=1):
            if not part.strip():
                raise NotationError(
                    f"level {number} of tower '{text}' is empty; every level needs a casteller",
                    token=text,
                )
            level = Level.of(parse_sizes(part, rules, what=f"level {number}"))
            held.update(level.sizes)
            for size, count in held.items():
                if count > rules.max_per_size:
                    raise NotationError(
                        f"tower holds {count} castellers of size {size} by level {number}; the "
                        f"bag has {rules.max_per_size} of each size", token=part)
            levels.append(level)
        return cls(tuple(levels))

    @property
    def height(self) -> int:
        """The number of levels."""
        return len(self.levels)

    @property
    def castellers(self) -> int:
        """The number of castellers."""
        return sum(level.count for level in self.levels)

    @property
    def shape(self) -> tuple[int, ...]:
        """The castellers per level, bottom first."""
        return tuple(level.count for level in self.levels)

    def sizes(self) -> list[int]:
        """Every casteller's size, bottom level first."""
        return [s for level in self.levels for s in level.sizes]

    def size_counts(self) -> Counter[int]:
        """The castellers per size."""
        return Counter(self.sizes())

    def pool(self) -> Pool:
        """The tower's castellers as a pool."""
        return Pool.of(self.sizes())

    def as_lists(self) -> list[list[int]]:
        """The levels as lists of sizes (the JSON form)."""
        return [list(level.sizes) for level in self.levels]

    def without_top(self) -> Tower:
        """The tower without its top level."""
        return Tower(self.levels[:-1])

    def __str__(self) -> str:
        return "/".join(str(level) for level in self.levels)
