"""Tournaments of either game: whole games from seeded deals between bots, every step through
the game's referee, and their summary; the loop, the seats, the checks and the workers written
once. What differs per game (the deal, the seats' order and generators, how a turn's steps are
played, the record and the summary) is the game's `TournamentGame`
(`planner.castell.tournament.CASTELL`, `planner.combo.tournament.COMBO`).

Every bot is a `Bot`: it sees its seat's view of the game (`GameInPlay.view`: the hidden parts
removed) with its own random generator, and returns its steps for the turn. Game i is a
function of (seed, i) only (its deal, its seats' order, the bots' generators), so that any
executor running any chunk of indices gives the same records, in index order.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from models.errors import SpecError
from models.play import GameInPlay
from planner.stats import wilson
from planner.stopping import in_workers

MAX_GAMES = 1_000_000
MAX_WORKERS = 64

G = TypeVar("G", bound=GameInPlay)
G_contra = TypeVar("G_contra", bound=GameInPlay, contravariant=True)
R = TypeVar("R")
S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)


class Bot(Protocol[G_contra]):
    """A policy, for either game: the steps of one turn of the player to move, from what that
    player sees (`view`), with the bot's own random generator."""

    def __call__(self, view: G_contra, rng: random.Random) -> Sequence[Any]: ...


class Record(Protocol):
    """One game's outcome; `as_dict()` is its JSON form (a line of `games.jsonl`)."""

    def as_dict(self) -> dict[str, Any]: ...


class Summary(Protocol):
    def as_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Dealt:
    """A game of a tournament as dealt: its index, the tournament's seed, the player names
    seat by seat (`seats`), the bot of each seat, and the seats in the game's turn order."""

    index: int
    seed: int
    names: tuple[str, ...]
    bots: tuple[str, ...]
    order: tuple[int, ...]


class TournamentGame(Protocol[S_contra, G, R]):
    """What one game gives the tournament runner; `S_contra` is what every game of a
    tournament shares besides the bots (the board, the cards), `G` the game in play, `R` its
    record."""

    min_players: int
    max_players: int

    def bots(self, setup: S_contra) -> Mapping[str, Callable[[], Bot[G]]]:
        """Bot name -> a new bot of that kind (each game's own: what a bot keeps stays
        with it)."""
        ...

    def bot_names(self) -> Sequence[str]: ...

    def order(self, index: int, players: int) -> tuple[int, ...]:
        """The seats (indices into the bots) in the game's own order of its players."""
        ...

    def deal(self, setup: S_contra, dealt: Dealt) -> G:
        """Game `dealt.index`'s start, its players named in the game's order."""
        ...

    def generators(self, seed: int, index: int, players: int) -> list[random.Random]:
        """Each seat's random generator (seeded from (seed, index) only)."""
        ...

    def play_turn(self, game: G, steps: Sequence[Any]) -> tuple[G, bool]:
        """A bot's steps for the player to move, through the referee; True when the referee
        refused one (the turn is then ended where it stood, when the game allows it)."""
        ...

    def record(self, setup: S_contra, game: G, dealt: Dealt, refused: Sequence[int]) -> R:
        """The record of a finished game (`refused`: per seat, the turns refused)."""
        ...

    def read_record(self, data: dict[str, Any]) -> R: ...

    def record_fault(self, setup: S_contra, record: R, dealt: Dealt) -> str | None:
        """Why `record` (read back from a line) is not one game `dealt` could have ended in:
        its identity (index, players, bots, the deal) not `dealt`'s, a list not one entry a
        player, a winner not a player (None: it could be)."""
        ...

    def summarise(self, records: Sequence[R], setup: S_contra) -> Summary: ...


def seats(bots: Sequence[str]) -> list[str]:
    """Player names: the bot names, numbered when a bot plays more than one seat."""
    names = []
    for i, bot in enumerate(bots):
        clash = bots.count(bot) > 1
        names.append(f"{bot}#{bots[:i + 1].count(bot)}" if clash else bot)
    return names


def check_bots(game: TournamentGame[Any, Any, Any], bots: Sequence[str]) -> None:
    """Unknown bots or a wrong number of seats refused (a `SpecError`)."""
    known = list(game.bot_names())
    for bot in bots:
        if bot not in known:
            raise SpecError(f"unknown bot '{bot}' (bots: {', '.join(known)})")
    if not game.min_players <= len(bots) <= game.max_players:
        raise SpecError(f"a game seats {game.min_players}-{game.max_players} bots, "
                        f"got {len(bots)}")


def dealt_game(game: TournamentGame[Any, Any, Any], bots: Sequence[str], seed: int,
               index: int) -> Dealt:
    """Game `index` of the tournament `seed` between `bots`, as dealt."""
    return Dealt(index, seed, tuple(seats(bots)), tuple(bots), game.order(index, len(bots)))


def identity_fault(record: Any, expected: Mapping[str, Any], per_player: Sequence[str]
                   ) -> str | None:
    """What both games check of a record read back (`TournamentGame.record_fault`): each of
    `expected`'s fields (its identity) as given, each `per_player` field one entry a player,
    its winners some of its players."""
    for name, value in expected.items():
        if getattr(record, name) != value:
            return f"its {name} are not this game's" if name.endswith("s") else \
                f"its {name} is not this game's"
    players = len(record.players)
    for name in per_player:
        if len(getattr(record, name)) != players:
            return f"its {name} are not one a player"
    if not record.winners or not set(record.winners) <= set(record.players):
        return "its winners are not among its players"
    return None


def play_game(game: TournamentGame[S, G, R], setup: S, bots: Sequence[str], seed: int,
              index: int, made: Sequence[Bot[G]] | None = None) -> R:
    """Game `index` of the tournament `seed`. `made`: the seats' bots, already made (to read
    what a bot kept); new ones otherwise."""
    dealt = dealt_game(game, bots, seed, index)
    order = dealt.order
    table = game.deal(setup, dealt)
    making = game.bots(setup)
    players = list(made) if made is not None else [making[b]() for b in bots]
    rngs = game.generators(seed, index, len(bots))
    refused = [0] * len(bots)
    while not table.game_over:
        at = table.to_move()
        assert at is not None  # the game is on
        seat = order[at]
        table, wrong = game.play_turn(table, players[seat](table.view(at), rngs[seat]))
        refused[seat] += wrong
    return game.record(setup, table, dealt, refused)


@dataclass(frozen=True)
class _Job(Generic[S, G, R]):
    game: TournamentGame[S, G, R]
    setup: S
    bots: tuple[str, ...]
    seed: int


def _play(job: tuple[_Job[Any, Any, Any], int]) -> Any:
    tour, index = job
    return play_game(tour.game, tour.setup, tour.bots, tour.seed, index)


def games(game: TournamentGame[S, G, R], setup: S, bots: Sequence[str], count: int, seed: int,
          workers: int = 1) -> Iterator[R]:
    """The tournament's games in index order, played by `workers` processes (the batch runner,
    `service.batches`, runs chunks of `play_game` on any engine instead)."""
    check_bots(game, bots)
    if not 1 <= count <= MAX_GAMES:
        raise SpecError(f"the number of games is 1..{MAX_GAMES}", field="games")
    if not 1 <= workers <= MAX_WORKERS:
        raise SpecError(f"the number of workers is 1..{MAX_WORKERS}", field="workers")
    jobs = [(_Job(game, setup, tuple(bots), seed), i) for i in range(count)]
    if workers == 1:
        yield from map(_play, jobs)
        return
    # Ctrl-C stops the running games at once (`in_workers`: up to 16 games a chunk)
    yield from in_workers(_play, jobs, workers, chunksize=max(1, min(16, count // (workers * 8))))


def run(game: TournamentGame[S, G, R], setup: S, bots: Sequence[str], count: int, seed: int,
        workers: int = 1, on_game: Callable[[R], None] | None = None) -> Summary:
    """The tournament's summary (`on_game` told of each game as it ends)."""
    records = []
    for record in games(game, setup, bots, count, seed, workers):
        records.append(record)
        if on_game is not None:
            on_game(record)
    return game.summarise(records, setup)


@dataclass
class Tally:
    """One bot's (or one place's) games, as either game's summary counts them: a shared win
    counts 1/k."""

    games: int = 0
    wins: float = 0.0
    scores: list[int] = field(default_factory=list)

    def add(self, score: int, won: float) -> None:
        """A game that ended at `score`, `won` its share of the win (0: lost)."""
        self.games += 1
        self.scores.append(score)
        self.wins += won

    def row(self) -> dict[str, Any]:
        """Games, wins, the win rate and its 95% interval, the mean score, its spread and
        range (each game's summary adds its own columns after these)."""
        low, high = wilson(self.wins, self.games)
        return {"games": self.games, "wins": round(self.wins, 3),
                "win_rate": round(self.wins / self.games, 4),
                "ci95": [round(low, 4), round(high, 4)],
                "mean_score": round(statistics.fmean(self.scores), 3),
                "sd_score": round(statistics.pstdev(self.scores), 3),
                "min_score": min(self.scores), "max_score": max(self.scores)}
