"""A game state as a whole: every tile and casteller in exactly one place, the round within the
game. Field checks are pydantic's; what only the whole state (and its board) can show is here,
each problem naming its field path."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from models.tower import Pool

if TYPE_CHECKING:
    from models.game.board import Board
    from models.game.state import GameState


def state_problems(state: GameState, board: Board) -> list[str]:
    """What makes `state` impossible on `board` (empty when it is consistent)."""
    return [*_round_problems(state, board), *_tile_problems(state),
            *_casteller_problems(state, board), *_token_problems(state, board),
            *_counter_problems(state, board)]


def _counter_problems(state: GameState, board: Board) -> list[str]:
    """Counters no game can reach: more size tokens of a size than the box holds, more prizes
    than the calendar has festivals, a tower score above what the whole bag could build, a
    festival space twice, a refill larger than a region's setup count. (A state typed in by
    hand may hold prizes and tokens without the festivals that gave them: the box's totals,
    not the festivals held, are the bound.)"""
    problems = []
    spaces = [(f.round, f.location) for f in state.festivals]
    for index, key in enumerate(spaces):
        if key in spaces[:index]:
            problems.append(f"festivals.{index}: the festival at {key[1]} in round {key[0]} "
                            "is there twice")
    box = Counter(board.size_tokens)
    won: Counter[int] = Counter()
    for player in state.players:
        won.update(player.size_tokens)
    for size in sorted(won):
        if won[size] > box[size]:
            problems.append(f"size_tokens: the players hold {won[size]} of size {size}; the "
                            f"box has {box[size]}")
    festivals = max(sum(len(row.spaces) for row in board.calendar), len(state.festivals))
    castellers = sum(board.bag.values())
    for index, player in enumerate(state.players):
        prizes = sum(player.prizes.values())
        if prizes > festivals:
            problems.append(f"players.{index}.prizes: {prizes} prizes; the game has "
                            f"{festivals} festivals")
        # a tower's score is its height plus its castellers on token sizes: each at most the
        # castellers in the box
        if player.best_tower_score > 2 * castellers:
            problems.append(f"players.{index}.best_tower_score: {player.best_tower_score} is "
                            f"more than any tower of the board's {castellers} castellers scores")
    target = board.setup_castellers.get(len(state.players), 0)
    for region_id, due in state.refills_due.items():
        if due > target:
            problems.append(f"refills_due.{region_id}: {due}; a region draws at most {target}")
    return problems


def _token_problems(state: GameState, board: Board) -> list[str]:
    """Special action tokens are never made: each player starts with the board's count, and a
    spent one lies in a region's row until a claimer collects it. At most, not exactly (a
    state typed in by hand may leave some out), but never more than the box holds."""
    box = board.special_tokens * len(state.players)
    have = (sum(p.special_tokens + p.collected_tokens for p in state.players)
            + sum(r.special_tokens for r in state.regions.values()))
    if have <= box:
        return []
    return [f"special_tokens: the players, their collected tokens and the regions hold {have}; "
            f"the game has {box} ({board.special_tokens} per player)"]


def _round_problems(state: GameState, board: Board) -> list[str]:
    problems = []
    last = board.rounds
    if state.round > last + 1:
        problems.append(f"round: {state.round} is past the game's {last} rounds")
    elif state.round > last and not state.game_over:
        problems.append(f"game_over: round {state.round} is past the game's {last} rounds, "
                        "so the game is over")
    elif state.game_over and state.round < last:
        problems.append(f"game_over: the game cannot be over in round {state.round} of {last}")
    for index, space in enumerate(state.festivals):
        if space.round > last:
            problems.append(f"festivals.{index}.round: {space.round} is past the game's "
                            f"{last} rounds")
    return problems


def _tile_problems(state: GameState) -> list[str]:
    """A local performance tile lies in one region or is held by one player, never both."""
    places: dict[str, list[str]] = {}
    for region_id, region in state.regions.items():
        for tile in region.performance_tiles:
            places.setdefault(tile, []).append(f"regions.{region_id}.performance_tiles")
    for index, player in enumerate(state.players):
        for tile in player.claimed_tiles:
            places.setdefault(tile, []).append(f"players.{index}.claimed_tiles")
    return [f"{where[1]}: tile '{tile}' is also in {where[0]}"
            for tile, where in places.items() if len(where) > 1]


def _casteller_problems(state: GameState, board: Board) -> list[str]:
    """The regions, the teams and the bag share the board's bag between them: exactly, when
    the state keeps the bag; at most, when it does not (castellers are never spent)."""
    held: Counter[int] = Counter()
    for region in state.regions.values():
        held.update(region.supply)
    for player in state.players:
        held.update(player.team)
    tracked = state.bag is not None
    if tracked:
        held.update(Pool.parse(state.bag or "none"))
    problems = []
    for size in sorted(set(held) | set(board.bag)):
        have, box = held[size], board.bag.get(size, 0)
        if have > box or (tracked and have != box):
            where = "regions, teams and bag" if tracked else "regions and teams"
            problems.append(f"castellers: the {where} hold {have} of size {size}; the board's "
                            f"bag has {box}")
    return problems
