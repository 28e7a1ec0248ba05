"""Castle Combo bots: `random`, `greedy` and `advisor`. A bot picks one legal action for the
player to move, from what that player can see.

`greedy` scores every take by the acting player's position right after it: the exact end score if
the game stopped now (purses filled from the gold in hand, keys 1 point each) plus a small value
for gold still in hand while turns remain (it buys later cards). That is its lookahead on purses
and keys: gold that would fill a purse is worth the purse rate, gold beyond it `GOLD_IN_HAND`.
It also weighs a key that moves the Messenger (the other row is face up, so visible) by the best
take there. It never renews a row: that would need the hidden cards it reveals.

The values it computes are kept by a `Values` cache that its owner passes in (a `Greedy` bot
keeps one for the games it plays; the advisor one per question), never by the process.

`OneStep` makes a Castle Combo bot a bot of either game (`planner.tournaments.Bot`): it sees
its seat's view of the game in play (`models.combo.play.ComboInPlay`: the decks' order hidden)
and returns its turn's one step.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from models.combo import (
    CARDS_EACH,
    Action,
    Card,
    Deck,
    GameState,
    Key,
    Location,
    Placed,
    PlayerState,
    Take,
    apply,
    legal_actions,
    walk,
)
from models.combo.cards import Gain
from models.combo.play import ComboInPlay
from models.combo.referee import other
from models.combo.scoring import MAX_GOLD, MAX_KEYS, total_of
from models.combo.tableau import Pos
from planner.combo.budget import ComboBudget

GOLD_IN_HAND = 0.5  # points per gold beyond the purses, while cards remain to be bought

Bot = Callable[[GameState, random.Random], Action]


class Values:
    """Position values already computed, for the cards of one game (the list object they
    belong to; other cards empty it): rollouts of the same turn revisit the same tableaux many
    times. At most `most` values (`ComboBudget.max_cached`), then it starts again."""

    def __init__(self, most: int = ComboBudget.max_cached) -> None:
        self._values: dict[tuple[object, ...], float] = {}
        self._cards: object = None
        self._most = most

    def __len__(self) -> int:
        return len(self._values)

    def of(self, player: PlayerState, state: GameState, deck: Deck) -> float:
        if self._cards is not state.cards or len(self._values) >= self._most:
            self._values.clear()
            self._cards = state.cards
        key = (tuple((p.card, p.row, p.column, p.face_down) for p in player.tableau),
               player.keys, player.gold, tuple(sorted(player.purses.items())))
        value = self._values.get(key)
        if value is None:
            value = _value(player, deck)
            self._values[key] = value
        return value


def _value(player: PlayerState, deck: Deck) -> float:
    total, gold_left = quick_score(player, deck)
    left = CARDS_EACH - len(player.tableau)
    return total + (GOLD_IN_HAND * gold_left if left else 0.0)


def position_value(player: PlayerState, state: GameState, deck: Deck | None = None,
                   values: Values | None = None) -> float:
    """The greedy evaluation of one player's position (see the module text), kept in
    `values` when given."""
    deck = deck or state.deck()
    return _value(player, deck) if values is None else values.of(player, state, deck)


def quick_score(player: PlayerState, deck: Deck) -> tuple[int, int]:
    """(total, gold left) of `score_tableau` for a tableau the referee built: the rules core's
    `total_of`, without the input checks, the grid and the printed sheet (the bots' hot path;
    the tests hold it to `score_tableau`)."""
    if not player.tableau:
        return player.keys, player.gold
    top = min(p.row for p in player.tableau)
    left = min(p.column for p in player.tableau)
    face_up: dict[Pos, Card] = {}
    face_down: set[Pos] = set()
    for p in player.tableau:
        if p.face_down:
            face_down.add((p.row - top, p.column - left))
        else:
            face_up[(p.row - top, p.column - left)] = deck.card(p.card)
    return total_of(face_up, frozenset(face_down), player.keys, player.gold, player.purses)


@dataclass(frozen=True)
class Rated:
    action: Action
    then: Take | None  # after a key move, the take it was rated with
    value: float


def _cell_free(card: Card) -> bool:
    """Whether the card's ability gains the same wherever it is placed (no row, column or cross
    count), so one application of it serves every cell."""
    return not any(isinstance(e, Gain) and e.count is not None
                   and getattr(e.count, "scope", "tableau") != "tableau"
                   for e in walk(list(card.ability)))


def rate_takes(state: GameState, values: Values | None = None) -> list[Rated]:
    """Every legal take now, with the greedy value of the mover's position after it (in the
    order `legal_actions` gives them). A take is applied by the referee once per card, mode and
    ability choice; for the other cells the placed card is only moved, when its ability does not
    depend on the cell."""
    me = state.now.current
    mover = state.now.players[me]
    deck = state.deck()
    done: dict[tuple[object, ...], PlayerState] = {}
    down: dict[tuple[object, ...], float] = {}
    rated = []
    # the referee copies the whole position for each take; the mover's result does not depend
    # on the decks, discard piles or history, so they are left out of the copies (the rows
    # then cannot refill, which changes nothing for the mover)
    empty: dict[Location, list[str]] = {"castle": [], "village": []}
    light = state.model_copy(update={
        "now": state.now.model_copy(update={"decks": empty, "discard": empty}),
        "history": []})
    for action in legal_actions(state):
        if not isinstance(action, Take):
            continue
        key = (action.card, action.face_down, action.neighbour, action.choices,
               action.discards)
        base = done.get(key)
        if action.face_down and action.at is not None and ("down", action.at) in down:
            # a face-down card carries nothing: which card it is changes no score
            rated.append(Rated(action, None, down[("down", action.at)]))
            continue
        if action.face_down and action.at is not None:
            # the referee's flip, for the mover: the card placed face down, then the flip's gold
            # and keys (capped as the referee caps them); no ability, nothing else changes
            player = mover.model_copy(update={
                "tableau": [*mover.tableau, Placed(card=action.card, row=action.at[0],
                                                   column=action.at[1], face_down=True)],
                "gold": min(MAX_GOLD, mover.gold + state.rules.flip_gold),
                "keys": min(MAX_KEYS, mover.keys + state.rules.flip_keys)})
        elif base is None or action.at is None or not _cell_free(deck.card(action.card)):
            player = apply(light, action).now.players[me]
            done.setdefault(key, player)
        else:
            placed = Placed(card=action.card, row=action.at[0], column=action.at[1],
                            face_down=action.face_down)
            player = base.model_copy(update={"tableau": [*base.tableau[:-1], placed]})
        value = position_value(player, state, deck, values)
        if action.face_down and action.at is not None:
            down[("down", action.at)] = value
        rated.append(Rated(action, None, value))
    return rated


def greedy_choice(state: GameState, values: Values | None = None) -> tuple[Action, float]:
    """The greedy action and its value; ties go to the first in `legal_actions` order."""
    rated = rate_takes(state, values)
    best = max(rated, key=lambda r: r.value)
    action: Action = best.action
    value = best.value
    table = state.now
    # a key move is legal exactly then (`legal_actions`; the takes above exist, so the game
    # is on and nothing waits for a reveal)
    if not table.key_used and table.player.keys >= 1 and other(table.messenger) not in table.dead:
        moved = apply(state, Key("move"))
        there = max(rate_takes(moved, values), key=lambda r: r.value)
        if there.value > value:
            action, value = Key("move"), there.value
    return action, value


class Greedy:
    """The greedy bot with its own cache of position values (for the games it plays)."""

    def __init__(self) -> None:
        self.values = Values()

    def __call__(self, state: GameState, rng: random.Random) -> Action:
        return greedy_choice(state, self.values)[0]


def greedy(state: GameState, rng: random.Random) -> Action:
    """The greedy action, computed afresh (no values kept: a `Greedy()` keeps them)."""
    return greedy_choice(state)[0]


def random_bot(state: GameState, rng: random.Random) -> Action:
    """Any legal action, uniformly (a key too), from the bot's own generator."""
    return rng.choice(legal_actions(state))


def play_out(state: GameState, bots: Sequence[Bot], rng: random.Random) -> GameState:
    """Play to the end, seat i by bots[i]."""
    while not state.now.game_over:
        state = apply(state, bots[state.now.current](state, rng))
    return state


def play_out_until(state: GameState, bots: Sequence[Bot], rng: random.Random,
                   stop: Callable[[], bool]) -> GameState | None:
    """`play_out`, or None when `stop()` says so before a move (a time limit: one rollout of
    a card file with many ability choices takes seconds)."""
    while not state.now.game_over:
        if stop():
            return None
        state = apply(state, bots[state.now.current](state, rng))
    return state


# bot name -> a new bot of that kind (each game's own: what a bot keeps stays with it)
BOTS: dict[str, Callable[[], Bot]] = {"random": lambda: random_bot, "greedy": Greedy}


@dataclass(frozen=True)
class OneStep:
    """A Castle Combo bot as a bot of either game: it sees its seat's view and gives its one
    step (what it decides is the wrapped bot's, unchanged)."""

    bot: Bot

    def __call__(self, view: ComboInPlay, rng: random.Random) -> tuple[Action]:
        return (self.bot(view.state, rng),)
