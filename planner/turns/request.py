"""One plan question and its answer: a `PlanRequest` (the position, the player, the goal, the
horizon, the budget and the options) and a `PlanResult` (the plan shown, and what the whole
answer adds to it: the goal asked, the festivals ahead, the forecasts, the call's clock and
time). `planner.turns.answer.plan(request, clock)` answers one with the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from models.game import Action, Board, FestivalSpace, GameState
from models.tower import Rules
from planner.turns.budget import DEFAULT_BUDGET, PlanBudget
from planner.turns.forecast import Forecast
from planner.turns.horizon import ADVICE_GOAL, Goal
from planner.turns.result import Plan
from planner.turns.upcoming import Ahead


class RivalUnfinished(RuntimeError):
    """A rival model's turn did not finish: a tower search it needs was stopped by the
    request's cancel or clock (`Rivals.turn` may raise it)."""


class RivalTurn(Protocol):
    """A whole turn as a bot plays it: its actions (the last one ends the turn) and the
    festival towers it names ((location, tower text or None: not competing))."""

    @property
    def actions(self) -> tuple[Action, ...]: ...

    @property
    def towers(self) -> tuple[tuple[str, str | None], ...]: ...


class Rivals(Protocol):
    """The model of a rival the win goal plans against (`planner.castell.GREEDY_RIVALS`: the
    greedy bot): the turn a rival to move plays, from what they see, and a turn played
    through the referee."""

    def turn(self, state: GameState, board: Board) -> RivalTurn:
        """The turn of the player to move in `state` (`RivalUnfinished`: stopped first)."""
        ...

    def play(self, state: GameState, board: Board, turn: RivalTurn) -> GameState:
        """The state after the player to move plays `turn`."""
        ...


@dataclass(frozen=True)
class RivalModels:
    """Several named models of the rivals (a `Rivals` itself: the first one's turns): the win
    goal weighs each first turn against the answers of each, by the mean margin, rather than
    assume the rivals play like any one of them."""

    named: tuple[tuple[str, Rivals], ...]

    def __post_init__(self) -> None:
        if not self.named:
            raise ValueError("RivalModels needs at least one model")

    def turn(self, state: GameState, board: Board) -> RivalTurn:
        return self.named[0][1].turn(state, board)

    def play(self, state: GameState, board: Board, turn: RivalTurn) -> GameState:
        return self.named[0][1].play(state, board, turn)


def models_of(rivals: Rivals) -> tuple[tuple[str, Rivals], ...]:
    """The named models `rivals` holds (one, unnamed, for a single model)."""
    return rivals.named if isinstance(rivals, RivalModels) else (("", rivals),)


@dataclass(frozen=True)
class PlanRequest:
    """A plan question: `player`'s next turns from `state` on `board`, under the readings
    `rules` (the game's own, or a what-if's), for `goal`.

    `turns`: how many (None: the goal's default horizon, through the next festival the
    player could compete in); `cautious`: no recruit where a rival could recruit first;
    `fixed`: a what-if's first actions of the first turn (the plan without them is solved
    too, for the difference, unless `compare` is False); `workers` and `seed`: CP-SAT's;
    `budget`: the planner's tuning; `least_turns`: the fewest turns of the default horizon;
    `rivals`: the model of a rival the win goal plans against (the win goal needs one);
    `value_only`: only the plan's value is read (a plan the win goal weighs a first turn by):
    the goal's stage alone, no tie-breaks, explanations or forecasts. Its value and proof are
    the whole plan's (the goal's stage fixes the value before any tie-break, which only picks
    among plans of that value)."""

    state: GameState
    board: Board
    player: str
    rules: Rules
    goal: Goal = ADVICE_GOAL
    turns: int | None = None
    cautious: bool = False
    fixed: tuple[Action, ...] = ()
    workers: int = 1
    seed: int = 0
    budget: PlanBudget = DEFAULT_BUDGET
    compare: bool = True
    least_turns: int = 1
    rivals: Rivals | None = None
    value_only: bool = False


@dataclass(frozen=True)
class Chances:
    """The player's estimated chance to win (0 to 1) and final margin to the best rival from
    where they asked, and the games the estimate was fitted on (`planner.turns.win.chances`)."""

    win: float
    margin: float
    games: int


@dataclass(frozen=True)
class Answered:
    """A first turn as the rivals' answers leave it: the player's points at the end of the
    plan from there (or at the game's end), the best rival's then, and the margin."""

    mine: float  # a mean over several models of the rivals (`RivalModels`)
    rivals: float

    @property
    def margin(self) -> float:
        return self.mine - self.rivals


# whose first turn the win goal weighed: a code for programs, and its words for players
FirstTurnSource = Literal["plan", "greedy"]
FIRST_TURN_WORDS: dict[FirstTurnSource, str] = {
    "plan": "the cautious plan's", "greedy": "the greedy bot's"}


@dataclass(frozen=True)
class WeighedTurn:
    """A first turn the win goal weighed: whose it is (the cautious plan's, the greedy
    bot's), what the rivals' answers and the plan from there leave, and whether it is the one
    advised."""

    source: FirstTurnSource
    answered: Answered
    chosen: bool

    @property
    def name(self) -> str:
        """Whose first turn it is, in words."""
        return FIRST_TURN_WORDS[self.source]


@dataclass(frozen=True)
class PlanResult:
    """The answer to a `PlanRequest`: the plan shown (`plan`, the turn planner's: its own
    goal is the one it was solved for, the score goal's for the win goal) and what the
    answer adds to it: the goal asked, the festivals ahead of its start (within reach or why
    not), the next one the player could compete in, the festival the default horizon had no
    time left to plan through (`untried`), the forecasts, the assumptions (the plan's and
    the goal's own), the what-if's fixed actions and the plan without them, whether a wall
    clock decided anything (then another run may answer otherwise) and the whole call's
    wall time."""

    goal: Goal
    plan: Plan
    ahead: tuple[Ahead, ...]
    next_festival: FestivalSpace | None
    untried: FestivalSpace | None
    forecasts: tuple[Forecast, ...]
    assumptions: tuple[str, ...]
    fixed: tuple[Action, ...]
    unfixed: Plan | None
    clock_hit: bool
    wall_time_s: float
    chances: Chances | None = None  # the win goal's, once its model is fitted on enough games
    # the win goal's first turns weighed against the rivals' answers, the advised one first
    weighed: tuple[WeighedTurn, ...] = ()

    @classmethod
    def of(cls, plan: Plan, *, ahead: tuple[Ahead, ...],
           next_festival: FestivalSpace | None, untried: FestivalSpace | None = None,
           forecasts: tuple[Forecast, ...] = (), wall_time_s: float) -> PlanResult:
        """The turn planner's `plan`, as its own goal's answer."""
        return cls(plan.goal, plan, ahead, next_festival, untried, forecasts, plan.assumptions,
                   plan.fixed, plan.unfixed, plan.clock_hit, wall_time_s)

    @property
    def found(self) -> bool:
        """A plan was found."""
        return self.plan.found
