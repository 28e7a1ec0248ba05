"""One game of a Castell tournament as a record: who played which seat with which bot, the
final scores itemised, the winners, the refused turns and the final skill ranks; its JSON form
is one line of a tournament's `games.jsonl`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from models.game import CATEGORIES
from models.tower import SKILL_ORDER

SKILLS = tuple(s.value for s in SKILL_ORDER)


@dataclass(frozen=True)
class GameRecord:
    """One game's outcome, players in turn order; `as_dict()` / `GameRecord.of(data)` are its
    JSON form."""

    index: int
    deal_seed: int
    players: tuple[str, ...]
    bots: tuple[str, ...]
    totals: tuple[int, ...]
    categories: tuple[tuple[int, ...], ...]  # per player, in `CATEGORIES` order
    winners: tuple[str, ...]
    refused: tuple[int, ...]  # per player: turns in which the referee refused a step
    skills: tuple[tuple[int, ...], ...] = ()  # per player, the final ranks in `SKILLS` order

    def as_dict(self) -> dict[str, Any]:
        return {"index": self.index, "deal_seed": self.deal_seed,
                "players": list(self.players), "bots": list(self.bots),
                "totals": list(self.totals),
                "categories": [dict(zip(CATEGORIES, c, strict=True)) for c in self.categories],
                "winners": list(self.winners), "refused": list(self.refused),
                "skills": [dict(zip(SKILLS, r, strict=True)) for r in self.skills]}

    @staticmethod
    def of(data: dict[str, Any]) -> GameRecord:
        return GameRecord(int(data["index"]), int(data["deal_seed"]), tuple(data["players"]),
                          tuple(data["bots"]), tuple(int(t) for t in data["totals"]),
                          tuple(tuple(int(c[k]) for k in CATEGORIES)
                                for c in data["categories"]),
                          tuple(data["winners"]), tuple(int(r) for r in data["refused"]),
                          tuple(tuple(int(r[k]) for k in SKILLS)
                                for r in data.get("skills", ())))

    def margin(self, seat: int) -> int:
        """A player's total less the best rival's."""
        return self.totals[seat] - max(t for i, t in enumerate(self.totals) if i != seat)
