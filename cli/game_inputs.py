"""Loading the board and state files the game commands take."""

from __future__ import annotations

from models.board import Board, load_board
from models.state import GameState, load_state


def board_from(path: str | None) -> Board:
    return load_board(path)


def state_from(path: str, board: Board) -> GameState:
    return load_state(path, board)
