"""Tournaments between Castle Combo bots: many seeded games, win rates with 95% intervals, scores,
and per-card statistics for deck balance.

The loop, the checks and the workers are `planner.tournaments`' (both games'); this module is
Castle Combo's part (`COMBO`). Game i is a function of (seed, i) only: its deal, who starts
(seats rotate, so each bot starts as often) and the bots' one random generator. So a
tournament gives the same results whatever the number of worker processes, and games come back
in index order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from models.combo import MAX_PLAYERS, MIN_PLAYERS, Deck, final_scores, new_game
from models.combo.play import ComboInPlay
from planner import tournaments
from planner.combo.advisor import BOT_SAMPLES, advisor_bot
from planner.combo.bots import BOTS, Bot, OneStep
from planner.tournaments import Dealt, Tally

MAX_GAMES = tournaments.MAX_GAMES
MAX_WORKERS = tournaments.MAX_WORKERS


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


@dataclass(frozen=True)
class ComboSetup:
    """What every game of a tournament shares besides the bots: the cards, and the advisor
    bot's sampled completions per candidate action."""

    deck: Deck
    advisor_samples: int = BOT_SAMPLES


def _one_step(make: Callable[[], Bot]) -> Callable[[], OneStep]:
    return lambda: OneStep(make())


class ComboTournaments:
    """Castle Combo's part of a tournament (`planner.tournaments.TournamentGame`)."""

    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    def bots(self, setup: ComboSetup) -> Mapping[str, Callable[[], OneStep]]:
        made = {name: _one_step(make) for name, make in BOTS.items()}
        return {**made, "advisor": lambda: OneStep(advisor_bot(setup.advisor_samples))}

    def bot_names(self) -> Sequence[str]:
        return [*BOTS, "advisor"]

    def order(self, index: int, players: int) -> tuple[int, ...]:
        return tuple(range(players))  # the seats rotate by who starts (`deal`)

    def deal(self, setup: ComboSetup, dealt: Dealt) -> ComboInPlay:
        names = list(dealt.names)
        game_seed = random.Random(f"{dealt.seed}:{dealt.index}:deal").randrange(2**62)
        return ComboInPlay(new_game(setup.deck, names, game_seed,
                                    first=names[dealt.index % len(names)]))

    def generators(self, seed: int, index: int, players: int) -> list[random.Random]:
        rng = random.Random(f"{seed}:{index}:bots")  # one for the game, shared by its bots
        return [rng] * players

    def play_turn(self, game: ComboInPlay, steps: Sequence[Any]) -> tuple[ComboInPlay, bool]:
        for step in steps:
            game = game.apply(step)
        return game, False

    def record(self, setup: ComboSetup, game: ComboInPlay, dealt: Dealt,
               refused: Sequence[int]) -> GameRecord:
        state = game.state
        scores, winners = final_scores(state)
        bought = []
        for seat, (player, score) in enumerate(zip(state.now.players, scores, strict=True)):
            points = {c.card: c.points for c in score.sheet.cards}
            for placed in player.tableau:
                if not placed.face_down:
                    bought.append((placed.card, seat, points[placed.card]))
        return GameRecord(dealt.index, dealt.names, dealt.bots,
                          tuple(s.sheet.total for s in scores), tuple(winners), tuple(bought))

    def read_record(self, data: dict[str, Any]) -> GameRecord:
        return GameRecord.of(data)

    def record_fault(self, setup: ComboSetup, record: GameRecord, dealt: Dealt) -> str | None:
        # the players in seat order (who starts rotates instead)
        expected = {"index": dealt.index, "players": dealt.names, "bots": dealt.bots}
        fault = tournaments.identity_fault(record, expected, ("totals",))
        cards = {card.id for card in setup.deck.cards}
        if fault is None and any(card not in cards or not 0 <= seat < len(dealt.names)
                                 for card, seat, _ in record.bought):
            return "its cards bought are not of its deck and seats"
        return fault

    def summarise(self, records: Sequence[GameRecord], setup: ComboSetup) -> Summary:
        return summarise(records, setup.deck)


COMBO = ComboTournaments()


def play_game(deck: Deck, bots: Sequence[str], seed: int, index: int,
              advisor_samples: int = BOT_SAMPLES) -> GameRecord:
    return tournaments.play_game(COMBO, ComboSetup(deck, advisor_samples), bots, seed, index)


def check_bots(bots: Sequence[str]) -> None:
    tournaments.check_bots(COMBO, bots)


def games(deck: Deck, bots: Sequence[str], count: int, seed: int, workers: int = 1,
          advisor_samples: int = BOT_SAMPLES) -> Iterator[GameRecord]:
    """The tournament's games in index order (played by `workers` processes)."""
    return tournaments.games(COMBO, ComboSetup(deck, advisor_samples), bots, count, seed,
                             workers)


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
    by_bot: dict[str, Tally] = {}
    by_card = {c.id: _Card() for c in deck.cards}
    for record in records:
        share = 1 / len(record.winners)
        for name, bot, total in zip(record.players, record.bots, record.totals, strict=True):
            by_bot.setdefault(bot, Tally()).add(total, share if name in record.winners else 0.0)
        for card_id, owner, points in record.bought:
            card = by_card[card_id]
            card.bought += 1
            card.points += points
            if record.players[owner] in record.winners:
                card.owner_wins += share
    bots = {bot: seat.row() for bot, seat in by_bot.items()}
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
    summary = tournaments.run(COMBO, ComboSetup(deck, advisor_samples), bots, count, seed,
                              workers, on_game)
    assert isinstance(summary, Summary)
    return summary
