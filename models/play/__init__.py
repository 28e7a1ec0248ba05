"""A game in play, whichever game: the one interface both games' referees sit behind
(`GameInPlay`), after OpenSpiel's `State` and boardgame.io's `playerView`, and the registry of
the kinds of game (`KINDS`: each kind's adapter, `models.game.play` and `models.combo.play`;
this package is the only place both are named, so that neither game's rules import the
other's)."""

from models.play.interface import GameInPlay, Seat
from models.play.kinds import KINDS, GameKind, kind_named

__all__ = ["KINDS", "GameInPlay", "GameKind", "Seat", "kind_named"]
