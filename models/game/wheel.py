"""The skill wheel: which board skill tile each region's slot faces in a round."""

from __future__ import annotations

from typing import Literal

from models.game.board import ALL_REGIONS, Board

Side = Literal["standard", "advanced"]


def slot_tiles(board: Board, rotation: int) -> dict[str, str]:
    """Slot (region id or 'all') -> the board skill tile it faces after `rotation` turns."""
    wheel = board.wheel
    size = len(wheel.slots)
    step = rotation if wheel.direction == "clockwise" else -rotation
    return {slot: wheel.tiles[(index + wheel.start_offset + step) % size]
            for index, slot in enumerate(wheel.slots)}


def offers(board: Board, rotation: int, region: str, side: Side) -> list[str]:
    """The tiles a pawn in `region` may train from: its slot, and All Regions on the standard
    side. A tile is a skill name or 'special'."""
    tiles = slot_tiles(board, rotation)
    offered = [tiles[region]]
    if side == "standard" and tiles[ALL_REGIONS] not in offered:
        offered.append(tiles[ALL_REGIONS])
    return offered


def where_offered(board: Board, rotation: int, tile: str, side: Side) -> list[str]:
    """The regions where a pawn may train `tile` (a skill name or 'special')."""
    return [r for r in board.region_ids if tile in offers(board, rotation, r, side)]


def rotation_in_round(start_rotation: int, start_round: int, round_: int) -> int:
    """The wheel turns one step a round."""
    return start_rotation + (round_ - start_round)
