"""The turn advisor: every legal action of this turn, ranked by the final score it leads to.

On the player's last turn a take's value is exact: the player's final score right after it
(their tableau is complete). [reading `last_turn_scope`, a switch: opponents who move later can
still hand out gold or keys with `opponents_gain`; by default ("own_turn") the advisor counts the
score at the end of the player's own turn, which is what the player's choice decides; "game_end"
samples the last turn like any other.] A key move is worth its best take in the
other (face-up) row; a key renew reveals hidden cards, so even then it is sampled.

Earlier, an action's value is the mean final score over sampled completions: in each sample the
hidden decks are shuffled from the cards the player cannot see (the deck *contents* are public,
their order is not; the file's order and seed are never read), then the action is played (after
a key, the greedy take), and the greedy bot plays every seat to the end. Every action sees the
same samples (common random numbers), so differences between actions are not sampling noise
between different deals. Successive halving spends the samples: all actions get a few, the
better half gets twice as many, and so on until the best few have the full count.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from models.combo import (
    CARDS_EACH,
    LOCATIONS,
    Action,
    GameState,
    Key,
    Take,
    apply,
    legal_actions,
    score_tableau,
)
from models.errors import SpecError
from planner.clock import now
from planner.combo.bots import Bot, Values, greedy_choice, play_out_until, rate_takes
from planner.combo.budget import DEFAULT_COMBO, ComboBudget
from planner.combo.budget import Value as Value  # the readings, as `planner.combo` names them
from planner.stopping import stop_requested, time_left

MAX_SAMPLES = 10_000


LastTurn = Literal["own_turn", "game_end"]
LAST_TURN: tuple[LastTurn, ...] = ("own_turn", "game_end")
VALUES: tuple[Value, ...] = ("score", "margin")


@dataclass
class ActionValue:
    action: Action
    exact: bool
    values: list[float] = field(default_factory=list)
    reason: str = ""

    @property
    def samples(self) -> int:
        return len(self.values)

    @property
    def value(self) -> float:
        return statistics.fmean(self.values) if self.values else float("-inf")

    @property
    def stderr(self) -> float:
        if self.exact or len(self.values) < 2:
            return 0.0
        return statistics.stdev(self.values) / math.sqrt(len(self.values))

    def as_dict(self) -> dict[str, object]:
        # an action the time limit left unsampled has no value yet (null, never -Infinity)
        return {"action": str(self.action),
                "value": round(self.value, 4) if self.values else None,
                "stderr": round(self.stderr, 4), "samples": self.samples, "exact": self.exact,
                "reason": self.reason}


@dataclass(frozen=True)
class Advice:
    player: str
    last_turn: bool
    ranking: list[ActionValue]  # best first
    complete: bool  # False: the time limit came before every planned sample
    wall_time_s: float
    value: Value = "score"  # what a sampled value is (`VALUES`)

    def as_dict(self) -> dict[str, object]:
        return {"player": self.player, "last_turn": self.last_turn, "value": self.value,
                "complete": self.complete,
                "wall_time_s": round(self.wall_time_s, 3),
                "ranking": [a.as_dict() for a in self.ranking]}


def determinize(state: GameState, rng: random.Random) -> GameState:
    """A possible world from the mover's view: each deck's cards (a public set) in a random
    order, and a fresh seed for later reshuffles. The deck lists are sorted first, so the real
    order cannot leak through the shuffle."""
    table = state.now.model_copy(deep=True)
    for location in LOCATIONS:
        cards = sorted(table.decks[location])
        rng.shuffle(cards)
        table.decks[location] = cards
    # the start position holds the real deal; a sample never needs it (no undo in a rollout)
    return state.model_copy(update={"now": table, "start": table, "recorded": False,
                                    "seed": rng.randrange(2**62), "history": []})


def final_total(state: GameState, seat: int) -> int:
    player = state.now.players[seat]
    return score_tableau(player.grid(), state.deck(), player.keys, player.gold,
                         player.purses).total


def _reason(state: GameState, action: Action, seat: int) -> str:
    """One line: which scoring conditions the action feeds right now (points that change)."""
    if isinstance(action, Key):
        if action.kind == "move":
            return f"spend a key: take from the {_other_row(state)} row"
        return "spend a key: renew the Messenger's row (new cards, hidden until then)"
    deck = state.deck()
    me = state.now.players[seat]
    before = score_tableau(me.grid(), deck, me.keys, me.gold, me.purses)
    after_state = apply(state, action)
    mine = after_state.now.players[seat]
    after = score_tableau(mine.grid(), deck, mine.keys, mine.gold, mine.purses)
    old = {c.card: c.points for c in before.cards}
    changed = [f"{c.card} {c.points - old.get(c.card, 0):+d}" for c in after.cards
               if c.points != old.get(c.card, 0)]
    parts = []
    if isinstance(action, Take) and action.face_down:
        parts.append("flip: +gold, +keys")
    if changed:
        parts.append("scrolls " + ", ".join(changed))
    if after.keys != before.keys:
        parts.append(f"keys {after.keys - before.keys:+d}")
    purse = sum(after.purses.values()) - sum(before.purses.values())
    if purse:
        parts.append(f"purse gold {purse:+d}")
    return "; ".join(parts) + f" (now {after.total})" if parts else f"no points yet (now " \
        f"{after.total})"


def _other_row(state: GameState) -> str:
    return "village" if state.now.messenger == "castle" else "castle"


def _after(state: GameState, action: Action, values: Values) -> GameState:
    """The action, then (after a key) the greedy take, so that the turn is complete."""
    state = apply(state, action)
    if isinstance(action, Key):
        state = apply(state, greedy_choice(state, values)[0])
    return state




def advise(state: GameState, player: str | None = None, *, samples: int = 16, seed: int = 0,
           time_limit: float | None = None, candidates: int | None = None,
           reasons: bool = True, last_turn: LastTurn = "own_turn", value: Value = "score",
           spread: bool = False, values: Values | None = None,
           clock: Callable[[], float] = now) -> Advice:
    """Rank every legal action of the player to move (see the module text).

    `candidates` keeps only that many actions by the greedy one-move value before sampling (the
    advisor bot's budget); None ranks them all. `last_turn` is the reading `last_turn_scope`:
    "own_turn" scores a last-turn action exactly at the end of the player's turn, "game_end"
    samples it like any other (opponents who move later may still hand out gold or keys).
    `value` is what a sampled completion is worth (`VALUES`; an exact last-turn value is always
    the player's own score). `spread` makes the shortlist the best take of each different card
    and way of taking it (buy, flip, ability choices) before a second cell of the same.
    `values` keeps the greedy bot's position values (a new cache for this question when None;
    the advisor bot passes its own, kept over its game)."""
    started = clock()
    values = Values() if values is None else values
    table = state.now
    mover = _mover(state, player)
    if not 1 <= samples <= MAX_SAMPLES:
        raise SpecError(f"samples are 1..{MAX_SAMPLES}")
    actions = legal_actions(state)
    if not actions:
        raise SpecError("no action to advise: the game waits for 'reveal' of new cards")
    seat = table.current
    _check_readings(last_turn, value)
    last = len(table.player.tableau) == CARDS_EACH - 1 and last_turn == "own_turn"
    if candidates is not None:
        actions = _shortlist(state, actions, candidates, values, spread)
    ranking = [ActionValue(a, exact=last and not (isinstance(a, Key) and a.kind == "renew"))
               for a in actions]
    for item in ranking:
        if item.exact:
            item.values = [float(_exact(state, item.action, seat))]
    # the request's own deadline too (a command's one time limit), and its cancel
    complete = _sample(state, [r for r in ranking if not r.exact], samples, seed, seat,
                       None if time_limit is None else started + time_left(time_limit), clock,
                       values, value)
    # successive halving: the actions that survived more rounds (more samples) first, each
    # round by mean; an exact value counts as fully sampled. Stable: ties keep the referee's
    # order.
    ranking.sort(key=lambda r: (-(samples if r.exact else r.samples), -r.value))
    if reasons:
        for item in ranking:
            item.reason = _reason(state, item.action, seat)
    return Advice(mover, last, ranking, complete, clock() - started, value)


def _mover(state: GameState, player: str | None) -> str:
    """The player to move, who must be `player` when one is named."""
    table = state.now
    if table.game_over:
        raise SpecError("the game is over: nothing to advise")
    mover = table.player.name
    if player is not None and table.named(player).name != mover:
        raise SpecError(f"it is {mover}'s turn, not {player}'s: the advisor ranks the actions "
                        "of the player to move")
    return mover


def _check_readings(last_turn: str, value: str) -> None:
    if last_turn not in LAST_TURN:
        raise SpecError(f"last_turn is one of {', '.join(LAST_TURN)}")
    if value not in VALUES:
        raise SpecError(f"value is one of {', '.join(VALUES)}")


def _exact(state: GameState, action: Action, seat: int) -> int:
    if isinstance(action, Take):
        return final_total(apply(state, action), seat)
    moved = apply(state, action)  # a key move: the best take in the other row
    return max(final_total(apply(moved, a), seat) for a in legal_actions(moved)
               if isinstance(a, Take))


def _shortlist(state: GameState, actions: list[Action], keep: int, values: Values,
               spread: bool = False) -> list[Action]:
    rated = rate_takes(state, values)
    rated.sort(key=lambda r: -r.value)  # stable: ties keep the referee's order
    if spread:
        # the best cell of each way to take a card first, then the second-best cells, ...
        seen: dict[tuple[object, ...], int] = {}
        rank = []
        for r in rated:
            take = r.action
            assert isinstance(take, Take)
            way = (take.card, take.face_down, take.neighbour, take.choices, take.discards)
            seen[way] = seen.get(way, 0) + 1
            rank.append(seen[way])
        order = sorted(range(len(rated)), key=lambda i: rank[i])
        rated = [rated[i] for i in order]
    chosen: list[Action] = [r.action for r in rated[:keep]]
    move = Key("move")
    if move in actions:
        chosen.append(move)
    return [a for a in actions if a in chosen]


def _sample(state: GameState, items: list[ActionValue], samples: int, seed: int, seat: int,
            deadline: float | None, clock: Callable[[], float], values: Values,
            value: Value = "score") -> bool:
    """Successive halving over the sampled actions; False when the deadline cut it short."""
    if not items:
        return True
    worlds: list[GameState] = []
    rng = random.Random(f"advise:{seed}")
    def greedy(world: GameState, rng: random.Random) -> Action:
        return greedy_choice(world, values)[0]

    bots: list[Bot] = [greedy] * len(state.now.players)
    survivors = list(items)
    target = max(1, samples // 8) if len(items) > 3 else samples

    def over() -> bool:
        return (deadline is not None and clock() > deadline) or stop_requested()

    while True:
        while len(worlds) < target:
            worlds.append(determinize(state, rng))
        for item in survivors:
            for k in range(item.samples, target):
                if over():
                    return False
                world = _after(worlds[k], item.action, values)
                done = play_out_until(world, bots, random.Random(f"{seed}:{k}"), over)
                if done is None:  # cut short: this sample is not counted
                    return False
                item.values.append(_worth(done, seat, value))
        if target >= samples:
            return True
        survivors.sort(key=lambda r: -r.value)
        survivors = survivors[:max(3, math.ceil(len(survivors) / 2))]
        target = min(samples, target * 2)


def _worth(done: GameState, seat: int, value: Value) -> float:
    mine = final_total(done, seat)
    if value == "score":
        return float(mine)
    return float(mine - max(final_total(done, other) for other in range(len(done.now.players))
                            if other != seat))


# the advisor bot's default rollouts (`ComboBudget.bot_samples`), for the tournaments' options
BOT_SAMPLES = DEFAULT_COMBO.bot_samples


def advisor_bot(samples: int | None = None, candidates: int | None = None,
                value: Value | None = None, spread: bool | None = None,
                budget: ComboBudget = DEFAULT_COMBO) -> Bot:
    """The advisor as a bot: the greedy shortlist, then rollouts ranked by `value` (the margin
    over the best opponent by default: in a game against others, that is what wins); exact on
    its last turn. Each setting left None is the budget's (`bot_samples`, `bot_candidates`,
    `bot_value`, `bot_spread`); its values cache holds `budget.max_cached`."""
    samples = budget.bot_samples if samples is None else samples
    candidates = budget.bot_candidates if candidates is None else candidates
    value = budget.bot_value if value is None else value
    spread = budget.bot_spread if spread is None else spread
    kept = Values(budget.max_cached)  # this bot's own, over the game it plays

    def choose(state: GameState, rng: random.Random) -> Action:
        advice = advise(state, samples=samples, seed=rng.randrange(2**31),
                        candidates=candidates, reasons=False, value=value, spread=spread,
                        values=kept)
        return advice.ranking[0].action

    return choose
