"""Resolving a festival (rules page section 3): who competes, tower scores, prizes, tokens."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from models.game.board import Board, Prize
from models.game.state import (
    Competitor,
    FestivalResult,
    FestivalSpace,
    GameState,
    SizeTokenWinner,
)
from models.tower import Festival, Pool, Rules, SkillRanks, Tower, check_tower

TowerFinder = Callable[[Pool, SkillRanks, Festival, Rules], Tower | None]


@dataclass(frozen=True)
class Entry:
    """A player's part in a festival: eligible or why not, their tower, score, rank and prize."""
    player: str
    eligible: bool
    reason: str | None  # why not eligible
    tower: Tower | None
    score: int | None
    rank: int | None  # 1 = best score
    prize: Prize | None


@dataclass(frozen=True)
class Outcome:
    """A festival's outcome: the space, every player's entry, the size tokens won."""
    space: FestivalSpace
    entries: tuple[Entry, ...]
    size_tokens: tuple[tuple[int, str | None], ...]  # (token size, winner or None)

    def entry(self, player: str) -> Entry:
        """The entry of one player."""
        return next(e for e in self.entries if e.player == player)


DECLINED = "chose not to compete"  # the reason of a player whose chosen tower is None

Choices = Mapping[tuple[str, str], Tower | None]
"""Towers players chose to build, by (festival location, player); None declines to compete.
Players not in it build what the finder finds."""


def resolve_festival(state: GameState, board: Board, space: FestivalSpace, rules: Rules,
                     finder: TowerFinder, chosen: Choices | None = None) -> Outcome:
    """Hold a festival: each player's tower (named or the best), scores, prizes and size tokens."""
    festival = space.festival
    towers: dict[str, Tower] = {}
    reasons: dict[str, str] = {}
    for player in state.players:
        if player.pawn != space.region:
            where = player.pawn or "off the board"
            reasons[player.name] = f"the pawn is in {where}, not {space.region}"
            continue
        key = (space.location, player.name)
        if chosen is not None and key in chosen:
            tower = chosen[key]
            if tower is None:
                reasons[player.name] = DECLINED
                continue
        else:
            tower = finder(player.team, player.ranks, festival, rules)
        if tower is None:
            reasons[player.name] = "no valid tower can compete (4 levels and every token size)"
            continue
        check = check_tower(tower, player.ranks, rules, player.team)
        if not check.valid or not festival.eligible(tower, rules):
            if chosen is not None and key in chosen:
                raise ValueError(f"{player.name} chose {tower} at {space.location}, which "
                                 "cannot compete there")
            raise RuntimeError(f"the tower finder returned {tower} for {player.name}, which "
                               "cannot compete: a bug in the finder")
        towers[player.name] = tower

    order = state.turn_order
    competing = sorted(towers, key=lambda n: (-festival.score(towers[n]), order.index(n)))
    chart = board.prize_chart.get(space.type, {}).get(len(state.players), [])
    ranks: dict[str, int] = {}
    for position, name in enumerate(competing):
        tied = position and festival.score(towers[name]) == festival.score(
            towers[competing[position - 1]])
        shared = rules.prize_ties == "share" and tied
        ranks[name] = ranks[competing[position - 1]] if shared else position + 1

    entries = []
    for player in state.players:
        name = player.name
        tower = towers.get(name)
        rank = ranks.get(name)
        prize = chart[rank - 1] if rank is not None and rank <= len(chart) else None
        entries.append(Entry(name, tower is not None, reasons.get(name), tower,
                             festival.score(tower) if tower else None, rank, prize))

    winners = [(size, size_token_winner({n: towers[n].size_counts()[size] for n in competing},
                                        order, rules))
               for size in space.size_tokens]
    return Outcome(space, tuple(entries), tuple(winners))


def size_token_winner(counts: dict[str, int], order: Sequence[str], rules: Rules
                      ) -> str | None:
    """Who wins a size token: the competitor whose tower holds the most castellers of its
    size (`counts`, by player), at least one; a tie goes to the first in turn `order` under
    the reading `size_token_ties=turn-order`, else to nobody."""
    best = max(counts.values(), default=0)
    leaders = [n for n in order if n in counts and counts[n] == best and best > 0]
    if len(leaders) == 1 or (leaders and rules.size_token_ties == "turn-order"):
        return leaders[0]
    return None


def apply_outcome(state: GameState, outcome: Outcome, rules: Rules) -> GameState:
    """The state after a festival: scores, prizes, size tokens and earned regions (by the
    `earned_regions` reading), and the result written into the festival's space."""
    new = state.clone()
    region = outcome.space.region
    prizes_earn = rules.earned_regions in ("rewards", "festivals")
    for entry in outcome.entries:
        player = new.player(entry.player)
        if entry.score is not None:
            player.best_tower_score = max(player.best_tower_score, entry.score)
        if entry.prize is not None:
            prizes = dict(player.prizes)
            prizes[entry.prize] = prizes.get(entry.prize, 0) + 1
            player.prizes = prizes
            if prizes_earn and region not in player.earned_regions:
                player.earned_regions = [*player.earned_regions, region]
    for size, winner in outcome.size_tokens:
        if winner is not None:
            player = new.player(winner)
            player.size_tokens = [*player.size_tokens, size]
            if region not in player.earned_regions:
                player.earned_regions = [*player.earned_regions, region]
    for space in new.festivals:
        if (space.round, space.location) == (outcome.space.round, outcome.space.location):
            space.resolved = True
            space.result = result_of(outcome)
    return new


def result_of(outcome: Outcome) -> FestivalResult:
    """The outcome as the festival result a state file stores."""
    return FestivalResult(
        competitors=[Competitor(player=e.player, tower=str(e.tower) if e.tower else None,
                                reason=e.reason, score=e.score, rank=e.rank, prize=e.prize)
                     for e in outcome.entries],
        size_tokens=[SizeTokenWinner(size=s, player=p) for s, p in outcome.size_tokens])
