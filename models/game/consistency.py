"""A game state as a whole, against its board: every region, tile and name known to the board,
every tile and casteller in exactly one place, the round within the game. Field checks are
pydantic's (`models.game.state`); what only the whole state and its board can show is here,
each problem naming its field path, and so is reading a state file checked against a board."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from models.errors import SpecError
from models.files import read_text
from models.game.board import Board
from models.game.state import GameState, state_from_text
from models.tower import Pool


def load_state(path: Path | str, board: Board | None = None) -> GameState:
    """A game state from a state file on disk (also `state show --json` output), checked."""
    state = state_from_text(read_text(Path(path)), str(path))
    if board is not None:
        check_against_board(state, board)
    return state


def check_against_board(state: GameState, board: Board) -> None:
    """Every region, tile and name in the state exists on the board and agrees."""
    problems = _name_problems(state, board)
    if not problems:  # the whole state, once each name in it is known
        problems += state_problems(state, board)
    if problems:
        raise SpecError("state does not fit the board: " + "; ".join(problems))


def _name_problems(state: GameState, board: Board) -> list[str]:
    """The regions, tiles and players the state names that the board (or the state's own
    players) does not know, in the state file's order of fields."""
    known = set(board.region_ids)
    tiles = {t.id for t in board.performance_tiles}
    return [*_region_problems(state, known, tiles), *_seat_problems(state),
            *_player_problems(state, known, tiles), *_place_problems(state, known)]


def _region_problems(state: GameState, known: set[str], tiles: set[str]) -> list[str]:
    problems = []
    for extra in sorted(set(state.regions) - known):
        problems.append(f"regions.{extra}: not a region of this board")
    for missing in sorted(known - set(state.regions)):
        problems.append(f"regions: the board's region '{missing}' is missing")
    for region_id, region in state.regions.items():
        for tile in region.performance_tiles:
            if tile not in tiles:
                problems.append(f"regions.{region_id}.performance_tiles: unknown tile '{tile}'")
    return problems


def _seat_problems(state: GameState) -> list[str]:
    problems = []
    names = [p.name for p in state.players]
    if sorted(names) != sorted(state.turn_order) or len(set(names)) != len(names):
        problems.append("turn_order: must name each player once")
    if state.turn.player not in names:
        problems.append(f"turn.player: no player '{state.turn.player}'")
    return problems


def _player_problems(state: GameState, known: set[str], tiles: set[str]) -> list[str]:
    problems = []
    for index, player in enumerate(state.players):
        if player.pawn is not None and player.pawn not in known:
            problems.append(f"players.{index}.pawn: unknown region '{player.pawn}'")
        for tile in player.claimed_tiles:
            if tile not in tiles:
                problems.append(f"players.{index}.claimed_tiles: unknown tile '{tile}'")
        for region_id in player.earned_regions:
            if region_id not in known:
                problems.append(f"players.{index}.earned_regions: unknown region '{region_id}'")
    return problems


def _place_problems(state: GameState, known: set[str]) -> list[str]:
    problems = []
    for index, space in enumerate(state.festivals):
        if space.region not in known:
            problems.append(f"festivals.{index}.region: unknown region '{space.region}'")
    for region_id in state.refills_due:
        if region_id not in known:
            problems.append(f"refills_due.{region_id}: not a region of this board")
    return problems


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
