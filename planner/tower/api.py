"""One entry point for every tower question, whichever engine answers it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from models.tower import Pool, Rules, SkillRanks
from planner.stopping import time_limited
from planner.tower.budget import DEFAULT_TOWER, TowerBudget
from planner.tower.dp import solve_dp
from planner.tower.questions import BestTower, Question
from planner.tower.result import SolveResult, Status
from planner.tower.search import solve_search
from planner.tower.whynot import WhyNot, explain

Engine = Literal["dp", "cpsat", "search"]
ENGINES: tuple[Engine, ...] = ("dp", "cpsat", "search")
DEFAULT_ENGINE: Engine = "dp"
DEFAULT_TIME_LIMIT = 10.0


def solve(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules, *,
          engine: Engine = DEFAULT_ENGINE, time_limit: float = DEFAULT_TIME_LIMIT,
          workers: int = 1, seed: int = 0, stoppable: bool = False,
          budget: TowerBudget = DEFAULT_TOWER) -> SolveResult:
    """Answer `question` for `pool`; `optimal` only when the engine proved it. `stoppable`:
    the dynamic program stops at the request's cancel or deadline too (CP-SAT and the search
    always do); the referee's finders leave it exact. `budget`: the solvers' tuning.

    Engines: "dp", the dynamic program over sizes (the product: exact, milliseconds, no
    solver); "cpsat", the CP-SAT model (the same layout the turn planner embeds; `workers` and
    `seed` are its own); "search", the exhaustive reference (small pools only).
    """
    if engine == "dp":
        return solve_dp(question, pool, ranks, rules, time_limit=time_limit,
                        stoppable=stoppable, budget=budget)
    if engine == "search":
        return solve_search(question, pool, ranks, rules, time_limit=time_limit)
    from planner.tower.cpsat import solve_cpsat  # ortools is loaded only when asked for

    return solve_cpsat(question, pool, ranks, rules, time_limit=time_limit, workers=workers,
                       seed=seed, budget=budget)


@dataclass(frozen=True)
class Answer:
    """A solve, plus the explanation when the answer is a proven no."""

    question: Question
    pool: Pool
    result: SolveResult
    why_not: WhyNot | None


def answer(question: Question, pool: Pool, ranks: SkillRanks, rules: Rules, *,
           engine: Engine = DEFAULT_ENGINE, time_limit: float = DEFAULT_TIME_LIMIT,
           workers: int = 1, seed: int = 0, explain_no: bool = True,
           budget: TowerBudget = DEFAULT_TOWER) -> Answer:
    """Solve `question`; when it is proven impossible, also say why and what would help.

    The why-not re-solves the question some 16 times (each single extra casteller or rank):
    those re-solves use the dynamic program whichever exact product engine answered, since
    it gives the same proven answers in a fraction of the time; the exhaustive reference
    keeps to itself, so that it stays independent. `time_limit` bounds the whole answer:
    the re-solves share what the solve left (one that gets no time is unproven, and the
    why-not says it is incomplete), as does the request's own deadline.
    """
    # each solve keeps its own budget (the same answer on any machine when no clock is hit),
    # and the block's deadline cuts it short
    with time_limited(time_limit):
        result = solve(question, pool, ranks, rules, engine=engine, time_limit=time_limit,
                       workers=workers, seed=seed, stoppable=True, budget=budget)
        again_engine: Engine = "search" if engine == "search" else "dp"

        def again(q: Question, p: Pool, r: SkillRanks) -> SolveResult:
            return solve(q, p, r, rules, engine=again_engine, time_limit=time_limit,
                         workers=workers, seed=seed, stoppable=True, budget=budget)

        why = None
        if (explain_no and result.status is Status.INFEASIBLE
                and not isinstance(question, BestTower)):
            why = explain(question, pool, ranks, rules, again)
    return Answer(question, pool, result, why)
