"""Castle Combo as a game in play (`models.play.GameInPlay`): the referee
(`models.combo.referee`) behind the interface both games share. A step is an action; what a
seat sees is the game with the decks' order hidden (each deck, and the start's, sorted: their
contents are public, their order is not) and no seed to draw the reshuffles with."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from models.combo.actions import Action
from models.combo.referee import apply, final_scores, legal_actions
from models.combo.state import GameState, Table, state_from_text
from models.play.interface import Seat


def _sorted_decks(table: Table) -> Table:
    return table.model_copy(update={"decks": {where: sorted(cards)
                                              for where, cards in table.decks.items()}})


def hidden(state: GameState) -> GameState:
    """What a player sees: the decks' order (now and at the start) and the seed hidden."""
    return state.model_copy(update={"now": _sorted_decks(state.now),
                                    "start": _sorted_decks(state.start), "seed": 0})


@dataclass(frozen=True)
class ComboInPlay:
    """A Castle Combo position."""

    kind: ClassVar[str] = "combo"
    state: GameState

    @staticmethod
    def from_text(text: str) -> ComboInPlay:
        return ComboInPlay(state_from_text(text))

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.state.now.players)

    def to_move(self) -> Seat | None:
        return None if self.state.now.game_over else self.state.now.current

    def legal_steps(self, seat: Seat) -> Sequence[Action]:
        return legal_actions(self.state) if seat == self.to_move() else []

    def apply(self, step: Action) -> ComboInPlay:
        return ComboInPlay(apply(self.state, step))

    @property
    def game_over(self) -> bool:
        return self.state.now.game_over

    def scores(self) -> tuple[int, ...]:
        found, _ = final_scores(self.state)
        return tuple(s.sheet.total for s in found)

    def view(self, seat: Seat) -> ComboInPlay:
        return ComboInPlay(hidden(self.state))

    def copy(self) -> ComboInPlay:
        return ComboInPlay(self.state.model_copy(deep=True))

    def save(self) -> str:
        return self.state.to_json()
