"""One entry point for every tower question, whichever engine answers it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from models.tower import STANDARD, Pool, Rules, SkillRanks
from planner.tower.cpsat import solve_cpsat
from planner.tower.questions import BestTower, Question
from planner.tower.result import SolveResult, Status
from planner.tower.search import solve_search
from planner.tower.whynot import WhyNot, explain

Engine = Literal["cpsat", "search"]
ENGINES: tuple[Engine, ...] = ("cpsat", "search")
DEFAULT_TIME_LIMIT = 10.0


def solve(question: Question, pool: Pool, ranks: SkillRanks | None = None,
          rules: Rules = STANDARD, *, engine: Engine = "cpsat",
          time_limit: float = DEFAULT_TIME_LIMIT, workers: int = 1, seed: int = 0
          ) -> SolveResult:
    """Answer `question` for `pool`; `optimal` only when the engine proved it."""
    ranks = ranks or SkillRanks()
    if engine == "search":
        return solve_search(question, pool, ranks, rules, time_limit=time_limit)
    return solve_cpsat(question, pool, ranks, rules, time_limit=time_limit, workers=workers,
                       seed=seed)


@dataclass(frozen=True)
class Answer:
    """A solve, plus the explanation when the answer is a proven no."""

    question: Question
    pool: Pool
    result: SolveResult
    why_not: WhyNot | None


def answer(question: Question, pool: Pool, ranks: SkillRanks | None = None,
           rules: Rules = STANDARD, *, engine: Engine = "cpsat",
           time_limit: float = DEFAULT_TIME_LIMIT, workers: int = 1, seed: int = 0,
           explain_no: bool = True) -> Answer:
    """Solve `question`; when it is proven impossible, also say why and what would help."""
    ranks = ranks or SkillRanks()

    def again(q: Question, p: Pool, r: SkillRanks) -> SolveResult:
        return solve(q, p, r, rules, engine=engine, time_limit=time_limit, workers=workers,
                     seed=seed)

    result = again(question, pool, ranks)
    why = None
    if explain_no and result.status is Status.INFEASIBLE and not isinstance(question, BestTower):
        why = explain(question, pool, ranks, rules, again)
    return Answer(question, pool, result, why)
