"""Tournaments between Castell bots: whole games from seeded deals, every step through the
referee; per bot the win rate with its 95% interval, the mean score, the mean margin to the
best rival and the mean points per scoring category, and the turns the referee refused.

Game i is a function of (seed, i) only, so that any executor running any chunk of indices
(`play_game`) gives the same records: its deal is `new_game`'s seeded deal for the seed drawn
from (seed, i // players), played with the seats rotated by i % players (each deal is played
from every seat, so a bot's luck of the deal is shared by the others: players consecutive
games make one rotation); each seat's bot gets its own generator, seeded from (seed, i, seat).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from models.errors import SpecError
from models.game import CATEGORIES, Board, GameState, new_game, score_player
from models.tower import Rules
from planner.castell.bots import BOTS
from planner.castell.record import SKILLS, GameRecord
from planner.castell.report import category_wins, skill_values
from planner.castell.turn import Bot, play_turn
from planner.stats import wilson

MAX_GAMES = 1_000_000
MIN_PLAYERS, MAX_PLAYERS = 2, 4


def seats(bots: Sequence[str]) -> list[str]:
    """Player names: the bot names, numbered when a bot plays more than one seat."""
    names = []
    for i, bot in enumerate(bots):
        clash = bots.count(bot) > 1
        names.append(f"{bot}#{bots[:i + 1].count(bot)}" if clash else bot)
    return names


def check_bots(bots: Sequence[str]) -> None:
    """Unknown bots or a wrong number of seats refused (a `SpecError`)."""
    for bot in bots:
        if bot not in BOTS:
            raise SpecError(f"unknown bot '{bot}' (bots: {', '.join(BOTS)})")
    if not MIN_PLAYERS <= len(bots) <= MAX_PLAYERS:
        raise SpecError(f"a game seats {MIN_PLAYERS}-{MAX_PLAYERS} bots, got {len(bots)}")


@dataclass(frozen=True)
class Setup:
    """What every game of a tournament shares besides the bots: the board, the readings
    (None: the board's defaults) and the wheel's side (None: the board's)."""

    board: Board
    rules: Rules | None = None
    wheel_side: Literal["standard", "advanced"] | None = None


def deal_seed(seed: int, index: int, players: int) -> int:
    """The deal of game `index`: one per rotation of the seats."""
    return random.Random(f"{seed}:{index // players}:deal").randrange(2**62)


def play_game(setup: Setup, bots: Sequence[str], seed: int, index: int,
              made: Sequence[Bot] | None = None) -> GameRecord:
    """Game `index` of the tournament `seed` (see the module text). `made`: the seats' bots,
    already made (to read what an advisor kept); new ones otherwise."""
    check_bots(bots)
    names = seats(bots)
    shift = index % len(bots)
    order = list(range(shift, len(bots))) + list(range(shift))  # seat indices, turn order
    dealt = deal_seed(seed, index, len(bots))
    state = new_game(setup.board, len(bots), dealt, names=[names[i] for i in order],
                     rules=setup.rules, wheel_side=setup.wheel_side)
    players = list(made) if made is not None else [BOTS[b]() for b in bots]
    rngs = [random.Random(f"{seed}:{index}:bot:{seat}") for seat in range(len(bots))]
    seat_of = {names[i]: i for i in range(len(bots))}
    refused = [0] * len(bots)
    state = play_out(state, setup.board, players, rngs, seat_of, refused)
    cards = [score_player(p, setup.board) for p in state.players]
    totals = tuple(c.total for c in cards)
    top = max(totals)
    return GameRecord(index, dealt, tuple(p.name for p in state.players),
                      tuple(bots[seat_of[p.name]] for p in state.players), totals,
                      tuple(tuple(getattr(c, k) for k in CATEGORIES) for c in cards),
                      tuple(c.player for c in cards if c.total == top),
                      tuple(refused[seat_of[p.name]] for p in state.players),
                      tuple(tuple(p.ranks.as_dict()[k] for k in SKILLS) for p in state.players))


def play_out(state: GameState, board: Board, bots: Sequence[Bot], rngs: Sequence[random.Random],
             seat_of: dict[str, int], refused: list[int]) -> GameState:
    """Play to the end, the player called name by bots[seat_of[name]]; each turn the referee
    refused a step of is counted in `refused`."""
    while not state.game_over:
        seat = seat_of[state.turn.player]
        played = play_turn(state, board, bots[seat](state, board, rngs[seat]))
        refused[seat] += played.refused
        state = played.state
    return state


def games(setup: Setup, bots: Sequence[str], count: int, seed: int) -> Iterator[GameRecord]:
    """The tournament's games in index order (one process: the batch runner runs chunks of
    `play_game` elsewhere)."""
    check_bots(bots)
    if not 1 <= count <= MAX_GAMES:
        raise SpecError(f"the number of games is 1..{MAX_GAMES}", field="games")
    for index in range(count):
        yield play_game(setup, bots, seed, index)


@dataclass
class _Seat:
    games: int = 0
    wins: float = 0.0
    refused: int = 0
    scores: list[int] = field(default_factory=list)
    margins: list[int] = field(default_factory=list)
    categories: list[tuple[int, ...]] = field(default_factory=list)


@dataclass(frozen=True)
class Summary:
    """Per bot: games, wins (a shared win counts 1/k), win rate and its 95% interval, mean
    score and its spread, mean margin to the best rival, mean points per category, refused
    turns."""

    games: int
    bots: dict[str, dict[str, Any]]
    seats: list[dict[str, Any]]  # per place in the turn order (first player first), any bot
    skills: dict[str, list[dict[str, Any]]]  # `report.skill_values`
    categories: dict[str, dict[str, float]]  # `report.category_wins`

    def as_dict(self) -> dict[str, Any]:
        return {"games": self.games, "bots": self.bots, "seats": self.seats,
                "skills": self.skills, "categories": self.categories}


def summarise(records: Sequence[GameRecord]) -> Summary:
    by_bot: dict[str, _Seat] = {}
    by_place: dict[int, _Seat] = {}
    for record in records:
        share = 1 / len(record.winners)
        for seat, (name, bot) in enumerate(zip(record.players, record.bots, strict=True)):
            for kept in (by_bot.setdefault(bot, _Seat()), by_place.setdefault(seat, _Seat())):
                kept.games += 1
                kept.scores.append(record.totals[seat])
                kept.margins.append(record.margin(seat))
                kept.categories.append(record.categories[seat])
                kept.refused += record.refused[seat]
                if name in record.winners:
                    kept.wins += share
    return Summary(len(records), {bot: _bot_summary(kept) for bot, kept in by_bot.items()},
                   [{"seat": place + 1, **_bot_summary(by_place[place])}
                    for place in sorted(by_place)],
                   skill_values(records, SKILLS), category_wins(records))


def _bot_summary(seat: _Seat) -> dict[str, Any]:
    low, high = wilson(seat.wins, seat.games)
    categories = {name: round(statistics.fmean(c[k] for c in seat.categories), 3)
                  for k, name in enumerate(CATEGORIES)}
    return {"games": seat.games, "wins": round(seat.wins, 3),
            "win_rate": round(seat.wins / seat.games, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "mean_score": round(statistics.fmean(seat.scores), 3),
            "sd_score": round(statistics.pstdev(seat.scores), 3),
            "min_score": min(seat.scores), "max_score": max(seat.scores),
            "mean_margin": round(statistics.fmean(seat.margins), 3),
            "categories": categories, "refused": seat.refused}


def run(setup: Setup, bots: Sequence[str], count: int, seed: int,
        on_game: Callable[[GameRecord], None] | None = None) -> Summary:
    """The tournament's summary (`on_game` told of each game as it ends)."""
    records = []
    for record in games(setup, bots, count, seed):
        records.append(record)
        if on_game is not None:
            on_game(record)
    return summarise(records)
