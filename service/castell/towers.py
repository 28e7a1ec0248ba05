"""Tower questions: is this tower valid (`verify`), the best tower or festival score (`best`),
can a local performance tile be claimed (`check`), one at a time or a JSON Lines batch.

A question is asked of a team: a pool, skill ranks and readings given as text (`--pool`,
`--skills`, `--rules`), or a player's in a game (`--state`, `--player`, names as typed at the
table). A game's readings are the game's (`Game.rules`): `--rules` is refused with a game, and
a question under other readings is a what-if asked for by name (`--what-if-rules`), whose
answer says so (`what_if_rules`).

Each use case returns a reply holding what the interfaces render (the tower, the why-not) and
its one JSON form (`output()`, a `service.results.towers` model). The models are built only
when asked for: a plain `castell verify` loads no pydantic (nor any solver).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from models.errors import SpecError
from models.tower import CheckResult, Pool, Rules, SkillRanks, Tower, check_tower, rules_named
from planner.stopping import time_limited

if TYPE_CHECKING:
    from models.game import FestivalSpace, PlayerState
    from models.tower import Festival, SkillUses
    from planner.tower import Answer, Engine, Question, SolveResult, TowerBudget, WhyNot
    from service.batch import BatchItem
    from service.castell import Game
    from service.results.towers import BestOutput, CheckOutput, VerifyOutput

WHAT_IF_WITHOUT_STATE = ("a what-if goes with a game (without a game, the readings are "
                         "given as they are)")
NO_TEAM_WITH_STATE = ("a game gives the player's team and skills: a pool or skills do not go "
                      "with it")


@dataclass(frozen=True)
class Asked:
    """Whose team a question is asked of, as the user gave it: a pool, skill ranks and
    readings as text, or a game file (its board) and a player in it (None: whose turn)."""

    pool: str | None = None
    skills: str = "none"
    rules: str | None = None  # None: the standard rules (without a game)
    state: str | Path | None = None
    board: str | Path | None = None
    player: str | None = None
    what_if_rules: str | None = None


@dataclass(frozen=True)
class Team:
    """A pool (None: a tower verified without one), skill ranks and the readings."""

    pool: Pool | None
    ranks: SkillRanks
    rules: Rules
    board_file: str | Path | None = None
    game: Game | None = None
    player: PlayerState | None = None  # the game's player, as stored
    what_if: bool = False  # the readings are not the game's: asked for as a what-if

    @property
    def what_if_rules(self) -> str | None:
        return self.rules.spec if self.what_if else None

    def tile_text(self, tile: str) -> str:
        """A tile as `shape:...`/`exhibition:...` text, or a tile id of the board (`LP09`)."""
        if ":" in tile:
            return tile
        if self.game is not None:
            board = self.game.board
        else:
            from models.game import load_board  # only a tile id needs the board

            board = load_board(self.board_file)
        return board.tile(tile.strip().upper()).tile


def team_of(asked: Asked) -> Team:
    """The team `asked` names: the one given as text, or the player's in the game under the
    game's readings (a what-if's when asked for)."""
    if asked.state is None:
        if asked.player is not None:
            raise SpecError("a player goes with a game", field="player")
        if asked.what_if_rules is not None:
            raise SpecError(WHAT_IF_WITHOUT_STATE, field="what_if_rules")
        rules = rules_named("standard" if asked.rules is None else asked.rules)
        pool = Pool.parse(asked.pool, rules) if asked.pool is not None else None
        return Team(pool, SkillRanks.parse(asked.skills), rules, board_file=asked.board)
    if asked.pool is not None or asked.skills != "none":
        raise SpecError(NO_TEAM_WITH_STATE, field="pool")
    from service.castell import RULES_WITH_STATE, Game

    if asked.rules is not None:
        raise SpecError(RULES_WITH_STATE, field="rules")
    game = Game.load(asked.state, asked.board)
    player = game.player(asked.player)
    rules = game.what_if(asked.what_if_rules)
    return Team(Pool.parse(player.pool, rules), SkillRanks.parse(player.skills), rules,
                game=game, player=player, what_if=asked.what_if_rules is not None)


# -- verify ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verified:
    """A tower checked against the rules, the skill ranks and (if given) the pool."""

    check: CheckResult
    what_if_rules: str | None = None

    @property
    def valid(self) -> bool:
        return self.check.valid

    def output(self) -> VerifyOutput:
        from service.results.base import output_of
        from service.results.towers import VerifyOutput

        result = self.check
        data: dict[str, Any] = {
            "valid": result.valid,
            "tower": str(result.tower),
            "height": result.tower.height,
            "castellers": result.tower.castellers,
            "uses": _uses(result.uses),
            "violations": [v.as_dict() for v in result.violations],
        }
        return output_of(VerifyOutput, _what_if(data, self.what_if_rules))


def verify(tower: str, asked: Asked) -> Verified:
    """Is `tower` valid for the team `asked` names?"""
    team = team_of(asked)
    checked = check_tower(Tower.parse(tower, team.rules), team.ranks, team.rules, team.pool)
    return Verified(checked, team.what_if_rules)


def verify_batch(lines: Iterable[tuple[int, str]]) -> Iterator[BatchItem[VerifyOutput]]:
    """`verify` of each numbered JSON line (`service.castell.tower_lines.VerifyLine`)."""
    from service.batch import answer_lines
    from service.castell.tower_lines import VerifyLine

    return answer_lines(lines, VerifyLine, lambda line: verify(line.tower, Asked(
        pool=line.pool, skills=line.skills, rules=line.rules)).output())


# -- best and check --------------------------------------------------------------------------


@dataclass(frozen=True)
class Solving:
    """How a tower question is solved: the engine (`dp`, `cpsat`, `search`), its time limit,
    CP-SAT's workers and seed, and the solvers' tuning (None: the product's `TowerBudget`)."""

    engine: str
    time_limit: float
    workers: int = 1
    seed: int = 0
    budget: TowerBudget | None = None


@dataclass(frozen=True)
class TowerReply:
    """A tower question's answer (and why not, for a proven no)."""

    answer: Answer
    time_limit: float
    what_if_rules: str | None = None
    # `best` of a game's player without a festival: whose reach was looked at (their stored
    # name) and the festival it found (None: none left, so the tallest tower was asked)
    looked_for: str | None = None
    reached: FestivalSpace | None = None

    @property
    def result(self) -> SolveResult:
        return self.answer.result

    @property
    def why_not(self) -> WhyNot | None:
        return self.answer.why_not

    @property
    def status(self) -> str:
        """`optimal`, `feasible`, `infeasible` or `unknown`."""
        return str(self.answer.result.status)

    @property
    def title(self) -> str:
        """The question: `best tower`, `festival 6,3`, or the tile."""
        return str(self.answer.question)

    @property
    def festival(self) -> Festival | None:
        """The festival of a festival question."""
        from planner.tower import FestivalTower

        question = self.answer.question
        return question.festival if isinstance(question, FestivalTower) else None

    @property
    def is_tile(self) -> bool:
        from planner.tower import TileCheck

        return isinstance(self.answer.question, TileCheck)

    def output(self, interrupted: bool = False) -> BestOutput | CheckOutput:
        """The JSON form; `interrupted` when Ctrl-C stopped the solve (its best so far)."""
        from planner.tower import height_weight
        from service.results.base import output_of
        from service.results.towers import BestOutput, CheckOutput

        result, why = self.answer.result, self.answer.why_not
        tower = result.tower
        bound = _number(result.bound)
        if self.festival is None and not self.is_tile and bound is not None:
            bound = int(bound) // height_weight(self.answer.pool.total)  # a proven height
        data: dict[str, Any] = {
            "status": self.status,
            "tower": str(tower) if tower else None,
            "levels": tower.as_lists() if tower else None,
            "height": tower.height if tower else None,
            "castellers": tower.castellers if tower else None,
            "score": result.objective if self.festival is not None else None,
            "uses": _uses(result.uses),
            "bound": bound,
            "wall_time_s": round(result.wall_time_s, 6),
            # the solve's own word (`SolveResult.clock_hit`): the wall clock, not the
            # deterministic budget (planner.tower.configure: it ends a solve well within the
            # limit unless the machine is very busy), stopped it, so the answer may differ
            # from one run (or machine) to the next
            "stopped_by_clock": result.clock_hit,
            "engine": result.engine,
            "reasons": list(why.reasons) if why else [],
            "closest": str(why.closest.tower) if why and why.closest and why.closest.tower
            else None,
            "suggestions": [s.as_dict() for s in why.suggestions] if why else [],
        }
        if why is not None:  # optional: only with a why-not
            data["why_not_complete"] = why.complete
        if self.is_tile:
            # null when the time limit came first: neither a yes nor a proven no
            data["achievable"] = {"optimal": True, "infeasible": False}.get(self.status)
        if interrupted:
            data["interrupted"] = True
        data = _what_if(data, self.what_if_rules)
        return output_of(CheckOutput, data) if self.is_tile else output_of(BestOutput, data)


def best(asked: Asked, festival: str | None, solving: Solving) -> TowerReply:
    """The team's tallest (then widest) tower, or with `festival` (its size tokens, `6,3`)
    the best festival score. Asked of a game's player with no festival: the next festival
    they can still reach (`models.game.next_reachable_festival`, under the same readings),
    or the tallest tower when none is left."""
    # one limit for the whole question (its team and festival too)
    return _within_limit(solving, lambda: _best(asked, festival, solving))


def _within_limit(solving: Solving, ask: Callable[[], TowerReply]) -> TowerReply:
    """`ask()` within the one time limit of its solves (the team and the model too)."""
    with time_limited(solving.time_limit):
        return ask()


def _best(asked: Asked, festival: str | None, solving: Solving) -> TowerReply:
    from models.tower import Festival
    from planner.tower import BestTower, FestivalTower

    team = team_of(asked)
    looked_for, reached = None, None
    if festival is None and team.game is not None and team.player is not None:
        from models.game import next_reachable_festival
        from service.castell.view import festival_here

        looked_for = team.player.name
        # the festival where the pawn stands this round first (the one its tower may be
        # named for), else the next one it can reach
        reached = festival_here(team.game.state, looked_for) or next_reachable_festival(
            team.game.state, team.game.board, looked_for, team.rules)
        if reached is not None:
            festival = ",".join(map(str, reached.size_tokens))
    question: Question = BestTower() if festival is None \
        else FestivalTower(Festival.parse(festival, team.rules))
    return TowerReply(_answer(question, team, solving), solving.time_limit,
                      team.what_if_rules, looked_for, reached)


def check(tile: str, asked: Asked, solving: Solving) -> TowerReply:
    """Can the team claim `tile` (its text, or its id on the board: `LP09`)?"""
    from models.tower import parse_tile
    from planner.tower import TileCheck

    team = team_of(asked)
    question = TileCheck(parse_tile(team.tile_text(tile)))
    # one limit for the solve and its why-not
    return _within_limit(solving, lambda: TowerReply(_answer(question, team, solving),
                                                     solving.time_limit, team.what_if_rules))


def best_batch(lines: Iterable[tuple[int, str]], workers: int = 1, seed: int = 0
               ) -> Iterator[BatchItem[BestOutput | CheckOutput]]:
    """`best` of each numbered JSON line (`service.castell.tower_lines.BestLine`)."""
    from service.batch import answer_lines
    from service.castell.tower_lines import BestLine

    return answer_lines(lines, BestLine, lambda line: best(
        _asked(line), line.festival,
        Solving(line.engine, line.time_limit, workers, seed)).output())


def check_batch(lines: Iterable[tuple[int, str]], workers: int = 1, seed: int = 0
                ) -> Iterator[BatchItem[BestOutput | CheckOutput]]:
    """`check` of each numbered JSON line (`service.castell.tower_lines.CheckLine`)."""
    from service.batch import answer_lines
    from service.castell.tower_lines import CheckLine

    return answer_lines(lines, CheckLine, lambda line: check(
        line.tile, _asked(line), Solving(line.engine, line.time_limit, workers, seed)).output())


def engine_named(name: str) -> Engine:
    from planner.tower import ENGINES

    for engine in ENGINES:
        if name == engine:
            return engine
    raise SpecError(f"unknown engine '{name}' (engines: {', '.join(ENGINES)})", token=name)


def _answer(question: Question, team: Team, solving: Solving) -> Answer:
    from planner.tower import DEFAULT_TOWER, answer

    if team.pool is None:
        raise SpecError("a tower question needs a pool, or a game and a player", field="pool")
    return answer(question, team.pool, team.ranks, team.rules,
                  engine=engine_named(solving.engine), time_limit=solving.time_limit,
                  workers=solving.workers, seed=solving.seed,
                  budget=solving.budget or DEFAULT_TOWER)


def _asked(line: Any) -> Asked:
    return Asked(pool=line.pool, skills=line.skills, rules=line.rules)


def _uses(uses: SkillUses | None) -> dict[str, int] | None:
    return uses.as_dict() if uses else None


def _number(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value


def _what_if(data: dict[str, Any], rules: str | None) -> dict[str, Any]:
    """`what_if_rules` only on a what-if's answer: the others print as they always did."""
    return data if rules is None else {**data, "what_if_rules": rules}
