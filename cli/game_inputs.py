"""Loading the board and state files the game commands take."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from models.errors import SpecError
from models.game import load_board

if TYPE_CHECKING:
    from models.game import Board, GameState

# The state's models (and the referee's) are imported where a state is read, so that a command
# that reads only the board (`castell board`, `route`) does not build them.


def board_from(path: str | Path | None) -> Board:
    return load_board(path)


def game_from(state_path: str | Path, board_path: str | Path | None, pending_refills: bool = False
              ) -> tuple[Board, GameState]:
    """The state and its board: `--board` if given, else the board the state names (a file
    path as written by `state new --board`, tried as given and beside the state file), else
    the default board. Unless `pending_refills`, a state whose refill draws are not all
    recorded yet is refused, naming them (a planner cannot look past a draw it has not seen).
    The state's history is dropped (only `castell play` keeps it: `game_with_history`)."""
    board, state = game_with_history(state_path, board_path)
    if not pending_refills:
        from models.game import missing_refills

        message = missing_refills(state)
        if message is not None:
            raise SpecError(message.replace("STATE", str(state_path)))
    return board, state.without_history()


def game_with_history(state_path: str | Path, board_path: str | Path | None
                      ) -> tuple[Board, GameState]:
    """The state (with its history) and its board; see `game_from`."""
    from models.game import check_against_board, load_state

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


def tile_text(tile: str, board: Board) -> str:
    """A tile as `shape:...`/`exhibition:...` text, or a tile id of the board (`LP09`)."""
    if ":" in tile:
        return tile
    return board.tile(tile.strip().upper()).tile


def player_inputs(state_path: str | Path, board_path: str | Path | None, name: str | None
                  ) -> tuple[Board, GameState, str, str, str]:
    """A player's team, skill ranks and the game's readings (as `--pool`, `--skills` and
    `--rules` text) from a game state; `name` defaults to whose turn it is."""
    board, state = game_from(state_path, board_path, pending_refills=True)
    player = state.player(name or state.turn.player)
    return board, state, player.pool, player.skills, state.game_rules.spec
