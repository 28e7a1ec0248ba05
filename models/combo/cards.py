"""One Castle Combo card as the card file writes it (rules page section 4).

A card's scroll (`score`) and its ability's counted effects share one set of *count* forms
(`per = ...`); the scroll adds three *condition* forms (`if = ...`) that score once. Every form is
its own strict pydantic model, so an unknown key or a bad value is refused with its field name.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    field_validator,
    model_validator,
)

Location = Literal["castle", "village"]
LOCATIONS: tuple[Location, ...] = ("castle", "village")
Shield = Literal["nobility", "faith", "scholarship", "military", "craftsmanship", "peasantry"]
SHIELDS: tuple[Shield, ...] = ("nobility", "faith", "scholarship", "military", "craftsmanship",
                               "peasantry")
Scope = Literal["tableau", "row", "column", "cross"]
Cell = Literal["top-left", "top", "top-right", "left", "centre", "right", "bottom-left", "bottom",
               "bottom-right"]
CELLS: tuple[Cell, ...] = ("top-left", "top", "top-right", "left", "centre", "right",
                           "bottom-left", "bottom", "bottom-right")
Resource = Literal["gold", "keys"]

# Bounds that keep every later sum and allocation small; the real game stays far inside them.
MAX_COST = 99
MAX_AMOUNT = 100
MAX_CAPACITY = 99
MAX_SET = 12
# The ways through an ability's `choose` effects (one choice per `choose`, nested ones too):
# every take of the card is listed once per way, and the advisor and the bots try each, so
# the product of nested choices is bounded up front (the sample deck's cards have 2 at most;
# 8 chooses of 4 options would be 65,536 ways, and nested ones millions).
MAX_ABILITY_PATHS = 16


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


# --- count forms (`per = ...`): what a scroll or an ability counts ------------------------------

class ShieldCount(_Strict):
    """A scroll count: shields of one type."""
    per: Literal["shield"]
    shield: Shield
    scope: Scope = "tableau"


class ShieldTypeCount(_Strict):
    """A scroll count: distinct shield types."""
    per: Literal["shield_type"]
    scope: Scope = "tableau"


class MissingShieldTypeCount(_Strict):
    """A scroll count: shield types missing from the tableau."""
    per: Literal["missing_shield_type"]


class ShieldSetCount(_Strict):
    """A scroll count: complete sets of the listed shields."""
    per: Literal["shield_set"]
    shields: Annotated[list[Shield], Field(min_length=1, max_length=MAX_SET)]
    scope: Scope = "tableau"


class IdenticalShieldsCount(_Strict):
    """A scroll count: groups of identical shields of a size."""
    per: Literal["identical_shields"]
    size: Annotated[int, Field(ge=1, le=MAX_SET)]
    scope: Scope = "tableau"


class BannerCount(_Strict):
    """A scroll count: banners of one location."""
    per: Literal["banner"]
    location: Location
    scope: Scope = "tableau"


class BannerSetCount(_Strict):
    """A scroll count: complete sets of the listed banners."""
    per: Literal["banner_set"]
    locations: Annotated[list[Location], Field(min_length=1, max_length=MAX_SET)]
    scope: Scope = "tableau"


class CostCount(_Strict):
    """A scroll count: cards of a printed cost."""
    per: Literal["card_with_cost"]
    cost: Annotated[int, Field(ge=0, le=MAX_COST)]
    or_more: bool = False
    scope: Scope = "tableau"


class ShieldsOnCardCount(_Strict):
    """A scroll count: cards carrying a number of shields."""
    per: Literal["card_with_shields"]
    count: Annotated[int, Field(ge=0, le=2)]
    scope: Scope = "tableau"


class DiscountCount(_Strict):
    """A scroll count: cards with a discount."""
    per: Literal["card_with_discount"]
    scope: Scope = "tableau"


class KeyCount(_Strict):
    """A scroll count: the player's keys."""
    per: Literal["key"]


class PurseCount(_Strict):
    """A scroll count: gold on this card's own purse."""
    per: Literal["purse_gold"]
    capacity: Annotated[int, Field(ge=1, le=MAX_CAPACITY)]


class AllPurseCount(_Strict):
    """A scroll count: gold on all the player's purses."""
    per: Literal["all_purse_gold"]


Count = Annotated[
    ShieldCount | ShieldTypeCount | MissingShieldTypeCount | ShieldSetCount
    | IdenticalShieldsCount | BannerCount | BannerSetCount | CostCount | ShieldsOnCardCount
    | DiscountCount | KeyCount | PurseCount | AllPurseCount,
    Field(discriminator="per"),
]
PER_FORMS = ("shield", "shield_type", "missing_shield_type", "shield_set", "identical_shields",
             "banner", "banner_set", "card_with_cost", "card_with_shields", "card_with_discount",
             "key", "purse_gold", "all_purse_gold")


# --- condition forms (`if = ...`): a scroll that scores once -----------------------------------

class PositionIf(_Strict):
    """A scroll condition: the card stands in one of the listed cells."""
    if_: Annotated[Literal["position"], Field(alias="if")]
    cells: Annotated[list[Cell], Field(min_length=1, max_length=9)]


class ShieldMissingIf(_Strict):
    """A scroll condition: the tableau lacks a shield type."""
    if_: Annotated[Literal["shield_missing"], Field(alias="if")]
    shield: Shield


class FaceDownIf(_Strict):
    """A scroll condition: a face-down card."""
    if_: Annotated[Literal["face_down"], Field(alias="if")]


Condition = Annotated[
    Annotated[PositionIf, Tag("position")] | Annotated[ShieldMissingIf, Tag("shield_missing")]
    | Annotated[FaceDownIf, Tag("face_down")],
    Discriminator(lambda v: v.get("if") if isinstance(v, dict) else getattr(v, "if_", None)),
]
IF_FORMS = ("position", "shield_missing", "face_down")


def _split(data: Any, keep: tuple[str, ...], nested: str) -> Any:
    """A flat file table -> `keep` keys plus the rest nested under `nested` (for validation)."""
    rest = {k: v for k, v in data.items() if k not in keep}
    return {**{k: v for k, v in data.items() if k in keep}, nested: rest}


class Score(_Strict):
    """A scroll: `points` per counted item, or once when the condition holds."""

    points: Annotated[int, Field(ge=-MAX_AMOUNT, le=MAX_AMOUNT)]
    count: Count | None = None
    condition: Condition | None = None

    @model_validator(mode="before")
    @classmethod
    def _flat(cls, data: Any) -> Any:
        if not isinstance(data, dict) or ("per" not in data and "if" not in data):
            return data  # already nested (or missing its form: refused below)
        if "if" in data and "per" in data:
            raise ValueError("a score has either 'per' or 'if', not both")
        if "if" in data:
            return _split(data, ("points",), "condition")
        if "per" in data:
            return _split(data, ("points",), "count")
        return data

    @model_validator(mode="after")
    def _one_form(self) -> Score:
        if (self.count is None) == (self.condition is None):
            raise ValueError("a score needs 'per' (points per item) or 'if' (points once)")
        return self

    def as_file(self) -> dict[str, Any]:
        """The flat table the card file writes."""
        inner = self.count if self.count is not None else self.condition
        assert inner is not None
        return {"points": self.points, **inner.model_dump(by_alias=True, exclude_defaults=False)}


# --- ability effects -----------------------------------------------------------------------------

class Gain(_Strict):
    """`{gain, amount}` or `amount` per counted item (own tableau, or the chosen neighbour's)."""

    gain: Resource
    amount: Annotated[int, Field(ge=0, le=MAX_AMOUNT)] = 1
    count: Count | None = None
    from_: Annotated[Literal["self", "neighbour"], Field(alias="from")] = "self"

    @model_validator(mode="before")
    @classmethod
    def _flat(cls, data: Any) -> Any:
        if isinstance(data, dict) and "per" in data:
            return _split(data, ("gain", "amount", "from"), "count")
        return data

    @model_validator(mode="after")
    def _neighbour_counts_tableau(self) -> Gain:
        if self.from_ == "neighbour":
            if self.count is None:
                raise ValueError("'from = \"neighbour\"' needs a 'per' to count")
            if getattr(self.count, "scope", "tableau") != "tableau":
                raise ValueError("a count from the neighbour's tableau takes no row/column scope")
        return self


class OpponentsGain(_Strict):
    """An ability effect: every opponent gains gold or keys."""
    opponents_gain: Resource
    amount: Annotated[int, Field(ge=0, le=MAX_AMOUNT)]


class PurseGold(_Strict):
    """An ability effect: put up to n gold on each of the buyer's purses."""
    purse_gold: Annotated[int, Field(ge=1, le=MAX_CAPACITY)]


class FillPurses(_Strict):
    """An ability effect: fill n purses."""
    fill_purses: Annotated[int, Field(ge=1, le=9)]


class DiscardFromRow(_Strict):
    """An ability effect: discard a card from a row, for a reward."""
    discard_from_row: Location
    reward: Resource


class Choose(_Strict):
    """An ability effect: one of several effect lists, chosen by the player."""
    choose: Annotated[list[list[Effect]], Field(min_length=2, max_length=4)]


def _effect_tag(value: Any) -> str | None:
    keys = set(value) if isinstance(value, dict) else set(type(value).model_fields)
    for tag in ("gain", "opponents_gain", "purse_gold", "fill_purses", "discard_from_row",
                "choose"):
        if tag in keys:
            return tag
    return None


Effect = Annotated[
    Annotated[Gain, Tag("gain")] | Annotated[OpponentsGain, Tag("opponents_gain")]
    | Annotated[PurseGold, Tag("purse_gold")] | Annotated[FillPurses, Tag("fill_purses")]
    | Annotated[DiscardFromRow, Tag("discard_from_row")] | Annotated[Choose, Tag("choose")],
    Discriminator(_effect_tag, custom_error_type="effect",
                  custom_error_message="an effect needs one of gain, opponents_gain, "
                                       "purse_gold, fill_purses, discard_from_row, choose"),
]
Choose.model_rebuild()


def effect_file(effect: Effect) -> dict[str, Any]:
    """The flat table the card file writes for one effect."""
    if isinstance(effect, Gain):
        flat: dict[str, Any] = {"gain": effect.gain, "amount": effect.amount}
        if effect.count is not None:
            flat.update(effect.count.model_dump())
        if effect.from_ != "self":
            flat["from"] = effect.from_
        return flat
    if isinstance(effect, Choose):
        return {"choose": [[effect_file(e) for e in option] for option in effect.choose]}
    return effect.model_dump(by_alias=True)


def walk(effects: list[Effect]) -> list[Effect]:
    """Every effect, including those inside `choose` options (for statistics and checks)."""
    found: list[Effect] = []
    for effect in effects:
        found.append(effect)
        if isinstance(effect, Choose):
            for option in effect.choose:
                found.extend(walk(option))
    return found


def ability_paths(effects: list[Effect]) -> int:
    """How many ways lead through the effects' `choose`s (1 without any)."""
    count = 1
    for effect in effects:
        if isinstance(effect, Choose):
            count *= sum(ability_paths(option) for option in effect.choose)
    return count


class Card(_Strict):
    """A Castle or Village card: cost, shields, banners, scroll, ability, purse, Messenger."""
    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9_.]{1,16}$")]
    name: Annotated[str, Field(min_length=1, max_length=80)]
    location: Location
    cost: Annotated[int, Field(ge=0, le=MAX_COST)]
    shields: Annotated[list[Shield], Field(max_length=2)] = []
    # true: the banner's arrow, which points to the other row [reading `messenger_target`];
    # a location: the row a file says it points to
    messenger: bool | Location = False
    discount: Annotated[list[Location], Field(max_length=2)] = []
    score: Score | None = None
    ability: Annotated[list[Effect], Field(max_length=8)] = []

    @field_validator("discount")
    @classmethod
    def _distinct(cls, locations: list[Location]) -> list[Location]:
        if len(set(locations)) != len(locations):
            raise ValueError("a location is listed twice")
        return locations

    @model_validator(mode="after")
    def _few_paths(self) -> Card:
        paths = ability_paths(self.ability)
        if paths > MAX_ABILITY_PATHS:
            raise ValueError(f"a card's ability has at most {MAX_ABILITY_PATHS} choice paths "
                             f"(ways through its 'choose' effects); this one has {paths}")
        return self

    @property
    def has_messenger(self) -> bool:
        """Whether the card carries a Messenger icon."""
        return self.messenger is not False

    @property
    def capacity(self) -> int:
        """Purse capacity (0 for a card that is not a purse)."""
        if self.score is not None and isinstance(self.score.count, PurseCount):
            return self.score.count.capacity
        return 0

    @property
    def purse_rate(self) -> int:
        """Points per gold on this card's purse (0 without a purse)."""
        return self.score.points if self.capacity and self.score is not None else 0

    def as_file(self) -> dict[str, Any]:
        """The table the card file writes (defaults left out)."""
        table: dict[str, Any] = {"id": self.id, "name": self.name, "location": self.location,
                                 "cost": self.cost, "shields": list(self.shields)}
        if self.messenger is not False:
            table["messenger"] = self.messenger
        if self.discount:
            table["discount"] = list(self.discount)
        if self.score is not None:
            table["score"] = self.score.as_file()
        if self.ability:
            table["ability"] = [effect_file(e) for e in self.ability]
        return table
