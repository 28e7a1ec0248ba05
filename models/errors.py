"""Typed errors of the rules core.

A malformed spec (bad notation, bad file) is a `SpecError`; a tower that is well written but
breaks the rules is not an error at all: the checker reports it as violations. A step the rules
do not allow now is `Refused`, with a `Reason` code an interface can act on without reading the
message. The CLI maps `SpecError` to exit code 2, `ProvenNo`/`Refused` to 1 and
`TimeLimitReached` to 3.
"""

from __future__ import annotations

from enum import StrEnum


class CastellError(Exception):
    """Base of every error this project raises on purpose."""


class SpecError(CastellError, ValueError):
    """The user's input cannot be read: a notation, an option or a file field is malformed.
    `field`: the input it is about, by the application layer's name (`players`, `what_if_rules`),
    for each edge to word its own way (the CLI names its option, the page its control); the
    message itself names no edge's option."""

    def __init__(self, message: str, *, token: str | None = None, field: str | None = None):
        self.token = token
        self.field = field
        super().__init__(message)


class ProvenNo(CastellError):
    """A well-formed question whose answer is a proven no (the CLI's exit code 1)."""


class TimeLimitReached(CastellError):
    """The time limit came before an answer that must be proven (the CLI's exit code 3): never
    a "no" that is only a clock."""


class NotationError(SpecError):
    """A pool, skill, tower, tile or festival text does not follow the notation."""


class Reason(StrEnum):
    """Why a step was refused, for both games: what an interface shows next to the control
    (the message says it in words; no edge reads the message)."""

    ILLEGAL = "illegal"  # no more precise code applies
    GAME_OVER = "game_over"
    WRONG_PLAYER = "wrong_player"
    STALE_REVISION = "stale_revision"
    NOTHING_TO_UNDO = "nothing_to_undo"
    UNDO_CROSSES_DRAW = "undo_crosses_draw"
    # Castell
    UNKNOWN_REGION = "unknown_region"
    NOT_ADJACENT = "not_adjacent"
    ALREADY_THERE = "already_there"
    NOT_ON_BOARD = "not_on_board"
    ALREADY_MOVED = "already_moved"
    ALREADY_RECRUITED = "already_recruited"
    ALREADY_TRAINED = "already_trained"
    RECRUIT_LIMIT = "recruit_limit"
    SHORT_SUPPLY = "short_supply"
    NOT_OFFERED = "not_offered"
    UNKNOWN_SKILL = "unknown_skill"
    RANK_MAX = "rank_max"
    NO_TOKEN = "no_token"
    SPECIAL_TAKEN = "special_taken"
    FREE_SPECIAL_FIRST = "free_special_first"
    TILE_NOT_HERE = "tile_not_here"
    TILE_NOT_MET = "tile_not_met"
    INVALID_TOWER = "invalid_tower"
    NO_FESTIVAL = "no_festival"
    CANNOT_COMPETE = "cannot_compete"
    REFILL_DUE = "refill_due"
    REFILL_NOT_DUE = "refill_not_due"
    REFILL_COUNT = "refill_count"
    # Castle Combo
    KEY_USED = "key_used"
    NO_KEY = "no_key"
    ROW_CLOSED = "row_closed"
    CHOICE_NEEDED = "choice_needed"
    NEIGHBOUR_NEEDED = "neighbour_needed"
    NOT_NEIGHBOUR = "not_neighbour"
    DISCARD_NEEDED = "discard_needed"
    NOT_IN_ROW = "not_in_row"
    NOT_OFFERED_CARD = "not_offered_card"
    CELL_NEEDED = "cell_needed"
    CELL_ILLEGAL = "cell_illegal"
    TOO_EXPENSIVE = "too_expensive"
    UNUSED_OPTION = "unused_option"
    REVEAL_FIRST = "reveal_first"
    NOT_RECORDED = "not_recorded"
    NOT_WAITING = "not_waiting"
    ALREADY_SEEN = "already_seen"


class Refused(CastellError):
    """A step the rules (or the record) do not allow now: `code` says which rule, the message
    says it in words. The CLI exits 1; a web page shows the message next to the control."""

    def __init__(self, message: str, code: Reason = Reason.ILLEGAL):
        self.code = code
        super().__init__(message)
