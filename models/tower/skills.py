"""The five skills and a player's ranks in them."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from functools import lru_cache

from models.errors import NotationError
from models.tower.notation import bounded, whole_number
from models.tower.rules import STANDARD


class Skill(StrEnum):
    """One of the five skills."""
    BALANCE = "balance"
    BASE = "base"
    MIX = "mix"
    STRENGTH = "strength"
    WIDTH = "width"

    def __str__(self) -> str:
        return self.value


SKILL_ORDER: tuple[Skill, ...] = tuple(Skill)


def parse_skill(text: str) -> Skill:
    """A skill name, case-insensitive; an unknown one gets the closest name suggested."""
    key = text.strip().lower()
    for skill in Skill:
        if skill.value == key:
            return skill
    close = difflib.get_close_matches(key[:20], [s.value for s in Skill], n=1, cutoff=0.5)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    known = ", ".join(s.value for s in Skill)
    shown = text.strip()[:40]
    raise NotationError(f"unknown skill '{shown}' (skills: {known}){hint}", token=text)


@dataclass(frozen=True)
class SkillRanks:
    """How many times each skill may be used in one tower. Written `balance=1,width=2`."""

    balance: int = 0
    base: int = 0
    mix: int = 0
    strength: int = 0
    width: int = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise NotationError(f"skill rank {f.name}={value!r} must be a whole number >= 0")

    def __getitem__(self, skill: Skill) -> int:
        rank: int = getattr(self, skill.value)
        return rank

    def plus(self, skill: Skill, amount: int = 1) -> SkillRanks:
        """These ranks with one skill raised."""
        return replace(self, **{skill.value: self[skill] + amount})

    def as_dict(self) -> dict[str, int]:
        """The ranks per skill as JSON."""
        return {s.value: self[s] for s in SKILL_ORDER}

    @classmethod
    @lru_cache(maxsize=1024)  # ranks are values; a page or a bot reads the same texts again
    def parse(cls, text: str) -> SkillRanks:
        """`balance=1,width=2`; `""` or `none` for no ranks. Unnamed skills are rank 0."""
        body = bounded(text, "skills").strip()
        if body.lower() in ("", "none"):
            return cls()
        ranks: dict[str, int] = {}
        for raw in body.split(","):
            item = raw.strip()
            if not item:
                raise NotationError(f"empty item in skills '{text}'", token=text)
            name, eq, value = item.partition("=")
            if not eq:
                raise NotationError(
                    f"skill item '{item}' must be NAME=RANK, e.g. 'width=1'", token=item
                )
            skill = parse_skill(name)
            if skill.value in ranks:
                raise NotationError(f"skill '{skill}' is given twice in '{text}'", token=item)
            ranks[skill.value] = _parse_rank(value.strip(), item)
        return cls(**ranks)

    def __str__(self) -> str:
        items = [f"{s.value}={self[s]}" for s in SKILL_ORDER if self[s]]
        return ",".join(items) if items else "none"


# A use spends a level and no tower is taller than the whole bag: a higher rank means nothing.
MAX_RANK = STANDARD.max_castellers


def _parse_rank(value: str, item: str) -> int:
    rank = whole_number(value)
    if rank is None:
        message = f"rank '{value}' in '{item}' is not a whole number"
        raise NotationError(message, token=item)
    if rank < 0:
        raise NotationError(f"rank in '{item}' is negative; ranks are >= 0", token=item)
    if rank > MAX_RANK:
        raise NotationError(f"rank in '{item}' is above {MAX_RANK} (the whole bag)", token=item)
    return rank
