"""Tournaments between Castle Combo bots: many seeded games, win rates with 95% intervals, scores,
and per-card statistics for deck balance.

Game i is a function of (seed, i) only: its deal, who starts (seats rotate, so each bot starts as
often) and the bots' own random generators. So a tournament gives the same results whatever the
number of worker processes, and games come back in index order.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from models.combo import MAX_PLAYERS, MIN_PLAYERS, Deck, final_scores, new_game
from models.errors import SpecError
from planner.combo.advisor import BOT_SAMPLES, advisor_bot
from planner.combo.bots import BOTS, Bot, play_out
from planner.stats import wilson
from planner.stopping import in_workers

MAX_GAMES = 1_000_000
MAX_WORKERS = 64


def seats(bots: Sequence[str]) -> list[str]:
    """Player names: the bot names, numbered when a bot plays more than one seat."""
    names = []
    for i, bot in enumerate(bots):
        clash = bots.count(bot) > 1
        names.append(f"{bot}#{bots[:i + 1].count(bot)}" if clash else bot)
    return names


@dataclass(frozen=True)
class GameRecord:
    """One game's outcome; `as_dict()` / `GameRecord.of(data)` are its JSON form."""

    index: int
    players: tuple[str, ...]
    bots: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[str, ...]
    # card id -> (owner seat, points it scored) for each card bought (face up) in the game
    bought: tuple[tuple[str, int, int], ...]

    def as_dict(self) -> dict[str, Any]:
        return {"index": self.index, "players": list(self.players), "bots": list(self.bots),
                "totals": list(self.totals), "winners": list(self.winners),
                "bought": [list(b) for b in self.bought]}

    @staticmethod
    def of(data: dict[str, Any]) -> GameRecord:
        return GameRecord(int(data["index"]), tuple(data["players"]), tuple(data["bots"]),
                          tuple(int(t) for t in data["totals"]), tuple(data["winners"]),
                          tuple((str(c), int(s), int(p)) for c, s, p in data["bought"]))

    @staticmethod
    def check_bots(bots: Sequence[str]) -> None:
        """Unknown bots or a wrong number of seats refused (`check_bots`, reachable through
        the package's public names)."""
        check_bots(bots)


def _bot(name: str, advisor_samples: int) -> Bot:
    if name == "advisor":
        return advisor_bot(advisor_samples)
    return BOTS[name]()


def play_game(deck: Deck, bots: Sequence[str], seed: int, index: int,
              advisor_samples: int = BOT_SAMPLES) -> GameRecord:
    names = seats(bots)
    game_seed = random.Random(f"{seed}:{index}:deal").randrange(2**62)
    state = new_game(deck, names, game_seed, first=names[index % len(names)])
    rng = random.Random(f"{seed}:{index}:bots")
    state = play_out(state, [_bot(b, advisor_samples) for b in bots], rng)
    scores, winners = final_scores(state)
    bought = []
    for seat, (player, score) in enumerate(zip(state.now.players, scores, strict=True)):
        points = {c.card: c.points for c in score.sheet.cards}
        for placed in player.tableau:
            if not placed.face_down:
                bought.append((placed.card, seat, points[placed.card]))
    return GameRecord(index, tuple(names), tuple(bots), tuple(s.sheet.total for s in scores),
                      tuple(winners), tuple(bought))


def _play(job: tuple[Deck, tuple[str, ...], int, int, int]) -> GameRecord:
    return play_game(*job)


def check_bots(bots: Sequence[str]) -> None:
    known = [*BOTS, "advisor"]
    for bot in bots:
        if bot not in known:
            raise SpecError(f"unknown bot '{bot}' (bots: {', '.join(known)})")
    if not MIN_PLAYERS <= len(bots) <= MAX_PLAYERS:
        raise SpecError(f"a game seats {MIN_PLAYERS}-{MAX_PLAYERS} bots, got {len(bots)}")


def games(deck: Deck, bots: Sequence[str], count: int, seed: int, workers: int = 1,
          advisor_samples: int = BOT_SAMPLES) -> Iterator[GameRecord]:
    """The tournament's games in index order (played by `workers` processes)."""
    check_bots(bots)
    if not 1 <= count <= MAX_GAMES:
        raise SpecError(f"the number of games is 1..{MAX_GAMES}", field="games")
    if not 1 <= workers <= MAX_WORKERS:
        raise SpecError(f"the number of workers is 1..{MAX_WORKERS}", field="workers")
    jobs = [(deck, tuple(bots), seed, i, advisor_samples) for i in range(count)]
    if workers == 1:
        yield from map(_play, jobs)
        return
    # Ctrl-C stops the running games at once (`in_workers`: up to 16 advisor games a chunk)
    yield from in_workers(_play, jobs, workers, chunksize=max(1, min(16, count // (workers * 8))))


@dataclass
class _Seat:
    games: int = 0
    wins: float = 0.0
    scores: list[int] = field(default_factory=list)


@dataclass
class _Card:
    bought: int = 0
    points: int = 0
    owner_wins: float = 0.0


@dataclass(frozen=True)
class Summary:
    games: int
    bots: dict[str, dict[str, Any]]
    cards: dict[str, dict[str, Any]]

    def as_dict(self) -> dict[str, Any]:
        return {"games": self.games, "bots": self.bots, "cards": self.cards}


def summarise(records: Sequence[GameRecord], deck: Deck) -> Summary:
    """Per bot: win rate (a shared win counts 1/k) with its 95% interval, mean score and spread;
    per card: how often bought, mean points when bought, and its owners' win rate."""
    by_bot: dict[str, _Seat] = {}
    by_card = {c.id: _Card() for c in deck.cards}
    for record in records:
        share = 1 / len(record.winners)
        for name, bot, total in zip(record.players, record.bots, record.totals, strict=True):
            seat = by_bot.setdefault(bot, _Seat())
            seat.games += 1
            seat.scores.append(total)
            if name in record.winners:
                seat.wins += share
        for card_id, owner, points in record.bought:
            card = by_card[card_id]
            card.bought += 1
            card.points += points
            if record.players[owner] in record.winners:
                card.owner_wins += share
    bots = {}
    for bot, seat in by_bot.items():
        low, high = wilson(seat.wins, seat.games)
        bots[bot] = {"games": seat.games, "wins": round(seat.wins, 3),
                     "win_rate": round(seat.wins / seat.games, 4),
                     "ci95": [round(low, 4), round(high, 4)],
                     "mean_score": round(statistics.fmean(seat.scores), 3),
                     "sd_score": round(statistics.pstdev(seat.scores), 3),
                     "min_score": min(seat.scores), "max_score": max(seat.scores)}
    n = max(1, len(records))
    cards = {card_id: {"bought": c.bought, "bought_per_game": round(c.bought / n, 4),
                       "mean_points": round(c.points / c.bought, 3) if c.bought else None,
                       "owners_win_rate": round(c.owner_wins / c.bought, 4) if c.bought
                       else None}
             for card_id, c in by_card.items()}
    return Summary(len(records), bots, cards)


def run(deck: Deck, bots: Sequence[str], count: int, seed: int, workers: int = 1,
        advisor_samples: int = BOT_SAMPLES,
        on_game: Callable[[GameRecord], None] | None = None) -> Summary:
    records = []
    for record in games(deck, bots, count, seed, workers, advisor_samples):
        records.append(record)
        if on_game is not None:
            on_game(record)
    return summarise(records, deck)

