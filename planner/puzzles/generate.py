"""Puzzle generation with proven unique solutions, and the puzzle checker.

Difficulty is measured on the solution and the proof, not chosen:
  points = 2 x distinct skills the solution uses + its skill uses + distractors in the pool
  (castellers the solution leaves out) + 1 if the proof took over 200 CP-SAT branches.
  easy <= 3 < medium <= 7 < hard.
A generator draws candidates shaped for the wanted level (ranks, height, distractors), keeps the
first whose answer CP-SAT proves unique and whose measured level is the wanted one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from models.puzzle import KINDS, Difficulty, Kind, Puzzle
from models.tower import (
    SKILL_ORDER,
    ExhibitionTile,
    Festival,
    Level,
    Pool,
    Rules,
    ShapeTile,
    Skill,
    SkillRanks,
    Tower,
    check_tower,
    tile_shortfalls,
)
from planner.puzzles.unique import prove_unique, second_answer
from planner.tower import BestTower, FestivalTower, Question, Status, TileCheck, objective_of, solve

TIME_LIMIT = 10.0
HARD_BRANCHES = 200


def question_of(puzzle: Puzzle) -> Question:
    if puzzle.kind == "tallest":
        return BestTower()
    if puzzle.kind == "festival":
        festival = puzzle.target_festival
        assert festival is not None
        return FestivalTower(festival)
    tile = puzzle.target_tile
    assert tile is not None
    return TileCheck(tile)


def level_of(points: int) -> Difficulty:
    return "easy" if points <= 3 else "medium" if points <= 7 else "hard"


def measure(tower: Tower, pool: Pool, ranks: SkillRanks, rules: Rules, question: Question,
            branches: int) -> dict[str, Any]:
    check = check_tower(tower, ranks, rules, pool)
    uses = check.uses
    if isinstance(question, TileCheck) and isinstance(question.tile, ExhibitionTile):
        uses = check.accounting_using(question.tile.skills)
    assert uses is not None
    skill_uses = sum(uses.as_dict().values())
    skills = len(uses.used())
    distractors = pool.total - tower.castellers
    points = 2 * skills + skill_uses + distractors + (branches > HARD_BRANCHES)
    return {"level": level_of(points), "points": points, "skills": skills,
            "skill_uses": skill_uses, "distractors": distractors, "pool_size": pool.total,
            "branches": branches}


@dataclass(frozen=True)
class _Shape:
    """How a candidate for a level is drawn."""

    ranks: tuple[int, int]  # total skill ranks, min..max
    height: tuple[int, int]
    distractors: tuple[int, int]


SHAPES: dict[Difficulty, _Shape] = {
    "easy": _Shape((0, 1), (2, 3), (0, 1)),
    "medium": _Shape((1, 2), (3, 4), (1, 3)),
    "hard": _Shape((2, 4), (4, 6), (2, 5)),
}


def _draw_ranks(rng: random.Random, total: int) -> SkillRanks:
    ranks = dict.fromkeys((s.value for s in SKILL_ORDER), 0)
    for _ in range(total):
        ranks[rng.choice(SKILL_ORDER).value] += 1
    return SkillRanks(**ranks)


def _draw_tower(rng: random.Random, ranks: SkillRanks, rules: Rules, height: int
                ) -> Tower | None:
    """A random valid tower of `height` levels under `ranks`, built bottom-up."""
    widest = rules.width_limit + ranks.width + (2 if ranks.base else 0)
    count_ = rng.randint(max(1, min(height - ranks.balance, widest)), widest)
    low = rng.randint(min(rules.max_size, height + 2), rules.max_size)
    levels: list[Level] = []
    for _ in range(height):
        if count_ < 1 or low < rules.min_size:
            return None
        mixed = ranks.mix > 0 and low + 1 <= rules.max_size and count_ > 1 and rng.random() < .4
        highs = rng.randint(1, count_ - 1) if mixed else 0
        level = Level.of([low + 1] * highs + [low] * (count_ - highs))
        tower = Tower((*levels, level))
        if check_tower(tower, ranks, rules).valid:
            levels.append(level)
        elif mixed:
            level = Level.of([low] * count_)
            if not check_tower(Tower((*levels, level)), ranks, rules).valid:
                return None
            levels.append(level)
        else:
            return None
        keep_count = ranks.balance > 0 and rng.random() < .3
        count_ -= 0 if keep_count else rng.choice([1, 1, 2])
        same_size = ranks.strength > 0 and rng.random() < .3
        low -= 0 if same_size else rng.choice([1, 1, 2])
    tower = Tower(tuple(levels))
    return tower if check_tower(tower, ranks, rules).valid else None


def _candidate(kind: Kind, level: Difficulty, rng: random.Random, rules: Rules
               ) -> tuple[Pool, SkillRanks, Question, str | None, str | None] | None:
    shape = SHAPES[level]
    ranks = _draw_ranks(rng, rng.randint(*shape.ranks))
    height = rng.randint(*shape.height)
    if kind == "festival":
        height = max(height, rules.festival_min_levels)
    built = _draw_tower(rng, ranks, rules, height)
    if built is None:
        return None
    low, high = shape.distractors
    if kind == "exhibition":  # an exhibition has many towers to choose from: spare castellers
        high = low            # mostly add more, so unique ones are rare
    extra = [rng.randint(rules.min_size, rules.max_size) for _ in range(rng.randint(low, high))]
    pool = Pool.of([*built.sizes(), *extra])
    if kind == "tallest":
        return pool, ranks, BestTower(), None, None
    if kind == "festival":
        if built.height < rules.festival_min_levels:
            return None
        tokens = rng.sample(sorted(set(built.sizes())), k=min(2, len(set(built.sizes()))))
        festival = Festival(tuple(tokens))
        return pool, ranks, FestivalTower(festival), str(festival), None
    if kind == "shape":
        tile = ShapeTile(built.shape)
        return pool, ranks, TileCheck(tile), None, str(tile)
    used = sorted(check_tower(built, ranks, rules).usable_skills())
    if not used:
        return None
    skills = frozenset(rng.sample(used, k=min(len(used), rng.randint(1, 2))))
    exhibition = ExhibitionTile(built.height, frozenset(Skill(s) for s in skills))
    return pool, ranks, TileCheck(exhibition), None, str(exhibition)


def puzzle_key(puzzle: Puzzle) -> tuple[str, ...]:
    """What makes two puzzles the same puzzle (the id and the measurements aside)."""
    return (puzzle.kind, puzzle.pool, puzzle.skills, puzzle.rules, puzzle.festival or "",
            puzzle.tile or "")


def generate_one(kind: Kind, level: Difficulty, seed: int, index: int,
                 rules: Rules, max_attempts: int = 5000, retry: int = 0) -> Puzzle:
    """Puzzle number `index` of a set: a function of its arguments only, so any number of
    worker processes produce the same set. `retry` > 0 draws another puzzle for the same
    index (when the first repeats an earlier puzzle of the set)."""
    again = f":{retry}" if retry else ""
    rng = random.Random(f"castell-puzzle:{seed}:{kind}:{level}:{index}{again}")
    for _ in range(max_attempts):
        drawn = _candidate(kind, level, rng, rules)
        if drawn is None:
            continue
        pool, ranks, question, festival, tile = drawn
        proof = prove_unique(question, pool, ranks, rules, time_limit=TIME_LIMIT)
        if not proof.unique or proof.first.tower is None:
            continue
        solution = proof.first.tower
        difficulty = measure(solution, pool, ranks, rules, question, proof.branches)
        if difficulty["level"] != level:
            continue
        return Puzzle(id=f"{seed}-{index:04d}", kind=kind, pool=str(pool), skills=str(ranks),
                      rules=rules.name, festival=festival, tile=tile, difficulty=difficulty,
                      solution=str(solution), objective=proof.first.objective)
    raise RuntimeError(f"no unique {level} {kind} puzzle after {max_attempts} candidates")


def kind_for(kind: Kind | None, index: int) -> Kind:
    """`None` cycles through every kind."""
    return kind if kind is not None else KINDS[index % len(KINDS)]


@dataclass(frozen=True)
class Verdict:
    puzzle: Puzzle
    problems: tuple[str, ...]
    second: Tower | None  # another solution as good as the recorded one

    @property
    def ok(self) -> bool:
        return not self.problems


def check_puzzle(puzzle: Puzzle, time_limit: float = TIME_LIMIT) -> Verdict:
    """The recorded solution is valid, meets the target, is optimal, and is the only one."""
    pool, ranks, rules = puzzle.team, puzzle.ranks, puzzle.variant
    question = question_of(puzzle)
    solution = puzzle.tower
    result = check_tower(solution, ranks, rules, pool)
    problems = [v.message for v in result.violations]
    if isinstance(question, TileCheck):
        problems = tile_shortfalls(question.tile, result)  # the violations, and the tile's needs
    if isinstance(question, FestivalTower):
        problems += question.festival.shortfalls(solution, rules)
    objective = objective_of(question, solution, pool.total)
    if objective != puzzle.objective:
        problems.append(f"recorded objective {puzzle.objective}, the solution scores {objective}")
    if problems:
        return Verdict(puzzle, tuple(problems), None)
    # the optimum first, so that a better tower is reported as such, not as a second solution
    best = solve(question, pool, ranks, rules, time_limit=time_limit)
    if objective is not None and best.objective is not None and best.objective > objective:
        return Verdict(puzzle, (f"not optimal: {best.tower} scores {best.objective}",),
                       best.tower)
    status, second, _ = second_answer(question, pool, ranks, rules, solution, objective,
                                      time_limit=time_limit)
    if second is not None:
        return Verdict(puzzle, (f"not unique: {second} is another solution",), second)
    if status is Status.UNKNOWN:
        return Verdict(puzzle, ("uniqueness not proven within the time limit",), None)
    return Verdict(puzzle, (), None)

