"""Castell as a game in play (`models.play.GameInPlay`): the referee (`models.game.referee`)
behind the interface both games share. A step is an action, or a festival tower named for
this round (`NameTower`); what a seat sees is the state with the bag and the seed that draws
from it (the future refills) hidden. The tower searches the referee needs are the caller's
(`festivals`: the towers of a round's festivals; `tiles`: the claims among the legal steps):
the rules core holds no solver."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from models.game.actions import Action
from models.game.board import Board
from models.game.contest import TowerFinder
from models.game.referee import TileFinder, apply, legal_actions, name_festival_tower
from models.game.scoring import score_player
from models.game.state import GameState, state_from_text
from models.play.interface import Seat


@dataclass(frozen=True)
class NameTower:
    """The player to move names `tower` (None: not competing) for this round's festival at
    `location` (`castell play ... festival-tower`)."""

    location: str
    tower: str | None


Step = Action | NameTower


def hidden(state: GameState) -> GameState:
    """What a player sees of the state: the bag and the seed (the future refills) hidden."""
    seen = state.clone()
    seen.bag = None
    seen.seed = 0  # the seed only decides the hidden draws
    return seen


@dataclass(frozen=True)
class CastellInPlay:
    """A Castell position on its board, with the tower searches its referee asks."""

    kind: ClassVar[str] = "castell"
    state: GameState
    board: Board
    festivals: TowerFinder | None = None
    tiles: TileFinder | None = None

    @staticmethod
    def from_text(text: str, board: Board, festivals: TowerFinder | None = None,
                  tiles: TileFinder | None = None) -> CastellInPlay:
        return CastellInPlay(state_from_text(text), board, festivals, tiles)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.state.players)

    def to_move(self) -> Seat | None:
        if self.state.game_over:
            return None
        return self.players.index(self.state.turn.player)

    def legal_steps(self, seat: Seat) -> Sequence[Step]:
        if seat != self.to_move():
            return []
        return legal_actions(hidden(self.state), self.board, self.state.game_rules,
                             tiles=self.tiles)

    def apply(self, step: Step) -> CastellInPlay:
        rules = self.state.game_rules
        if isinstance(step, NameTower):
            state = name_festival_tower(self.state, self.board, self.state.turn.player,
                                        step.tower, rules, step.location)
        else:
            state = apply(self.state, self.board, step, rules, self.festivals)
        return replace(self, state=state)

    @property
    def game_over(self) -> bool:
        return self.state.game_over

    def scores(self) -> tuple[int, ...]:
        return tuple(score_player(p, self.board).total for p in self.state.players)

    def view(self, seat: Seat) -> CastellInPlay:
        return replace(self, state=hidden(self.state))

    def copy(self) -> CastellInPlay:
        return replace(self, state=self.state.clone())

    def save(self) -> str:
        return self.state.to_json()
