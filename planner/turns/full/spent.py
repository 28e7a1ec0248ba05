"""The tie-break every goal ends with: fewer special tokens spent, then more castellers."""

from __future__ import annotations

from planner.turns.full.model import PlanModel, castellers_at_end
from planner.turns.full.stages import Stage


def spent_stage(plan: PlanModel) -> tuple[Stage, int, int]:
    """Fewer special tokens spent, then more castellers in the team: one stage, weighted (a
    casteller more never outweighs a token: no more than `most` castellers join in the
    horizon), with the least and most its objective can be."""
    tokens, team = plan.tokens_spent(), castellers_at_end(plan)
    upper = plan.horizon.upper_pool().total
    most = upper - plan.horizon.me.team.total + 1
    stage = Stage("special tokens spent, then castellers in the team", most * tokens - team,
                  "min", parts=(("special tokens spent", tokens),
                                ("castellers in the team", team)))
    return stage, -upper, most * plan.horizon.me.special_tokens
