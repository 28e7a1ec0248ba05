"""Tournaments between Castell bots: whole games from seeded deals, every step through the
referee; per bot the win rate with its 95% interval, the mean score, the mean margin to the
best rival and the mean points per scoring category, and the turns the referee refused.

The loop, the checks and the workers are `planner.tournaments`' (both games'); this module is
Castell's part (`CASTELL`): game i's deal is `new_game`'s seeded deal for the seed drawn
from (seed, i // players), played with the seats rotated by i % players (each deal is played
from every seat, so a bot's luck of the deal is shared by the others: players consecutive
games make one rotation); each seat's bot gets its own generator, seeded from (seed, i, seat).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from models.game import CATEGORIES, Board, new_game, score_player
from models.game.play import CastellInPlay
from models.tower import Rules
from planner import tournaments
from planner.castell.bots import BOTS, Advisor
from planner.castell.record import SKILLS, GameRecord
from planner.castell.report import category_wins, skill_values
from planner.castell.turn import Bot, SeatTurns, festival_finder, play_steps, tile_finder
from planner.tournaments import Dealt, Tally, seats

MAX_GAMES = tournaments.MAX_GAMES
MIN_PLAYERS, MAX_PLAYERS = 2, 4


@dataclass(frozen=True)
class Setup:
    """What every game of a tournament shares besides the bots: the board, the readings
    (None: the board's defaults), the wheel's side (None: the board's) and the multiple of
    the time limit the bots that plan allow their wall clock (`PlanBudget.wall_slack`: at 1
    a loaded machine may cut a plan, and its game would not repeat)."""

    board: Board
    rules: Rules | None = None
    wheel_side: Literal["standard", "advanced"] | None = None
    wall_slack: float = 1.0


def deal_seed(seed: int, index: int, players: int) -> int:
    """The deal of game `index`: one per rotation of the seats."""
    return random.Random(f"{seed}:{index // players}:deal").randrange(2**62)


def slacked(bot: Bot, wall_slack: float) -> Bot:
    """`bot`, a bot that plans given `wall_slack` times its time limit's wall clock (the
    others have no clock)."""
    if isinstance(bot, Advisor) and wall_slack != bot.budget.wall_slack:
        bot.budget = replace(bot.budget, wall_slack=wall_slack)
    return bot


def _seat_bot(make: Callable[[], Bot], wall_slack: float) -> Callable[[], SeatTurns]:
    return lambda: SeatTurns(slacked(make(), wall_slack))


class CastellTournaments:
    """Castell's part of a tournament (`planner.tournaments.TournamentGame`)."""

    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    def bots(self, setup: Setup) -> Mapping[str, Callable[[], SeatTurns]]:
        return {name: _seat_bot(make, setup.wall_slack) for name, make in BOTS.items()}

    def bot_names(self) -> Sequence[str]:
        return list(BOTS)

    def order(self, index: int, players: int) -> tuple[int, ...]:
        shift = index % players
        return (*range(shift, players), *range(shift))

    def deal(self, setup: Setup, dealt: Dealt) -> CastellInPlay:
        state = new_game(setup.board, len(dealt.bots),
                         deal_seed(dealt.seed, dealt.index, len(dealt.bots)),
                         names=[dealt.names[i] for i in dealt.order], rules=setup.rules,
                         wheel_side=setup.wheel_side)
        return CastellInPlay(state, setup.board, festival_finder, tile_finder)

    def generators(self, seed: int, index: int, players: int) -> list[random.Random]:
        return [random.Random(f"{seed}:{index}:bot:{seat}") for seat in range(players)]

    def play_turn(self, game: CastellInPlay, steps: Sequence[Any]) -> tuple[CastellInPlay, bool]:
        return play_steps(game, steps)

    def record(self, setup: Setup, game: CastellInPlay, dealt: Dealt, refused: Sequence[int]
               ) -> GameRecord:
        state = game.state
        seat_of = {name: seat for seat, name in enumerate(dealt.names)}
        cards = [score_player(p, setup.board) for p in state.players]
        totals = tuple(c.total for c in cards)
        top = max(totals)
        return GameRecord(dealt.index, deal_seed(dealt.seed, dealt.index, len(dealt.bots)),
                          tuple(p.name for p in state.players),
                          tuple(dealt.bots[seat_of[p.name]] for p in state.players), totals,
                          tuple(tuple(getattr(c, k) for k in CATEGORIES) for c in cards),
                          tuple(c.player for c in cards if c.total == top),
                          tuple(refused[seat_of[p.name]] for p in state.players),
                          tuple(tuple(p.ranks.as_dict()[k] for k in SKILLS)
                                for p in state.players))

    def read_record(self, data: dict[str, Any]) -> GameRecord:
        return GameRecord.of(data)

    def record_fault(self, setup: Setup, record: GameRecord, dealt: Dealt) -> str | None:
        # the players in turn order (the seats rotated), the deal one a rotation
        expected = {"index": dealt.index,
                    "deal_seed": deal_seed(dealt.seed, dealt.index, len(dealt.bots)),
                    "players": tuple(dealt.names[i] for i in dealt.order),
                    "bots": tuple(dealt.bots[i] for i in dealt.order)}
        return tournaments.identity_fault(record, expected,
                                          ("totals", "categories", "refused", "skills"))

    def summarise(self, records: Sequence[GameRecord], setup: Setup) -> Summary:
        return summarise(records)


CASTELL = CastellTournaments()


def check_bots(bots: Sequence[str]) -> None:
    """Unknown bots or a wrong number of seats refused (a `SpecError`)."""
    tournaments.check_bots(CASTELL, bots)


def play_game(setup: Setup, bots: Sequence[str], seed: int, index: int,
              made: Sequence[Bot] | None = None) -> GameRecord:
    """Game `index` of the tournament `seed` (see the module text). `made`: the seats' bots,
    already made (to read what an advisor kept); new ones otherwise."""
    check_bots(bots)
    return tournaments.play_game(CASTELL, setup, bots, seed, index,
                                 None if made is None else [SeatTurns(b) for b in made])


def games(setup: Setup, bots: Sequence[str], count: int, seed: int) -> Iterator[GameRecord]:
    """The tournament's games in index order (one process: the batch runner runs chunks of
    `play_game` elsewhere)."""
    return tournaments.games(CASTELL, setup, bots, count, seed)


@dataclass
class _Seat(Tally):
    refused: int = 0
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
                kept.add(record.totals[seat], share if name in record.winners else 0.0)
                kept.margins.append(record.margin(seat))
                kept.categories.append(record.categories[seat])
                kept.refused += record.refused[seat]
    return Summary(len(records), {bot: _bot_summary(kept) for bot, kept in by_bot.items()},
                   [{"seat": place + 1, **_bot_summary(by_place[place])}
                    for place in sorted(by_place)],
                   skill_values(records, SKILLS), category_wins(records))


def _bot_summary(seat: _Seat) -> dict[str, Any]:
    categories = {name: round(statistics.fmean(c[k] for c in seat.categories), 3)
                  for k, name in enumerate(CATEGORIES)}
    return {**seat.row(), "mean_margin": round(statistics.fmean(seat.margins), 3),
            "categories": categories, "refused": seat.refused}


def run(setup: Setup, bots: Sequence[str], count: int, seed: int,
        on_game: Callable[[GameRecord], None] | None = None) -> Summary:
    """The tournament's summary (`on_game` told of each game as it ends)."""
    summary = tournaments.run(CASTELL, setup, bots, count, seed, on_game=on_game)
    assert isinstance(summary, Summary)
    return summary


__all__ = ["CASTELL", "MAX_GAMES", "Setup", "Summary", "check_bots", "deal_seed", "games",
           "play_game", "run", "seats", "summarise"]
