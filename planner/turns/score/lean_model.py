"""The lean score model's parts (`planner.turns.score.lean_build` builds it): its claims, the
teams and ranks each claim stands its tower on, and what a solution's claim stands on."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from models.game import PerformanceTile
from models.tower import Pool, Skill, SkillRanks
from planner.tower import TowerLayout
from planner.turns.horizon import Horizon
from planner.turns.lean.model import (
    LeanFestival,
    LeanModel,
)

Var = cp_model.IntVar
Expr = cp_model.LinearExpr
Cuts = tuple[tuple[str, Pool, SkillRanks], ...]  # (tile, team, ranks): no tower on less


@dataclass
class LeanClaim:
    """A tile the lean score model may claim: a literal per turn, and the tile's layout."""

    tile: PerformanceTile
    region: str
    at: dict[int, Var]  # turn -> claimed in it
    layout: TowerLayout | None = None
    paid: dict[int, Var] = field(default_factory=dict)  # turn -> claimed with a paid token

    @property
    def claimed(self) -> Expr:
        """Whether the tile is claimed, as a model expression."""
        return cp_model.LinearExpr.sum(list(self.at.values()))


@dataclass
class LeanScore:
    """The lean score model: the lean model, its claims, the tokens collected, the points."""

    lean: LeanModel
    claims: list[LeanClaim] = field(default_factory=list)
    collected: Expr | int = 0
    points: Expr | int = 0
    teams: list[dict[int, Var]] = field(default_factory=list)  # turn -> size -> at its end
    ranks: list[dict[Skill, Var]] = field(default_factory=list)  # turn -> skill -> at its end
    # (turn, region) -> what a claim there stands its tower on (`_claim_teams`)
    claim_teams: dict[tuple[int, str], dict[int, Var]] = field(default_factory=dict)
    claim_ranks: dict[tuple[int, str], dict[Skill, Var]] = field(default_factory=dict)
    cuts: Cuts = ()  # those made while building it (`lean_tiles.claim_towers`)

    @property
    def model(self) -> cp_model.CpModel:
        """The CP-SAT model."""
        return self.lean.model

    @property
    def horizon(self) -> Horizon:
        """The horizon planned."""
        return self.lean.horizon

    @property
    def festivals(self) -> list[LeanFestival]:
        """The festivals a team in reach can compete in."""
        return self.lean.festivals

    def team_at(self, claim: LeanClaim, t: int) -> dict[int, Var]:
        """Size -> castellers a claim of `claim`'s tile in turn `t` stands its tower on."""
        return self.claim_teams.get((t, claim.region), self.teams[t])

    def ranks_at(self, claim: LeanClaim, t: int) -> dict[Skill, Var]:
        """Skill -> the rank a claim of `claim`'s tile in turn `t` stands its tower on."""
        return self.claim_ranks.get((t, claim.region), self.ranks[t])

    def tile_points(self) -> Expr:
        """Points of the tiles claimed, as a model expression."""
        return cp_model.LinearExpr.sum([c.claimed * c.tile.points for c in self.claims])

    def local_points(self) -> Expr:
        """Local performance points: tiles claimed and tokens collected."""
        per_token = self.horizon.board.scoring.special_token
        return self.tile_points() + self.collected * per_token


def claim_values(score: LeanScore, claim: LeanClaim, t: int, value: Callable[[Var], int],
                 seen: frozenset[tuple[str, str]] | None = None) -> tuple[Pool, SkillRanks]:
    """The most a claim of `claim`'s tile in turn `t` of a solution (`value`) stands its
    tower on: the end of its turn less the recruits and training made where the walk comes
    only after it (by `seen`, else by the model's order of visits, `_claim_teams`; with
    neither, the end of its turn)."""
    turn, g = score.lean.turns[t], claim.region
    team = {z: value(v) for z, v in score.teams[t].items()}
    ranks = {k: value(v) for k, v in score.ranks[t].items()}
    if seen is None and (t, g) in score.claim_teams:
        seen = frozenset(p for p, v in turn.seen.items() if value(v))
    if seen is not None:
        for (a, size), var in turn.recruit.items():
            if a != g and (a, g) not in seen:
                team[size] -= value(var) + value(turn.extra[a, size])
        for skill in Skill:
            where = turn.slot.offered.get(skill.value, ())
            if (skill.value in turn.train and value(turn.train[skill.value]) and g not in where
                    and not any((r, g) in seen for r in where)):
                ranks[skill] -= 1
    return Pool.from_counts(team), SkillRanks(**{k.value: n for k, n in ranks.items()})


