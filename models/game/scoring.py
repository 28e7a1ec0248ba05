"""End-of-game scoring (rules page section 6): five categories per player, and the winner."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from models.game.board import Board
from models.game.state import GameState, PlayerState

CATEGORIES = ("best_tower", "region_variety", "prizes", "size_tokens", "local_performances")


@dataclass(frozen=True)
class ScoreCard:
    """A player's end-of-game score in the five categories."""
    player: str
    best_tower: int
    region_variety: int
    prizes: int
    size_tokens: int
    local_performances: int

    @property
    def total(self) -> int:
        """The sum of the categories."""
        return sum(getattr(self, c) for c in CATEGORIES)

    def as_dict(self) -> dict[str, int | str]:
        """The score card as JSON."""
        return {"player": self.player, **{c: getattr(self, c) for c in CATEGORIES},
                "total": self.total}


def size_token_points(tokens: list[int], board: Board) -> int:
    """First token of each size scores `size_token_first`, each further one `..._repeat`."""
    counts = Counter(tokens)
    scoring = board.scoring
    return sum(scoring.size_token_first + (n - 1) * scoring.size_token_repeat
               for n in counts.values())


def score_player(player: PlayerState, board: Board) -> ScoreCard:
    """A player's score card on a board."""
    scoring = board.scoring
    prizes = sum(scoring.prizes.get(prize, 0) * n for prize, n in player.prizes.items())
    tiles = sum(board.tile(t).points for t in player.claimed_tiles)
    return ScoreCard(
        player=player.name,
        best_tower=player.best_tower_score,
        region_variety=scoring.variety(len(set(player.earned_regions))),
        prizes=prizes,
        size_tokens=size_token_points(player.size_tokens, board),
        local_performances=tiles + scoring.special_token * player.collected_tokens,
    )


def score_game(state: GameState, board: Board) -> tuple[list[ScoreCard], list[str]]:
    """Every player's card, and the winner(s): highest total (several on a tie)."""
    cards = [score_player(p, board) for p in state.players]
    top = max(c.total for c in cards)
    return cards, [c.player for c in cards if c.total == top]
