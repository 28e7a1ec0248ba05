"""Loading the board and state files the game commands take."""

from __future__ import annotations

from pathlib import Path

from models.errors import SpecError
from models.game import Board, GameState, check_against_board, load_board, load_state


def board_from(path: str | Path | None) -> Board:
    return load_board(path)


def game_from(state_path: str | Path, board_path: str | Path | None
              ) -> tuple[Board, GameState]:
    """The state and its board: `--board` if given, else the board the state names (a file
    path as written by `state new --board`, tried as given and beside the state file), else
    the default board."""
    state = load_state(state_path)
    if board_path is None and state.board != "default":
        named = Path(state.board)
        beside = Path(state_path).parent / named
        found = next((p for p in (named, beside) if p.is_file()), None)
        if found is None:
            raise SpecError(f"{state_path}: board file '{state.board}' not found; "
                            "pass it with --board FILE")
        board_path = str(found)
    board = load_board(board_path)
    check_against_board(state, board)
    return board, state
