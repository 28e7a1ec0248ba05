"""Starting a Castell game: a seeded deal or the real one typed in, with the readings it is
played with stored in the state."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from models.errors import SpecError
from service.results import SCHEMA_VERSION
from service.results.game import StateNewOutput, StateShowOutput

if TYPE_CHECKING:
    from models.game import Board, GameState
    from service.castell import Game


def players_of(text: str) -> tuple[int, list[str] | None]:
    """The players as a count ("3") or names in turn order ("Anna,Biel,Carla"); every edge's
    players field."""
    text = text.strip()
    if text.lstrip("+-").isdigit() and not re.fullmatch(r"[0-9]+", text):
        # "-1", or digits that are not ASCII (fullwidth): a count, not a name we could read
        raise SpecError(f"2 to 4 players, not '{text}'", field="players")
    if text.isdigit():
        return int(text), None
    if not text.strip(", "):  # "" is no player at all, not one player named ""
        raise SpecError(f"a count (2 to 4) or names (Anna,Biel), not '{text}'", field="players")
    listed = [n.strip() for n in text.split(",")]
    return len(listed), listed


@dataclass(frozen=True)
class TypedDeal:
    """A deal file's TOML as typed (into the web page), not a file on disk: its errors name
    the deal, never a temporary file's path."""
    text: str


def start_game(board: Board, board_name: str, count: int | None, names: list[str] | None,
               seed: int,
               deal: str | Path | TypedDeal | None, rules_text: str,
               wheel_side: Literal["standard", "advanced"] | None) -> GameState:
    """The first state of a game; its census checked against the board's bag. `count` is the
    number of players asked for (None: not said; 3 for a seeded deal); a deal's count that
    contradicts it is refused, not silently kept. `deal`: a deal file's path, or its text."""
    from models.game import check_census, game_from_deal, load_deal, new_game, parse_deal
    from models.tower import rules_named

    rules = rules_named(rules_text)
    if deal is not None:
        if isinstance(deal, TypedDeal):  # the page's players field, its deal
            dealt = parse_deal(deal.text, "the deal")
            asked, where = f"{count} players named", "the deal"
        else:  # `state new`'s options
            dealt = load_deal(deal)
            asked, where = f"{count} players", f"the deal in {deal}"
        if count is not None and count != len(dealt.players):
            raise SpecError(f"{asked}, but {where} is for "
                            f"{len(dealt.players)} players ({', '.join(dealt.players)})",
                            field="players")
        state = game_from_deal(board, dealt, names, rules, board_name=board_name,
                               wheel_side=wheel_side)
    else:
        count = 3 if count is None else count
        if not 2 <= count <= 4:
            raise SpecError(f"2 to 4 players, not {count}", field="players")
        state = new_game(board, count, seed, names, board_name=board_name, rules=rules,
                         wheel_side=wheel_side)
    check_census(state, board)
    return state


def started(state: GameState, wrote: str | None, seed: int, deal: str | Path | None
            ) -> StateNewOutput:
    """What `state new --json` says: the game started (and the state, when not written)."""
    return StateNewOutput(
        schema_version=SCHEMA_VERSION, wrote=wrote, players=[p.name for p in state.players],
        seed=None if deal is not None else seed, deal=None if deal is None else str(deal),
        rules=state.game_rules.name, state=state if wrote is None else None)


def shown(game: Game) -> StateShowOutput:
    """The state file's own fields, `schema_version` first (itself a state file)."""
    return StateShowOutput.model_validate(
        {"schema_version": SCHEMA_VERSION, **game.state.model_dump(mode="json")})
