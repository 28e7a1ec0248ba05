"""The Castle Combo game state file (JSON): the cards, the position now, where it started and
the actions since (for `undo`, which replays them).

A *table* is the position: each location's deck (top first) and discard pile, the two rows of
face-up cards (None: a hole waiting to be revealed, in a recorded game), rows out of the game,
the Messenger, the players (tableau in placement order with coordinates relative to the first
card, gold, keys, gold on purse cards), whose turn it is and whether their key is spent.
In a *recorded* game (`recorded = true`) the decks' order is unknown: a deck is the set of cards
not yet seen, and `reveal` says what was turned up.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    field_serializer,
    field_validator,
    model_validator,
)

from models.combo.cards import LOCATIONS, Card, Location
from models.combo.deck import MAX_FILE_BYTES, Deck
from models.combo.rules import CARDS_EACH, MAX_PLAYERS, MIN_PLAYERS, ROW_SIZE, ComboRules
from models.combo.scoring import MAX_GOLD, MAX_KEYS
from models.combo.tableau import Grid, Pos, Slot, sequence_problem
from models.errors import SpecError
from models.files import parse_json, read_text, validate
from models.names import check_names, names_problem, typed_match

MAX_SEED = 2**63 - 1
MAX_HISTORY = 2000


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Placed(_Model):
    """A card in a tableau, at a place relative to the player's first card."""
    card: str
    row: int
    column: int
    face_down: bool = False


class PlayerState(_Model):
    """A player: name, gold, keys, tableau, purse gold, whether their key is spent."""
    name: Annotated[str, Field(min_length=1, max_length=40)]
    gold: Annotated[int, Field(ge=0, le=MAX_GOLD)]
    keys: Annotated[int, Field(ge=0, le=MAX_KEYS)]
    tableau: Annotated[list[Placed], Field(max_length=CARDS_EACH)] = []
    purses: dict[str, Annotated[int, Field(ge=0)]] = {}  # card id -> gold on it

    @field_validator("name")
    @classmethod
    def _plain(cls, name: str) -> str:
        name = name.strip()
        if not name or any(ch in name for ch in ",\n\r\t"):
            raise ValueError("a player name is non-empty text without commas")
        return name

    def cells(self) -> dict[Pos, Slot]:
        """The tableau's cards by place."""
        return {(p.row, p.column): Slot(p.card, p.face_down) for p in self.tableau}

    def grid(self) -> Grid:
        """The tableau as a 3x3 grid."""
        return Grid.from_cells(self.cells())

    def position_of(self, card: str) -> Pos:
        """The place of a card in the tableau."""
        for p in self.tableau:
            if p.card == card:
                return (p.row, p.column)
        raise KeyError(card)


class Table(_Model):
    """The position: decks, discard piles, rows, the Messenger, players, whose turn."""
    decks: dict[Location, list[str]]
    discard: dict[Location, list[str]] = {"castle": [], "village": []}
    rows: dict[Location, Annotated[list[str | None], Field(max_length=ROW_SIZE)]]
    dead: list[Location] = []
    messenger: Location = "village"
    players: Annotated[list[PlayerState], Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)]
    current: Annotated[int, Field(ge=0)] = 0
    key_used: bool = False
    shuffles: Annotated[int, Field(ge=0)] = 0

    @model_validator(mode="after")
    def _both_locations(self) -> Table:
        for name in ("decks", "discard", "rows"):
            if set(getattr(self, name)) != set(LOCATIONS):
                raise ValueError(f"'{name}' needs exactly 'castle' and 'village'")
        return self

    @property
    def game_over(self) -> bool:
        """Whether every tableau is complete."""
        return all(len(p.tableau) == CARDS_EACH for p in self.players)

    @property
    def player(self) -> PlayerState:
        """The player whose turn it is."""
        return self.players[self.current]

    def named(self, name: str) -> PlayerState:
        """The player called `name`: as stored, or as typed at the table (another case,
        spaces around it) when that names exactly one player; a SpecError naming the
        players otherwise."""
        found = typed_match([p.name for p in self.players], name)
        if found is not None:
            return self.players[found]
        names = ", ".join(p.name for p in self.players)
        raise SpecError(f"no player '{name}' in the game (players: {names})")

    def row_cards(self, location: Location) -> list[str]:
        """The cards of a row."""
        return [c for c in self.rows[location] if c is not None]

    def holes(self, location: Location) -> int:
        """Empty slots of a live row (waiting for a reveal in a recorded game)."""
        if location in self.dead:
            return 0
        return sum(1 for c in self.rows[location] if c is None)


class HistoryEntry(_Model):
    """A recorded action and who played it."""
    player: str
    action: str


class GameState(_Model):
    """A Castle Combo game file: cards, readings, the start and current positions, the history."""
    version: Literal[1] = 1
    rules: ComboRules = ComboRules()
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] = 0
    recorded: bool = False
    card_source: str = "sample"
    cards: list[Card]
    start: Table
    now: Table
    history: Annotated[list[HistoryEntry], Field(max_length=MAX_HISTORY)] = []
    # +1 on every write of the file (service.store): a writer that loaded an older revision
    # is refused, so two writers never lose a step (0 in a file written before revisions)
    revision: Annotated[int, Field(ge=0)] = 0
    # the deck built from `cards`, kept by this state and by the copies made from it (a
    # simulated game asks for it at every action, and building one rebuilds its index); it
    # says which card list and source it was built for, so a copy with other cards builds its
    # own (the referee's copies share the card list; nothing changes it in place)
    _deck: tuple[list[Card], str, int, Deck] | None = PrivateAttr(default=None)

    @field_serializer("cards")
    def _flat_cards(self, cards: list[Card]) -> list[dict[str, Any]]:
        return [card.as_file() for card in cards]

    def __eq__(self, other: object) -> bool:
        # the kept deck is a cache, not part of the game: two states are equal by their fields
        if not isinstance(other, GameState):
            return NotImplemented
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def deck(self) -> Deck:
        """The game's deck (the cards it holds)."""
        # read from the private slot itself: pydantic's attribute lookup for a private field
        # costs ten times the rest, and the referee asks for the deck at every step
        private = self.__pydantic_private__
        kept = private.get("_deck") if private is not None else None
        if kept is None or kept[0] is not self.cards or kept[1] != self.card_source \
                or kept[2] != len(self.cards):
            kept = (self.cards, self.card_source, len(self.cards),
                    Deck(tuple(self.cards), self.card_source))
            self._deck = kept
        return kept[3]

    def to_json(self) -> str:
        """The game file's JSON text."""
        return json.dumps(self.model_dump(mode="json"), ensure_ascii=False, indent=1) + "\n"


def check_table(table: Table, deck: Deck, where: str) -> None:
    """Every card of the deck in exactly one place; tableaux legal; purses on face-up purses."""
    places: Counter[str] = Counter()
    _check_piles(table, deck, where, places)
    names = [p.name for p in table.players]
    if len(set(names)) != len(names):
        raise SpecError(f"{where}: two players have the same name")
    problem = names_problem(names)  # reserved, control or bidi names; names only case apart
    if problem:
        raise SpecError(f"{where}: {problem}")
    for player in table.players:
        _check_tableau(player, deck, where, places)
    twice = [c for c, n in places.items() if n > 1]
    if twice:
        raise SpecError(f"{where}: card '{twice[0]}' is in two places")
    missing = [c.id for c in deck.cards if c.id not in places]
    if missing:
        raise SpecError(f"{where}: card '{missing[0]}' is nowhere (deck, row, discard, tableau)")
    if table.current >= len(table.players):
        raise SpecError(f"{where}: current player {table.current} is not a player")
    for location in LOCATIONS:
        if location in table.dead:
            continue
        if len(table.rows[location]) != ROW_SIZE:
            raise SpecError(f"{where}: the {location} row has {len(table.rows[location])} slots")


def _check_piles(table: Table, deck: Deck, where: str, places: Counter[str]) -> None:
    """Each deck, discard pile and row holds cards of its own location (counted in `places`)."""
    for location in LOCATIONS:
        for card_id in [*table.decks.get(location, []), *table.discard.get(location, []),
                        *table.row_cards(location)]:
            places[card_id] += 1
            if deck.card(card_id).location != location:
                raise SpecError(f"{where}: card '{card_id}' is in the {location} deck, row or "
                                f"discard pile but is not a {location} card")


def _check_tableau(player: PlayerState, deck: Deck, where: str, places: Counter[str]) -> None:
    """A player's tableau is laid legally (its cards counted in `places`), and their gold is
    on face-up purses of theirs with room for it."""
    for placed in player.tableau:
        places[placed.card] += 1
    problem = sequence_problem((p.row, p.column) for p in player.tableau)
    if problem:
        raise SpecError(f"{where}: {player.name}'s tableau: {problem}")
    for card_id, gold in player.purses.items():
        placed_card = next((p for p in player.tableau if p.card == card_id), None)
        card = deck.card(card_id)
        if placed_card is None or placed_card.face_down or gold > card.capacity:
            raise SpecError(f"{where}: {player.name} has {gold} gold on '{card_id}', "
                            "which is not a face-up purse of theirs with that much room")


def state_from_dict(data: Any, source: str = "state") -> GameState:
    """A game from a parsed game file, checked: every card in exactly one place, start and now."""
    state = validate(GameState, data, source)
    deck = state.deck()
    if len(deck.by_id) != len(deck.cards):
        raise SpecError(f"{source}: a card id appears twice in the state's cards")
    # a game whose rows can run dry before every tableau is full could never end (no take is
    # left, and the game ends only at 9 cards each): refused as `new_game` refuses its deck
    check_enough_cards(deck, len(state.start.players), f"{source}: the game's cards")
    check_table(state.start, deck, f"{source}: start")
    check_table(state.now, deck, source)
    return state


# a game's state holds its deck and history: a few card files' worth at the most
MAX_GAME_BYTES = 4 * MAX_FILE_BYTES


def load_state(path: Path | str) -> GameState:
    """A game from a game file on disk."""
    target = Path(path)
    return state_from_text(read_text(target, MAX_GAME_BYTES), str(target))


def state_from_text(text: str, source: str = "state") -> GameState:
    """A game from a game file's text, checked (`state_from_dict`)."""
    return state_from_dict(parse_json(text, source), source)


def player_names(names: list[str]) -> list[str]:
    """The player names of a new game, checked (2-5 names of 1-40 characters, all distinct)."""
    names = [n.strip() for n in names]
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        shown = ",".join(names)  # the text as typed: `--players 9` is one name, '9'
        shown = shown if len(shown) <= 60 else shown[:60] + "..."
        raise SpecError(f"Castle Combo is for {MIN_PLAYERS}-{MAX_PLAYERS} players, "
                        f"got {len(names)}: '{shown}' (comma-separated names)")
    if any(not n or len(n) > 40 for n in names):
        raise SpecError("a player name is 1-40 characters")
    if len(set(names)) != len(names):
        raise SpecError("two players have the same name")
    check_names(names)
    return names


def check_enough_cards(deck: Deck, players: int, where: str | None = None) -> None:
    """Enough cards that both rows cannot run dry before every tableau is full: with both rows
    out, every card is in a tableau (at most 9 each) or left in a dead row (at most 2 each).
    `where` names the cards in the message (default: the deck's source)."""
    where = where or deck.source
    need = CARDS_EACH * players + 2 * (ROW_SIZE - 1) + 1
    if len(deck.cards) < need:
        raise SpecError(f"{where}: {len(deck.cards)} cards are too few for {players} "
                        f"players (at least {need})")
    for location in LOCATIONS:
        if len(deck.of(location)) < ROW_SIZE:
            raise SpecError(f"{where}: the {location} deck needs at least {ROW_SIZE} cards")


def _players(names: list[str], rules: ComboRules) -> list[PlayerState]:
    return [PlayerState(name=n, gold=rules.start_gold, keys=rules.start_keys) for n in names]


def new_game(deck: Deck, names: list[str], seed: int, rules: ComboRules | None = None,
             first: str | None = None) -> GameState:
    """Shuffle each deck (seeded), deal 3 face up per row, Messenger at the Village row."""
    rules = rules or ComboRules()
    names = player_names(names)
    if not 0 <= seed <= MAX_SEED:
        raise SpecError(f"the seed is 0..{MAX_SEED}")
    check_enough_cards(deck, len(names))
    rng = random.Random(seed)
    decks: dict[Location, list[str]] = {}
    rows: dict[Location, list[str | None]] = {}
    for location in LOCATIONS:
        ids = [c.id for c in deck.of(location)]
        rng.shuffle(ids)
        rows[location] = list(ids[:ROW_SIZE])
        decks[location] = ids[ROW_SIZE:]
    start = rng.randrange(len(names)) if first is None else _index(names, first)
    table = Table(decks=decks, rows=rows, players=_players(names, rules), current=start)
    return GameState(rules=rules, seed=seed, card_source=deck.source, cards=list(deck.cards),
                     start=table, now=table.model_copy(deep=True))


def _index(names: list[str], first: str) -> int:
    """The player `first` names, as typed at the table (another case, spaces around it)."""
    found = typed_match(names, first)
    if found is None:
        raise SpecError(f"first player '{first}' is not one of {', '.join(names)}")
    return found


def recorded_game(deck: Deck, names: list[str], castle: list[str], village: list[str],
                  first: str, rules: ComboRules | None = None) -> GameState:
    """A real game to record: the rows as dealt; the decks' order unknown (revealed later)."""
    rules = rules or ComboRules()
    names = player_names(names)
    check_enough_cards(deck, len(names))
    decks: dict[Location, list[str]] = {}
    rows: dict[Location, list[str | None]] = {}
    dealt_rows: tuple[tuple[Location, list[str]], ...] = (("castle", castle),
                                                          ("village", village))
    for location, dealt in dealt_rows:
        if len(dealt) != ROW_SIZE or len(set(dealt)) != ROW_SIZE:
            raise SpecError(f"the {location} row is {ROW_SIZE} different cards, got {dealt}")
        for card_id in dealt:
            if deck.card(card_id).location != location:
                raise SpecError(f"'{card_id}' is not a {location} card")
        rows[location] = list(dealt)
        decks[location] = sorted(c.id for c in deck.of(location) if c.id not in dealt)
    table = Table(decks=decks, rows=rows, players=_players(names, rules),
                  current=_index(names, first))
    return GameState(rules=rules, recorded=True, card_source=deck.source,
                     cards=list(deck.cards), start=table, now=table.model_copy(deep=True))
