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
    PlayerState,
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
        found = _competing_tower(player, space, rules, finder, chosen)
        if isinstance(found, str):
            reasons[player.name] = found
        else:
            towers[player.name] = found
    order = state.turn_order
    competing = sorted(towers, key=lambda n: (-festival.score(towers[n]), order.index(n)))
    ranks = _ranks(competing, towers, festival, rules)
    chart = board.prize_chart.get(space.type, {}).get(len(state.players), [])
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


def _competing_tower(player: PlayerState, space: FestivalSpace, rules: Rules,
                     finder: TowerFinder, chosen: Choices | None) -> Tower | str:
    """The tower `player` competes with at `space` (the one they chose, else the finder's),
    or why they do not compete. A chosen tower that cannot compete there is a `ValueError`; a
    found one, a `RuntimeError` (the finder's bug)."""
    if player.pawn != space.region:
        where = player.pawn or "off the board"
        return f"the pawn is in {where}, not {space.region}"
    festival = space.festival
    key = (space.location, player.name)
    named = chosen is not None and key in chosen
    if chosen is not None and named:
        tower = chosen[key]
        if tower is None:
            return DECLINED
    else:
        tower = finder(player.team, player.ranks, festival, rules)
    if tower is None:
        return "no valid tower can compete (4 levels and every token size)"
    check = check_tower(tower, player.ranks, rules, player.team)
    if not check.valid or not festival.eligible(tower, rules):
        if named:
            raise ValueError(f"{player.name} chose {tower} at {space.location}, which "
                             "cannot compete there")
        raise RuntimeError(f"the tower finder returned {tower} for {player.name}, which "
                           "cannot compete: a bug in the finder")
    return tower


def _ranks(competing: list[str], towers: dict[str, Tower], festival: Festival, rules: Rules
           ) -> dict[str, int]:
    """Each competitor's rank (1 = best; `competing` best first), tied scores sharing one under
    the `prize_ties=share` reading."""
    ranks: dict[str, int] = {}
    for position, name in enumerate(competing):
        tied = position and festival.score(towers[name]) == festival.score(
            towers[competing[position - 1]])
        shared = rules.prize_ties == "share" and tied
        ranks[name] = ranks[competing[position - 1]] if shared else position + 1
    return ranks


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
