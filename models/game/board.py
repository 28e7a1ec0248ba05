"""The board data file: regions, borders, wheel, festivals, tiles, prizes and scoring tables.

Everything the published rules leave unnumbered lives here as data (rules page section 7); the
default board ships inside the package and a user can pass their own with `--board FILE`.
"""

from __future__ import annotations

import difflib
import unicodedata
from functools import cached_property
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from models.errors import NotationError, SpecError
from models.files import load_toml, validate
from models.game.regions import RegionGraph
from models.tower import STANDARD, ExhibitionTile, Size, Tile, parse_skill, parse_tile

FestivalType = Literal["I", "II"]
Prize = Literal["trophy", "medal", "ribbon"]
ALL_REGIONS = "all"
SPECIAL = "special"
PLAYER_COUNTS = (2, 3, 4)
MAX_ROUNDS = 100  # a bound for a board's rounds: the CLI's round options share it
# Bounds on a custom board, far above any real one (7 regions, 7 tokens a player), so that a
# typo cannot make the route tables or the planner's domains huge
MAX_REGIONS = 100
MAX_SPECIAL_TOKENS = 100
MAX_COORDINATE = 1e6


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Region(_Strict):
    """A region of the board: id, name, where it is drawn."""
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    name: Annotated[str, Field(min_length=1)]
    # NaN would make `board --json` invalid; 1e308 made the map's scaling overflow to inf
    x: Annotated[float, Field(allow_inf_nan=False, ge=-MAX_COORDINATE, le=MAX_COORDINATE)]
    y: Annotated[float, Field(allow_inf_nan=False, ge=-MAX_COORDINATE, le=MAX_COORDINATE)]


class Wheel(_Strict):
    """The skill wheel: its slots and the tiles on each side."""
    slots: list[str]
    tiles: list[str]
    start_offset: Annotated[int, Field(ge=0)] = 0
    direction: Literal["clockwise", "counterclockwise"] = "clockwise"
    side: Literal["standard", "advanced"] = "standard"

    @field_validator("tiles")
    @classmethod
    def _known_tiles(cls, tiles: list[str]) -> list[str]:
        for tile in tiles:
            if tile.lower() != SPECIAL:
                try:
                    parse_skill(tile)
                except NotationError as error:
                    raise ValueError(f"{error} (or '{SPECIAL}')") from None
        return [t.lower() for t in tiles]


class FestivalLocation(_Strict):
    """A festival location tile: the town, its region and its festival type."""
    name: Annotated[str, Field(min_length=1)]
    region: str
    type: FestivalType


class CalendarRow(_Strict):
    """A round of the festival calendar and its spaces."""
    round: Annotated[int, Field(ge=1)]
    spaces: Annotated[list[FestivalType], Field(min_length=1)]
    players: list[int] = list(PLAYER_COUNTS)


class PerformanceTile(_Strict):
    """A local performance tile of the board: id, the tile it is, its points."""
    id: Annotated[str, Field(min_length=1)]
    tile: str
    points: Annotated[int, Field(ge=0)]

    @field_validator("tile")
    @classmethod
    def _parses(cls, text: str) -> str:
        try:
            return str(parse_tile(text))
        except NotationError as error:
            raise ValueError(str(error)) from None

    @model_validator(mode="after")
    def _points_are_levels(self) -> PerformanceTile:
        spec = self.spec
        if isinstance(spec, ExhibitionTile) and spec.points != self.points:
            raise ValueError(f"an exhibition tile scores its levels: {self.tile} is worth "
                             f"{spec.points} points, not {self.points}")
        return self

    @property
    def spec(self) -> Tile:
        """The tile this performance tile asks for."""
        return parse_tile(self.tile)


class Scoring(_Strict):
    """The end-of-game scoring tables: region variety and prizes."""

    # points are never negative: a negative prize would make winning a festival cost points
    region_variety: Annotated[list[Annotated[int, Field(ge=0)]], Field(min_length=1)]
    prizes: dict[Prize, Annotated[int, Field(ge=0)]]
    special_token: Annotated[int, Field(ge=0)] = 1
    size_token_first: Annotated[int, Field(ge=0)] = 2
    size_token_repeat: Annotated[int, Field(ge=0)] = 1

    def variety(self, regions: int) -> int:
        """The region-variety points for a number of earned regions."""
        table = self.region_variety
        return table[min(regions, len(table) - 1)]


class Board(_Strict):
    """A board file: regions, links, the wheel, festivals, tiles, the bag and scoring."""
    name: str
    provisional: list[str] = []
    starting_castellers: Annotated[int, Field(ge=0)] = 7
    special_tokens: Annotated[int, Field(ge=0, le=MAX_SPECIAL_TOKENS)] = 7
    rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS)] = 10
    tiles_per_region: Annotated[int, Field(ge=0)] = 2
    refill_rounds: list[int] = []
    setup_castellers: dict[int, Annotated[int, Field(ge=0)]]
    # a pool holds at most the rules' count per size, so no bag holds more
    bag: dict[Size, Annotated[int, Field(ge=0, le=STANDARD.max_per_size)]]
    regions: Annotated[list[Region], Field(min_length=1, max_length=MAX_REGIONS)]
    borders: list[tuple[str, str]]
    dotted_links: list[tuple[str, str]] = []
    wheel: Wheel
    festival_locations: list[FestivalLocation]
    calendar: list[CalendarRow]
    size_tokens: list[Size]
    performance_tiles: list[PerformanceTile]
    prize_chart: dict[FestivalType, dict[int, list[Prize]]]
    scoring: Scoring

    @model_validator(mode="after")
    def _consistent(self) -> Board:
        ids = [r.id for r in self.regions]
        self._check_regions(ids)
        self._check_links(ids)
        self._check_pieces(ids)
        for players in PLAYER_COUNTS:
            self._check_supply(players)
        return self

    def _check_regions(self, ids: list[str]) -> None:
        """Region ids unique, names a player can type and tell apart."""
        if len(set(ids)) != len(ids):
            raise ValueError(f"regions: duplicate region id in {ids}")
        names: dict[str, int] = {}
        for index, region in enumerate(self.regions):
            key = _fold(region.name)  # as `find_region` reads a name: one region per name
            if not key:
                raise ValueError(f"regions.{index}.name: '{region.name}' has no letter or digit "
                                 "a player could type")
            if key in names:
                raise ValueError(f"regions.{index}.name: '{region.name}' is also the name of "
                                 f"regions.{names[key]}")
            names[key] = index

    def _check_links(self, ids: list[str]) -> None:
        """Borders and dotted links between known regions, a connected map."""
        known = set(ids)
        for field in ("borders", "dotted_links"):
            for index, (a, b) in enumerate(getattr(self, field)):
                for end in (a, b):
                    if end not in known:
                        raise ValueError(f"{field}.{index}: unknown region '{end}'")
                if a == b:
                    raise ValueError(f"{field}.{index}: a region cannot border itself ('{a}')")
        unreached = _unreached(ids, [*self.borders, *self.dotted_links])
        if unreached:
            raise ValueError(f"borders: no route reaches {', '.join(unreached)} from "
                             f"'{ids[0]}'; the map must be connected")

    def _check_pieces(self, ids: list[str]) -> None:
        """The wheel, festival locations, tiles, calendar and refills fit the regions and
        rounds."""
        known = set(ids)
        slots = self.wheel.slots
        if sorted(slots) != sorted([*ids, ALL_REGIONS]):
            raise ValueError(f"wheel.slots: must hold each region id once and '{ALL_REGIONS}' "
                             f"(got {slots})")
        if len(self.wheel.tiles) != len(slots):
            raise ValueError(f"wheel.tiles: {len(slots)} tiles needed, one per slot "
                             f"(got {len(self.wheel.tiles)})")
        for index, location in enumerate(self.festival_locations):
            if location.region not in known:
                raise ValueError(f"festival_locations.{index}.region: unknown region "
                                 f"'{location.region}'")
        seen: set[str] = set()
        for index, tile in enumerate(self.performance_tiles):
            if tile.id in seen:
                raise ValueError(f"performance_tiles.{index}.id: duplicate tile id '{tile.id}'")
            seen.add(tile.id)
        for index, row in enumerate(self.calendar):
            if row.round > self.rounds:
                raise ValueError(f"calendar.{index}.round: round {row.round} is after the "
                                 f"last round ({self.rounds})")
        for index, refill in enumerate(self.refill_rounds):
            if not 1 <= refill <= self.rounds:
                raise ValueError(f"refill_rounds.{index}: round {refill} is not a round of the "
                                 f"game (1 to {self.rounds})")

    def _check_supply(self, players: int) -> None:
        if players not in self.setup_castellers:
            raise ValueError(f"setup_castellers: no count for {players} players")
        spaces = [s for row in self.calendar if players in row.players for s in row.spaces]
        kinds: tuple[FestivalType, ...] = ("I", "II")
        for kind in kinds:
            have = sum(1 for f in self.festival_locations if f.type == kind)
            if spaces.count(kind) > have:
                raise ValueError(f"calendar: {spaces.count(kind)} type {kind} spaces for "
                                 f"{players} players but only {have} such locations")
            if kind in spaces and players not in self.prize_chart.get(kind, {}):
                raise ValueError(f"prize_chart.{kind}: no prizes for {players} players")
        if len(spaces) > len(self.size_tokens):
            raise ValueError(f"size_tokens: {len(spaces)} festival spaces for {players} players "
                             f"but only {len(self.size_tokens)} tokens")
        needed = self.tiles_per_region * len(self.regions)
        if len(self.performance_tiles) < needed:
            raise ValueError(f"performance_tiles: {needed} needed, got "
                             f"{len(self.performance_tiles)}")
        dealt = self.setup_castellers[players] * len(self.regions) \
            + self.starting_castellers * players
        if dealt > sum(self.bag.values()):
            raise ValueError(f"bag: {dealt} castellers dealt at setup for {players} players but "
                             f"the bag holds {sum(self.bag.values())}")

    @cached_property
    def graph(self) -> RegionGraph:
        """The region graph, built once and owned by this board (no process-wide cache)."""
        return RegionGraph(self)

    @cached_property
    def region_ids(self) -> tuple[str, ...]:
        """The ids of the regions, in board order."""
        return tuple(r.id for r in self.regions)

    def region(self, region_id: str) -> Region:
        """The region of an id."""
        for region in self.regions:
            if region.id == region_id:
                return region
        raise SpecError(f"unknown region '{region_id}'", token=region_id)

    def tile(self, tile_id: str) -> PerformanceTile:
        """The performance tile of an id."""
        for tile in self.performance_tiles:
            if tile.id == tile_id:
                return tile
        raise SpecError(f"unknown local performance tile '{tile_id}'", token=tile_id)

    def find_region(self, text: str) -> Region:
        """A region by id or name, ignoring case, accents and punctuation; did-you-mean else."""
        key = _fold(text)
        for region in self.regions:
            if key in (_fold(region.id), _fold(region.name)):
                return region
        names = {_fold(r.name): r.name for r in self.regions}
        names.update({_fold(r.id): r.name for r in self.regions})
        close = difflib.get_close_matches(key, list(names), n=1, cutoff=0.5)
        hint = f"; did you mean '{names[close[0]]}'?" if close else ""
        raise SpecError(f"unknown region '{text}'{hint}", token=text)

    def to_toml(self) -> str:
        """The board as a TOML board file."""
        data = _string_keys(self.model_dump(mode="json"))
        assert isinstance(data, dict)
        import tomli_w  # deferred: only writing a board needs it

        return tomli_w.dumps(data)


def _unreached(ids: list[str], links: list[tuple[str, str]]) -> list[str]:
    """The regions no chain of links reaches from the first one."""
    near: dict[str, set[str]] = {i: set() for i in ids}
    for a, b in links:
        near[a].add(b)
        near[b].add(a)
    seen, todo = {ids[0]}, [ids[0]]
    while todo:
        for other in near[todo.pop()] - seen:
            seen.add(other)
            todo.append(other)
    return [i for i in ids if i not in seen]


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if c.isalnum()).lower()


def _string_keys(value: object) -> object:
    """TOML keys are strings: the int keys (sizes, player counts) are written as such."""
    if isinstance(value, dict):
        return {str(k): _string_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_string_keys(v) for v in value]
    return value


def default_board_path() -> Path:
    """The path of the default board file shipped with the package."""
    # beside this module (the package data; importlib.resources would cost every command
    # that reads the board ~10 ms to import)
    return Path(__file__).resolve().parent / "data" / "board.toml"


def load_board(path: Path | str | None = None) -> Board:
    """The board in `path`, or the default board shipped with the package."""
    return load_toml(Board, Path(path) if path is not None else default_board_path())


def board_from_dict(data: object, source: str = "board") -> Board:
    """A board from a parsed board file, checked."""
    return validate(Board, data, source)
