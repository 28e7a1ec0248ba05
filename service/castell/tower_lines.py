"""One line of `castell verify|best|check --batch`: pydantic models, imported only for a batch
(so that a plain `castell verify` loads no pydantic)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from planner.tower import DEFAULT_TIME_LIMIT

MAX_TIME_LIMIT = 3600.0  # cli.options.MAX_TIME_LIMIT, the option's bound (a test keeps them equal)


class VerifyLine(BaseModel):
    """One line of `castell verify --batch`."""

    model_config = ConfigDict(extra="forbid", strict=True)  # as strict as the files: "5" is no 5
    tower: str
    skills: str = "none"
    pool: str | None = None
    rules: str = "standard"


class SolveLine(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)  # as strict as the files: "5" is no 5
    pool: str
    skills: str = "none"
    rules: str = "standard"
    engine: str = "dp"
    time_limit: float = Field(DEFAULT_TIME_LIMIT, ge=0.001, le=MAX_TIME_LIMIT,
                              allow_inf_nan=False)


class BestLine(SolveLine):
    """One line of `castell best --batch`."""

    festival: str | None = None


class CheckLine(SolveLine):
    """One line of `castell check --batch`."""

    tile: str
