"""What the Castle Combo commands answer."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, PlainSerializer, WithJsonSchema

from models.combo import Card
from service.results.base import Output, TowerStatus, _Part

# A card as the card file writes it (`Card.as_file`), read back by the card model. The card
# file's flat forms are read by the model's own converters, which a JSON Schema cannot say: the
# schema names the fields every card has, the model checks the rest.
FileCard = Annotated[Card, PlainSerializer(lambda card: card.as_file()), WithJsonSchema({
    "type": "object",
    "description": "One card in the card file's format (as `castell combo cards --cards "
                   "FILE` reads it): id, name, location, cost, shields, and as the card has "
                   "them messenger, discount, score, ability.",
    "required": ["id", "name", "location", "cost", "shields"],
    "properties": {"id": {"type": "string"}, "name": {"type": "string"},
                   "location": {"enum": ["castle", "village"]}, "cost": {"type": "integer"},
                   "shields": {"type": "array", "items": {"type": "string"}}},
})]


class ComboCardsOutput(Output):
    """`castell combo cards --json`: the deck's cards, as the card file writes them."""

    source: str = Field(description="'sample' or the card file read.")
    warnings: list[str]
    cards: list[FileCard]


class PurseStats(_Part):
    count: int
    capacities: list[int]
    rates: list[int]


class DeckStats(_Part):
    """A deck's statistics (per location: castle, village)."""

    cards: dict[str, int]
    shields: dict[str, dict[str, int]]
    shields_per_card: dict[str, int] = Field(description="Cards with 0, 1, 2 shields.")
    costs: dict[str, dict[str, int]] = Field(description="Per location: cards per cost.")
    messenger: dict[str, int]
    purses: PurseStats


class ComboStatsOutput(Output):
    """`castell combo cards --stats --json`: the deck's statistics against the real game's."""

    source: str
    deck: DeckStats
    published: DeckStats
    matches: dict[str, bool]
    all_match: bool


class ComboCardScore(_Part):
    cell: str
    id: str
    face_down: bool
    counted: int = Field(description="What the scroll counted (1/0 for a condition).")
    points: int
    scroll: str


class ComboScoreOutput(Output):
    """`castell combo score --json`: a tableau's exact end score."""

    total: int
    cards: list[ComboCardScore]
    keys: int
    purses: dict[str, int] = Field(description="Card id -> gold on it at the end.")
    purse_added: dict[str, int] = Field(description="Card id -> leftover gold put on it now.")
    gold_left: int


class ComboPlayer(_Part):
    name: str
    gold: int
    keys: int
    tableau: str
    cards: int
    purses: dict[str, int]
    discounts: dict[str, int]


class ComboHistoryEntry(_Part):
    player: str
    action: str


class ComboFinalScore(_Part):
    player: str
    total: int
    cards: list[ComboCardScore]
    keys: int
    purses: dict[str, int]
    purse_added: dict[str, int]
    gold_left: int


class ComboCardView(_Part):
    """A face-up card as a player reads it, in plain words."""

    id: str
    name: str
    location: str
    cost: int
    price: int | None = Field(description="What it costs the player to move (with their "
                              "discounts); null once the game is over.")
    shields: list[str]
    messenger: bool
    discount: list[str]
    scroll: str = Field(description="Its scroll in words ('' without one).")
    ability: str = Field(description="Its ability in words ('' without one).")
    capacity: int = Field(description="Its purse's capacity (0: no purse).")


class ComboCell(_Part):
    """A tableau's card: which, and whether it lies face down (drawn as a card's back)."""

    cell: str
    card: str
    face_down: bool
    points: int = Field(default=0, description="What the card scores if the game ended now.")


class ComboTableau(_Part):
    player: str
    cells: list[list[ComboCell | None]] = Field(description="Rows top to bottom; null: empty.")
    score: int = Field(description="The tableau's score if the game ended now.")
    origin: list[int] = Field(default_factory=lambda: [0, 0], description=(
        "The place (row, column), as a take's `at` names places, of the grid's top-left cell."))


class ComboAction(_Part):
    """A legal step of the player to move: the text the referee takes, and its words."""

    step: str
    label: str
    kind: Literal["take", "key", "reveal"]
    card: str | None = None
    at: list[int] | None = Field(default=None, description="Where a take puts the card.")
    face_down: bool = False
    extra: list[str] = Field(default_factory=list, description=(
        "A take's choices in words (a neighbour counted, an option, a discard)."))


class ComboStateOutput(Output):
    """`castell combo show --json` and `combo play --json`: the game as it stands, as every edge
    shows it (the CLI's tables and the table page are drawn from it)."""

    game_over: bool
    to_play: str | None
    key_used: bool
    messenger: str
    rows: dict[str, list[str | None]] = Field(description="Per location, the row's cards "
                                              "(null: a hole a recorded game must reveal).")
    dead_rows: list[str]
    pending_reveals: dict[str, int]
    players: list[ComboPlayer]
    history: list[ComboHistoryEntry]
    scores: list[ComboFinalScore] | None = Field(None, description="Once the game is over.")
    winners: list[str] | None = Field(None, description="Once the game is over.")
    cards: dict[str, ComboCardView] = Field(
        default_factory=dict, description="Every card in the rows and the tableaux, by id.")
    decks: dict[str, int] = Field(default_factory=dict,
                                  description="Per location, the cards left in its deck.")
    discards: dict[str, int] = Field(default_factory=dict,
                                     description="Per location, the cards in its discard.")
    tableaux: list[ComboTableau] = Field(default_factory=list)
    actions: list[ComboAction] = Field(
        default_factory=list, description="The legal steps of the player to move.")


class ComboArrangeOutput(Output):
    """`castell combo arrange --json`: the best arrangement of nine cards."""

    status: TowerStatus
    total: int | None
    tableau: str | None
    bound: int | float | None
    wall_time_s: float
    purse_added: dict[str, int] | None = Field(None, description="With an arrangement.")
    gold_left: int | None = Field(None, description="With an arrangement.")


class ComboActionValue(_Part):
    action: str
    value: float | None = Field(description="Mean final score; null if never sampled.")
    stderr: float
    samples: int
    exact: bool
    reason: str | None


class ComboAdviceOutput(Output):
    """`castell combo advise --json`: the actions of the player to move, best first."""

    player: str
    last_turn: bool
    value: Literal["score", "margin"] = Field(
        description="What a sampled value is: the player's mean final score, or its mean "
                    "margin over the best opponent (exact last-turn values are the score).")
    complete: bool
    wall_time_s: float
    ranking: list[ComboActionValue]


class BotStats(_Part):
    games: int
    wins: float = Field(description="A shared win counts 1/k.")
    win_rate: float
    ci95: list[float]
    mean_score: float
    sd_score: float
    min_score: int
    max_score: int


class CardStats(_Part):
    bought: int
    bought_per_game: float
    mean_points: float | None
    owners_win_rate: float | None


class ComboTournamentOutput(Output):
    """`castell combo tournament --json`: bots against each other."""

    games: int
    bots: dict[str, BotStats]
    cards: dict[str, CardStats]
