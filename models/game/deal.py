"""The real deal, typed in from the table: a TOML deal file and the starting state it gives.

Every field is checked against the board file; an error names the field path
(`regions.girona.castellers: ...`). The castellers still in the bag are what the box holds
minus what was dealt, so the game's castellers always add up to the board's.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from models.errors import NotationError, SpecError
from models.files import parse_toml, read_text, validate
from models.game.board import Board
from models.game.setup import new_game
from models.game.state import (
    MAX_ROTATION,
    FestivalSpace,
    GameState,
    PlayerState,
    RegionState,
    TurnState,
)
from models.names import names_problem
from models.tower import STANDARD, Pool, Rules, Size


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DealRegion(_Strict):
    """A region of a deal file: its castellers and local performance tiles."""
    castellers: str
    performance_tiles: list[str] = []


class DealFestival(_Strict):
    """A festival of a deal file: its round, location tile and size tokens."""
    round: Annotated[int, Field(ge=1)]
    location: str
    size_tokens: Annotated[list[Size], Field(min_length=1)]


class DealWheel(_Strict):
    """The wheel of a deal file: its side and rotation."""
    side: Literal["standard", "advanced"] | None = None  # None: the board's side
    rotation: Annotated[int, Field(ge=0, le=MAX_ROTATION)] = 0


class Deal(_Strict):
    """What lies on the table after setup (rules page section 5)."""

    regions: dict[str, DealRegion]
    players: dict[str, str]  # player name -> the castellers they drew, in turn order
    festivals: list[DealFestival]
    wheel: DealWheel = DealWheel()

    @field_validator("players")
    @classmethod
    def _names(cls, players: dict[str, str]) -> dict[str, str]:
        # no reserved, control or bidi name, no two names only case apart (`models.names`)
        problem = names_problem(list(players))
        if problem:
            raise ValueError(problem)
        return players


def load_deal(path: Path | str) -> Deal:
    """A deal from a deal file on disk."""
    return parse_deal(read_text(Path(path)), str(path))


def parse_deal(text: str, source: str) -> Deal:
    """A deal from a deal file's TOML text (typed into the web page, say); `source` names it
    in an error (a file's path, or "the deal")."""
    return validate(Deal, parse_toml(text, source), source)


def _pool(text: str, where: str, problems: list[str]) -> Pool | None:
    """The pool typed, or None when it is not one (its problem noted: no count of it follows,
    which would add a bogus "0 castellers")."""
    try:
        return Pool.parse(text)
    except NotationError as error:
        problems.append(f"{where}: {error}")
        return None


def game_from_deal(board: Board, deal: Deal, names: list[str] | None = None,
                   rules: Rules = STANDARD, board_name: str = "default",
                   wheel_side: Literal["standard", "advanced"] | None = None) -> GameState:
    """The starting state of a real deal (`names`: the turn order, default the deal's)."""
    problems: list[str] = []
    order = list(names) if names else list(deal.players)
    if sorted(order) != sorted(deal.players):
        problems.append(f"players: the deal names {', '.join(deal.players)}, the turn order "
                        f"{', '.join(order)}")
    count = len(deal.players)
    if count not in board.setup_castellers:
        raise SpecError(f"players: this board is for "
                        f"{', '.join(map(str, sorted(board.setup_castellers)))} players, "
                        f"not {count}")
    dealt: Counter[int] = Counter()
    regions = _regions(board, deal, count, dealt, problems)
    players = _players(board, deal, order, dealt, problems)
    festivals = _festivals(board, deal, count, dealt, problems)
    bag = _bag_left(board, dealt, problems)
    if problems:
        raise SpecError("deal: " + "; ".join(problems))
    return GameState(
        board=board_name, seed=0, deal="recorded", rules=rules.settings(), round=1,
        turn_order=order, turn=TurnState(player=order[0]),
        wheel_rotation=deal.wheel.rotation,
        wheel_side=wheel_side or deal.wheel.side or board.wheel.side,
        regions={r: regions[r] for r in board.region_ids}, festivals=festivals,
        bag=str(Pool.from_counts(bag)), players=players)


def _regions(board: Board, deal: Deal, count: int, dealt: Counter[int],
             problems: list[str]) -> dict[str, RegionState]:
    """Each region's deal, by the board's region id (its castellers counted in `dealt`)."""
    regions: dict[str, RegionState] = {}
    tiles_seen: dict[str, str] = {}
    for key, region in deal.regions.items():
        try:
            region_id = board.find_region(key).id
        except SpecError as error:
            problems.append(f"regions.{key}: {error}")
            continue
        if region_id in regions:
            problems.append(f"regions.{key}: {region_id} is given twice")
        where = f"regions.{key}"
        typed = _pool(region.castellers, f"{where}.castellers", problems)
        pool = typed or Pool()
        wanted = board.setup_castellers[count]
        if typed is not None and pool.total != wanted:
            problems.append(f"{where}.castellers: {pool.total} castellers, but each region "
                            f"gets {wanted} for {count} players")
        dealt.update(pool.counts())
        tiles = _row(board, region.performance_tiles, where, region_id, tiles_seen, problems)
        regions[region_id] = RegionState(castellers=str(pool), performance_tiles=tiles)
    for missing in board.region_ids:
        if missing not in regions and not any(p.startswith("regions.") for p in problems):
            problems.append(f"regions: the board's region '{missing}' "
                            f"({board.region(missing).name}) is missing")
    return regions


def _row(board: Board, typed: list[str], where: str, region_id: str,
         tiles_seen: dict[str, str], problems: list[str]) -> list[str]:
    """A region's row of local performance tiles, ids as the board writes them (`tiles_seen`:
    the region each tile was laid in so far)."""
    known_tiles = {t.id for t in board.performance_tiles}
    tiles = [t.strip().upper() for t in typed]
    if len(tiles) != board.tiles_per_region:
        problems.append(f"{where}.performance_tiles: {len(tiles)} tiles, the board lays "
                        f"{board.tiles_per_region} in each row")
    for index, tile in enumerate(tiles):
        if tile not in known_tiles:
            problems.append(f"{where}.performance_tiles.{index}: unknown tile '{tile}'")
        elif tile in tiles_seen:
            problems.append(f"{where}.performance_tiles.{index}: {tile} is already in "
                            f"{tiles_seen[tile]}'s row")
        tiles_seen[tile] = region_id
    return tiles


def _players(board: Board, deal: Deal, order: list[str], dealt: Counter[int],
             problems: list[str]) -> list[PlayerState]:
    """The players with the castellers they drew (counted in `dealt`), in turn order."""
    players = []
    for name, text in deal.players.items():
        where = f"players.{name}"
        typed = _pool(text, where, problems)
        pool = typed or Pool()
        if typed is not None and pool.total != board.starting_castellers:
            problems.append(f"{where}: {pool.total} castellers, each player draws "
                            f"{board.starting_castellers}")
        dealt.update(pool.counts())
        players.append(PlayerState(name=name, pool=str(pool),
                                   special_tokens=board.special_tokens))
    players.sort(key=lambda p: order.index(p.name) if p.name in order else 0)
    return players


def _bag_left(board: Board, dealt: Counter[int], problems: list[str]) -> Counter[int]:
    """The castellers left in the bag once `dealt` is taken out of the board's."""
    bag = Counter(board.bag)
    bag.subtract(dealt)
    for size in sorted(dealt):
        if bag[size] < 0:
            problems.append(f"castellers: {dealt[size]} of size {size} dealt, the bag holds "
                            f"{board.bag.get(size, 0)}")
    return bag


def _festivals(board: Board, deal: Deal, count: int, dealt: Counter[int],
               problems: list[str]) -> list[FestivalSpace]:
    locations = {loc.name.lower(): loc for loc in board.festival_locations}
    spaces: Counter[tuple[int, str]] = Counter()
    for row in board.calendar:
        if count in row.players:
            spaces.update((row.round, kind) for kind in row.spaces)
    given: Counter[tuple[int, str]] = Counter()
    used: set[str] = set()
    tokens = Counter(board.size_tokens)
    festivals = []
    for index, festival in enumerate(deal.festivals):
        where = f"festivals.{index}"
        location = locations.get(festival.location.strip().lower())
        if location is None:
            close = [loc.name for loc in board.festival_locations
                     if loc.name.lower().startswith(festival.location.strip().lower()[:3])]
            hint = f"; did you mean '{close[0]}'?" if close else ""
            problems.append(f"{where}.location: unknown festival location "
                            f"'{festival.location}'{hint}")
            continue
        if location.name in used:
            problems.append(f"{where}.location: {location.name} is used twice")
        used.add(location.name)
        given[(festival.round, location.type)] += 1
        tokens.subtract(festival.size_tokens)
        festivals.append(FestivalSpace(round=festival.round, location=location.name,
                                       region=location.region, type=location.type,
                                       size_tokens=festival.size_tokens))
    for key in sorted(set(spaces) | set(given)):
        if spaces[key] != given[key]:
            problems.append(f"festivals: round {key[0]} has {spaces[key]} type {key[1]} "
                            f"space(s) for {count} players, the deal gives {given[key]}")
    for size, left in sorted(tokens.items()):
        if left < 0:
            problems.append(f"festivals: {-left} size token(s) {size} more than the board has")
    return sorted(festivals, key=lambda f: (f.round, f.type))


def deal_template(board: Board, names: list[str], seed: int = 0) -> str:
    """A commented deal file to fill in, pre-filled with a seeded deal of the same shape."""
    example = new_game(board, len(names), seed, names)
    lines = [
        "# The real deal: replace every value with what lies on your table, then",
        "#   castell state new --deal THIS_FILE --out game.json",
        "# Castellers are written like '9,7x2,3' (sizes, NxC for C castellers of size N).",
        f"# Board: {board.name}. {len(names)} players: each region gets "
        f"{board.setup_castellers[len(names)]} castellers and {board.tiles_per_region} local "
        f"performance tiles; each player draws {board.starting_castellers} castellers.",
        "",
        "# The skill wheel: side (standard = with the All Regions slot, advanced = No Regions)",
        "# and how many steps it was turned from the board's starting position.",
        "[wheel]",
        f'side = "{example.wheel_side}"',
        "rotation = 0",
        "",
        "# Each player's castellers, in turn order (the first player plays first).",
        "[players]",
    ]
    lines += [f'{p.name} = "{p.pool}"' for p in example.players]
    lines += ["", "# Each region's castellers and the local performance tiles in its row "
              "(tile ids as in `castell board`)."]
    for region_id, region in example.regions.items():
        tiles = ", ".join(f'"{t}"' for t in region.performance_tiles)
        lines += [f"[regions.{region_id}]  # {board.region(region_id).name}",
                  f'castellers = "{region.castellers}"',
                  f"performance_tiles = [{tiles}]", ""]
    lines.append("# The festival location tiles on the calendar and their size tokens.")
    for space in example.festivals:
        lines += ["[[festivals]]", f"round = {space.round}  # a type {space.type} space",
                  f'location = "{space.location}"',
                  f"size_tokens = [{', '.join(map(str, space.size_tokens))}]", ""]
    return "\n".join(lines)
