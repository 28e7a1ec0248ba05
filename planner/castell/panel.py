"""A panel of rival styles: the ways of playing Castell a player meets at a table, as bots and
as models of a rival (`PANEL`, for the advice to weigh a turn against several kinds of rival).

Each style plays from what its player sees (`seen`: no bag, no seed), every step through the
referee, a turn in about the greedy bot's time (no plan is searched). All but `noisy` are the
greedy bot (`planner.castell.greedy`) valuing positions under other weights (`STYLES`):

- `greedy`: the greedy bot itself, unchanged.
- `tiles`, the tile hunter: claims local performances. Tiles and their points count double,
  a tile it could claim next turn and every tile its team can meet count far more, and skill
  ranks too (exhibitions ask for skills); a special token a third less (it spends them on
  claims); festivals count half.
- `festivals`, the festival hunter: plays for the festivals: prizes count double, the rise of
  its best tower and the size tokens half again; a bigger team (a taller tower) counts more,
  and tiles half.
- `traveller`: collects regions. Region variety counts three times and every region where
  it has earned something three points more (now and in what a festival or a tile promises),
  so it moves on to new regions and claims or competes where it has not scored yet.
- `sizes`, the size-token builder: size tokens count three times, and it keeps castellers of
  the sizes the festivals of the next rounds reward (up to three of each size), so it
  recruits them and wins the tokens with the most of a size.
- `recruiter`: grows the team early. Every casteller counts four times as much and a special
  token a third less, so it spends its tokens on extra recruits from the first rounds
  while others keep them for claims and moves.
- `noisy`: the greedy bot with slips: at each step, with chance 1 in 4 (from its own random
  generator), it takes any legal action instead of greedy's choice, uniformly; a slip never
  ends a turn before its first action when any other action is legal (nobody passes a whole
  turn on a whim); after that ending the turn is one of the actions it may slip to.

`score`, the score planner (`castell plan --goal score`, a bot of `planner.castell.bots`), is
the panel's planning style; it is not in `PANEL`, as a rival model it would search a plan for
every rival turn the advice simulates.

As a model of a rival (`PANEL`) a style has no generator of its own: `noisy` seeds one from
the round and the name of the player to move (`NoisyRivals`), so the same position always
gets the same turn, whoever asks and in whatever order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from models.game import Action, Board, EndTurn, GameState, apply, legal_actions
from planner.castell.greedy import WEIGHTS, View, Weights, best_step, greedy_turn
from planner.castell.rivals import GREEDY_RIVALS, GreedyRivals
from planner.castell.turn import Turn, festival_finder, play_turn, seen, tile_finder
from planner.turns import RivalModels, RivalTurn

# each style's weights: what it values over greedy's (`Weights`' defaults)
STYLES: dict[str, Weights] = {
    "tiles": Weights(tile_scale=2.0, tile_next=0.6, tile_meet=0.5, rank=0.8, rank_cap=3,
                     token=1.0, prize_scale=0.5, tower_scale=0.5),
    "festivals": Weights(prize_scale=2.0, tower_scale=1.5, size_scale=1.5, casteller=0.45,
                         tile_scale=0.5, tile_next=0.4, tile_meet=0.1),
    "traveller": Weights(variety_scale=3.0, region_bonus=3.0),
    "sizes": Weights(size_scale=3.0, size_casteller=0.6),
    "recruiter": Weights(casteller=1.2, token=1.0),
}

NOISE = 0.25  # the noisy style's chance of a slip at each step


@dataclass(frozen=True)
class StyleBot:
    """A style of the panel as a bot: the greedy turn under its weights (it draws nothing)."""

    weights: Weights = WEIGHTS

    def __call__(self, state: GameState, board: Board, rng: random.Random) -> Turn:
        return greedy_turn(state, board, self.weights)


def noisy_turn(state: GameState, board: Board, rng: random.Random, weights: Weights = WEIGHTS,
               chance: float = NOISE) -> Turn:
    """Greedy's turn with slips: at each step, with `chance` (one draw of `rng` a step), a
    uniformly random legal action (`slip`) instead of greedy's choice."""
    state = seen(state)
    view = View(state, board, weights)
    actions: list[Action] = []
    while True:
        after: GameState | None
        if rng.random() < chance:
            action = slip(state, board, rng, started=bool(actions))
            after = None if isinstance(action, EndTurn) else apply(
                state, board, action, state.game_rules, festival_finder)
        else:
            action, after = best_step(state, view)
        if after is None:
            return Turn((*actions, EndTurn()))
        actions.append(action)
        state = after


def slip(state: GameState, board: Board, rng: random.Random, started: bool) -> Action:
    """A uniformly random legal action (one draw of `rng`); not the end of the turn before
    the turn's first action while another action is legal."""
    options = legal_actions(state, board, state.game_rules, tiles=tile_finder)
    if not started:
        options = [a for a in options if not isinstance(a, EndTurn)] or options
    return rng.choice(options)


@dataclass(frozen=True)
class NoisyBot:
    """The noisy style as a bot: greedy's turn with slips drawn from the bot's generator."""

    weights: Weights = WEIGHTS
    chance: float = NOISE

    def __call__(self, state: GameState, board: Board, rng: random.Random) -> Turn:
        return noisy_turn(state, board, rng, self.weights, self.chance)


def turn_generator(state: GameState) -> random.Random:
    """The noisy rival's generator for the turn to play: seeded from the round and the player
    to move only (what every player sees; a string seed is the same in every process)."""
    return random.Random(f"noisy rival, round {state.round}, {state.turn.player}")


@dataclass(frozen=True)
class NoisyRivals:
    """Rivals who play the noisy style (`planner.turns.Rivals`), a generator a turn
    (`turn_generator`): deterministic for a position."""

    weights: Weights = WEIGHTS
    chance: float = NOISE

    def turn(self, state: GameState, board: Board) -> Turn:
        return noisy_turn(state, board, turn_generator(state), self.weights, self.chance)

    def play(self, state: GameState, board: Board, turn: RivalTurn) -> GameState:
        return play_turn(state, board, Turn(turn.actions, turn.towers)).state


# the panel's bots, by name (every one a turn in about greedy's time)
PANEL_BOTS: dict[str, StyleBot | NoisyBot] = {
    **{name: StyleBot(weights) for name, weights in STYLES.items()},
    "noisy": NoisyBot(),
}

# style name -> the rivals of that style, as the win goal models them (`planner.turns.Rivals`)
PANEL: dict[str, GreedyRivals | NoisyRivals] = {
    "greedy": GREEDY_RIVALS,
    **{name: GreedyRivals(weights) for name, weights in STYLES.items()},
    "noisy": NoisyRivals(),
}


def panel_rivals(names: Sequence[str]) -> RivalModels:
    """The panel's styles `names` as one model of the rivals for the win goal
    (`planner.turns.RivalModels`: each first turn weighed against each style's answers)."""
    unknown = [n for n in names if n not in PANEL]
    if unknown or not names:
        raise ValueError(f"the panel's styles are {', '.join(PANEL)}, not {', '.join(unknown)}")
    return RivalModels(tuple((name, PANEL[name]) for name in names))
