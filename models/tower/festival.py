"""Festival eligibility and tower score (rules page section 3)."""

from __future__ import annotations

from dataclasses import dataclass

from models.errors import NotationError
from models.tower.notation import parse_sizes
from models.tower.rules import STANDARD, Rules
from models.tower.tower import Tower


@dataclass(frozen=True)
class Festival:
    """A festival's size tokens (a size may appear on more than one token)."""

    tokens: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.tokens:
            raise NotationError("a festival has at least one size token")
        object.__setattr__(self, "tokens", tuple(sorted(self.tokens, reverse=True)))

    @classmethod
    def parse(cls, text: str, rules: Rules = STANDARD) -> Festival:
        """A festival from its size tokens (`6,3`)."""
        if not text.strip():
            raise NotationError("the festival needs size tokens, e.g. '6,3'", token=text)
        return cls(tuple(parse_sizes(text, rules, what="festival tokens")))

    @property
    def token_sizes(self) -> frozenset[int]:
        """The sizes of the festival's tokens."""
        return frozenset(self.tokens)

    def matches(self, tower: Tower) -> int:
        """Castellers whose size matches a token; each casteller counts once."""
        return sum(1 for s in tower.sizes() if s in self.token_sizes)

    def score(self, tower: Tower) -> int:
        """A tower's festival score: its levels plus castellers of the token sizes."""
        return tower.height + self.matches(tower)

    def shortfalls(self, tower: Tower, rules: Rules = STANDARD) -> list[str]:
        """Why this tower cannot compete (empty when it can). Validity is the checker's job."""
        reasons = []
        if tower.height < rules.festival_min_levels:
            reasons.append(
                f"the tower has {tower.height} levels; festivals need {rules.festival_min_levels}"
            )
        present = set(tower.sizes())
        for size in sorted(self.token_sizes - present, reverse=True):
            reasons.append(f"the tower has no casteller of size {size}")
        return reasons

    def eligible(self, tower: Tower, rules: Rules = STANDARD) -> bool:
        """Whether a tower can compete: enough levels and every token size present."""
        return not self.shortfalls(tower, rules)

    def __str__(self) -> str:
        return ",".join(map(str, self.tokens))
