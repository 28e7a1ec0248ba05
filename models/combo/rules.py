"""The Castle Combo rules object: the game's numbers and every [reading] as a named switch."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

MIN_PLAYERS = 2
MAX_PLAYERS = 5
CARDS_EACH = 9  # a full 3x3 tableau: fixed by the tableau rules, not a switch
ROW_SIZE = 3


class ComboRules(BaseModel):
    """Castle Combo's numbers and readings, stored in a game file."""
    model_config = ConfigDict(extra="forbid", frozen=True)

    start_gold: Annotated[int, Field(ge=0, le=1000)] = 15
    start_keys: Annotated[int, Field(ge=0, le=1000)] = 2
    flip_gold: Annotated[int, Field(ge=0, le=1000)] = 6
    flip_keys: Annotated[int, Field(ge=0, le=1000)] = 2
    # [reading] a Messenger icon points to the other row ("other_row", rules page 2.5); with
    # "printed" a card file may name the row (`messenger = "castle"`), `true` still meaning
    # the other row.
    messenger_target: Literal["other_row", "printed"] = "other_row"
    # [reading] `fill_purses = n` fills the n purses that gain the most points (rate x room;
    # then the earlier placed), or those with the most room ("most_room").
    fill_purses_order: Literal["most_points", "most_room"] = "most_points"


READINGS: dict[str, str] = {
    "messenger_target": "where a Messenger icon sends the Messenger: always the other row "
                        "(other_row) or the row a card file names (printed)",
    "fill_purses_order": "which purses `fill_purses = n` fills: the most points gained "
                         "(most_points) or the most room (most_room)",
}
