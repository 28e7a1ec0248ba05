"""What `verify`, `best` and `check` answer."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from service.results.base import Output, TowerStatus, _Part

WHAT_IF = ("Present when the question was a what-if on a game (`--state` with "
           "`--what-if-rules`): the readings the answer used instead of the game's.")


class SkillUses(_Part):
    balance: int
    base: int
    mix: int
    strength: int
    width: int


class Violation(_Part):
    rule: str = Field(description="The rule broken (R1..., or 'pool').")
    level: int | None = Field(description="1-based level, null for the whole tower.")
    message: str


class VerifyOutput(Output):
    """`castell verify --json`: is the tower valid, and how."""

    valid: bool
    tower: str
    height: int
    castellers: int
    uses: SkillUses | None = Field(description="Skill uses of one valid accounting; null if "
                                   "invalid.")
    violations: list[Violation]
    what_if_rules: str | None = Field(default=None, description=WHAT_IF)


class Suggestion(_Part):
    add_casteller: int | None = None
    add_rank: str | None = None


class _TowerAnswer(Output):
    """What `best` and `check` both answer (their own fields follow, in the order printed)."""

    status: TowerStatus
    tower: str | None
    levels: list[list[int]] | None = Field(description="Casteller sizes, bottom level first.")
    height: int | None
    castellers: int | None
    score: int | None = Field(description="The festival score (with --festival), else null.")
    uses: SkillUses | None
    bound: int | float | None = Field(description="The proven bound on the objective (the "
                                      "height for the tallest tower).")
    wall_time_s: float
    stopped_by_clock: bool = Field(description="The wall-clock safety net, not the "
                                   "deterministic budget, ended an unproven solve.")
    engine: str
    reasons: list[str] = Field(description="Why not, when there is no tower.")
    closest: str | None = Field(description="The closest tower, when there is none.")
    suggestions: list[Suggestion]
    why_not_complete: bool | None = Field(
        default=None, description="With a why-not: whether every extra casteller and +1 rank "
        "was tried (false: the time limit came first, and the suggestions may not be all).")


INTERRUPTED = "Present when Ctrl-C stopped the solve: the best so far."


class BestOutput(_TowerAnswer):
    """`castell best --json`: the best tower, or why there is none."""

    interrupted: Literal[True] | None = Field(default=None, description=INTERRUPTED)
    what_if_rules: str | None = Field(default=None, description=WHAT_IF)


class CheckOutput(_TowerAnswer):
    """`castell check --json`: can the tile be claimed, with a tower that meets it."""

    achievable: bool | None = Field(description="null when the time limit came first.")
    interrupted: Literal[True] | None = Field(default=None, description=INTERRUPTED)
    what_if_rules: str | None = Field(default=None, description=WHAT_IF)
