"""One line of `castell verify --batch` (a pydantic model: imported only for --batch, so that
`castell verify` itself loads no pydantic)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class VerifyLine(BaseModel):
    """One line of `castell verify --batch`."""

    model_config = ConfigDict(extra="forbid")
    tower: str
    skills: str = "none"
    pool: str | None = None
    rules: str = "standard"
