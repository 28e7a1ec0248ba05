"""A player's team: a multiset of casteller sizes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from models.errors import NotationError
from models.tower.notation import parse_sizes
from models.tower.rules import STANDARD, Rules


@dataclass(frozen=True)
class Pool:
    """Counts per size, kept as sorted `(size, count)` pairs with count > 0 (so it is hashable)."""

    items: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        sizes = [s for s, _ in self.items]
        if sizes != sorted(set(sizes)) or any(c <= 0 or s < 1 for s, c in self.items):
            raise ValueError(f"Pool items need sorted distinct sizes, counts > 0: {self.items}")

    @classmethod
    def of(cls, sizes: Iterable[int]) -> Pool:
        """A pool of these sizes."""
        return cls.from_counts(Counter(sizes))

    @classmethod
    def from_counts(cls, counts: dict[int, int] | Counter[int]) -> Pool:
        """A pool from counts per size."""
        return cls(tuple(sorted((s, c) for s, c in counts.items() if c > 0)))

    @classmethod
    @lru_cache(maxsize=2048)  # pools are values; a page or a bot reads the same texts again
    def parse(cls, text: str, rules: Rules = STANDARD) -> Pool:
        """`10,9x3,7,7`; `none` is the empty pool."""
        body = text.strip()
        if body.lower() == "none":
            return cls()
        if not body:
            raise NotationError("the pool is empty; write sizes like '10,9x3,7,7'", token=text)
        return cls.of(parse_sizes(body, rules, what="pool"))

    def count(self, size: int) -> int:
        """How many castellers of a size."""
        return dict(self.items).get(size, 0)

    def counts(self) -> dict[int, int]:
        """The counts per size."""
        return dict(self.items)

    @property
    def sizes(self) -> tuple[int, ...]:
        """The sizes present, smallest first."""
        return tuple(s for s, _ in self.items)

    @property
    def total(self) -> int:
        """How many castellers in all."""
        return sum(c for _, c in self.items)

    def __iter__(self) -> Iterator[int]:
        """Every casteller's size, largest first."""
        for size, count in reversed(self.items):
            yield from [size] * count

    def __len__(self) -> int:
        return self.total

    def add(self, size: int, count: int = 1) -> Pool:
        """The pool with castellers of a size added."""
        counts = Counter(self.counts())
        counts[size] += count
        return Pool.from_counts(counts)

    def missing_from(self, needed: Iterable[int]) -> dict[int, int]:
        """How many castellers of each size `needed` asks for beyond this pool."""
        short = Counter(needed) - Counter(self.counts())
        return dict(sorted(short.items()))

    def __str__(self) -> str:
        if not self.items:
            return "none"
        return ",".join(str(s) if c == 1 else f"{s}x{c}" for s, c in reversed(self.items))
