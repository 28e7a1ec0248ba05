"""Dealing a legal starting state from a board (rules page section 5), seeded."""

from __future__ import annotations

import random
from collections import Counter
from typing import Literal

from models.errors import SpecError
from models.game.board import Board
from models.game.state import FestivalSpace, GameState, PlayerState, RegionState, TurnState
from models.names import check_names
from models.tower import Pool, Rules

DEFAULT_NAMES = ("Anna", "Biel", "Carla", "Dani")


def draw(bag: list[int], count: int, rng: random.Random) -> list[int]:
    """Take `count` castellers at random from `bag` (a list of sizes), in place."""
    taken = []
    for _ in range(min(count, len(bag))):
        taken.append(bag.pop(rng.randrange(len(bag))))
    return taken


def new_game(board: Board, players: int = 3, seed: int = 0,
             names: list[str] | None = None, board_name: str = "default",
             rules: Rules | None = None,
             wheel_side: Literal["standard", "advanced"] | None = None) -> GameState:
    """A seeded random deal (`rules`: the readings stored in the state, if given)."""
    names = _seat_names(board, players, names)
    rng = random.Random(seed)
    bag = sorted(s for size, count in board.bag.items() for s in [size] * count)
    regions = {}
    for region in board.region_ids:
        castellers = draw(bag, board.setup_castellers[players], rng)
        regions[region] = RegionState(castellers=str(Pool.of(castellers)))
    hands = {name: draw(bag, board.starting_castellers, rng) for name in names}
    _lay_tiles(board, regions, rng)
    festivals = _calendar(board, players, rng)
    return GameState(
        board=board_name, seed=seed, rules=None if rules is None else rules.settings(), round=1,
        turn_order=names, turn=TurnState(player=names[0]),
        wheel_rotation=0, wheel_side=wheel_side or board.wheel.side, regions=regions,
        festivals=festivals,
        bag=str(Pool.of(bag)),
        players=[PlayerState(name=name, pool=str(Pool.of(hands[name])),
                             special_tokens=board.special_tokens) for name in names],
    )


def _seat_names(board: Board, players: int, names: list[str] | None) -> list[str]:
    """The players' names (the default ones when none are given), checked."""
    if players not in board.setup_castellers:
        counts = ", ".join(map(str, sorted(board.setup_castellers)))
        raise SpecError(f"this board is for {counts} players, not {players}")
    names = list(names) if names else list(DEFAULT_NAMES[:players])
    if len(names) != players or len(set(names)) != players or not all(names):
        raise SpecError(f"give {players} different, non-empty player names (got {names})")
    check_names(names)
    return names


def _lay_tiles(board: Board, regions: dict[str, RegionState], rng: random.Random) -> None:
    """The local performance tiles, shuffled, laid in the regions' rows."""
    tiles = [t.id for t in board.performance_tiles]
    rng.shuffle(tiles)
    for index, region in enumerate(board.region_ids):
        per = board.tiles_per_region
        regions[region].performance_tiles = tiles[index * per:(index + 1) * per]


def _calendar(board: Board, players: int, rng: random.Random) -> list[FestivalSpace]:
    """The calendar's festival spaces for `players`, each with a location tile and a size
    token drawn at random."""
    locations = {kind: [f for f in board.festival_locations if f.type == kind]
                 for kind in ("I", "II")}
    for pile in locations.values():
        rng.shuffle(pile)
    tokens = list(board.size_tokens)
    rng.shuffle(tokens)
    festivals = []
    for row in sorted(board.calendar, key=lambda r: r.round):
        if players not in row.players:
            continue
        for kind in row.spaces:
            location = locations[kind].pop()
            festivals.append(FestivalSpace(round=row.round, location=location.name,
                                           region=location.region, type=kind,
                                           size_tokens=[tokens.pop()]))
    return festivals


def casteller_census(state: GameState) -> Counter[int]:
    """Every casteller in the game: bag + regions + teams (constant through a game)."""
    census: Counter[int] = Counter()
    if state.bag is not None:
        census.update(Pool.parse(state.bag).counts())
    for region in state.regions.values():
        census.update(region.supply.counts())
    for player in state.players:
        census.update(player.team.counts())
    return census
