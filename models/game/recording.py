"""Recording a real game: each step applied through the referee and kept in the state's
history, so that the history replays to the same state (and `undo` is a replay).

A step is an action of the player whose turn it is, a refill's real draw, or a tower a player
names for this round's festival. Festivals held at the end of a round are stored in their
festival spaces (`FestivalSpace.result`); a replay builds the recorded towers again instead of
asking a tower finder.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from models.errors import Reason, SpecError
from models.game.board import Board
from models.game.consistency import check_against_board
from models.game.contest import DECLINED, TowerFinder
from models.game.referee import IllegalAction, apply, name_festival_tower, refill
from models.game.setup import casteller_census
from models.game.state import (
    ActionEntry,
    GameState,
    History,
    HistoryEntry,
    RefillEntry,
)
from models.tower import Pool, Tower


def step(state: GameState, board: Board, entry: HistoryEntry,
         finder: TowerFinder | None = None,
         recorded: dict[tuple[str, str], Tower | None] | None = None) -> GameState:
    """The state (without history) after one step; `recorded` towers go before the finder's."""
    rules = state.game_rules
    if isinstance(entry, ActionEntry):
        if entry.player != state.turn.player:
            raise IllegalAction(f"it is {state.turn.player}'s turn, not {entry.player}'s",
                                Reason.WRONG_PLAYER)
        return apply(state, board, entry.action, rules, finder, recorded)
    if isinstance(entry, RefillEntry):
        return refill(state, board, entry.region, list(Pool.parse(entry.castellers)))
    return name_festival_tower(state, board, entry.player, entry.tower, rules, entry.location)


def record(state: GameState, board: Board, entry: HistoryEntry,
           finder: TowerFinder | None = None) -> GameState:
    """`state` after `entry`, with the entry added to its history (started here if none)."""
    # the start is a position, not a write of the file: it carries no revision of its own
    start = state.without_history().model_copy(update={"revision": 0})
    history = state.history or History(start=start)
    new = step(state.without_history(), board, entry, finder)
    new.history = History(start=history.start, entries=[*history.entries, entry])
    check_census(new, board)
    return new


def recorded_towers(state: GameState) -> dict[tuple[str, str], Tower | None]:
    """The towers built at every festival held so far, as the referee's `chosen` towers
    (players who had no valid tower are left to the finder, which finds none again)."""
    rules = state.game_rules
    towers: dict[tuple[str, str], Tower | None] = {}
    for space in state.festivals:
        if space.result is None:
            continue
        for competitor in space.result.competitors:
            key = (space.location, competitor.player)
            if competitor.tower is not None:
                towers[key] = Tower.parse(competitor.tower, rules)
            elif competitor.reason == DECLINED:
                towers[key] = None
    return towers


def _no_tower(*_: object) -> Tower | None:
    return None


def replay(start: GameState, board: Board, entries: Sequence[HistoryEntry],
           towers: dict[tuple[str, str], Tower | None]) -> GameState:
    """The state `entries` lead to from `start`, festivals built with the recorded `towers`
    (see `recorded_towers`); the result carries the history."""
    state = start.without_history()
    for number, entry in enumerate(entries, start=1):
        try:
            state = step(state, board, entry, _no_tower, towers)
        except IllegalAction as error:
            raise SpecError(f"history.entries.{number - 1}: does not replay: {error}") from None
    if entries:
        state.history = History(start=start.without_history(), entries=list(entries))
    return state


def undo(state: GameState, board: Board) -> GameState:
    """The state before the last recorded step (exactly as it was written then)."""
    if state.history is None or not state.history.entries:
        raise IllegalAction("nothing to undo: no step has been recorded in this state",
                            Reason.NOTHING_TO_UNDO)
    return replay(state.history.start, board, state.history.entries[:-1],
                  recorded_towers(state))


def check_census(state: GameState, board: Board) -> None:
    """The bag, the regions and the teams hold exactly the board's castellers (when the state
    keeps a bag)."""
    if state.bag is None:
        return
    census = casteller_census(state)
    box = Counter({size: n for size, n in board.bag.items() if n})
    if census != box:
        diff = ", ".join(f"size {s}: {census[s]} instead of {box[s]}"
                         for s in sorted(set(census) | set(box)) if census[s] != box[s])
        raise SpecError(f"castellers do not add up to the board's {sum(box.values())} "
                        f"(bag + regions + teams): {diff}")


def check_history(state: GameState, board: Board) -> None:
    """A state's history replays from its start to the stored position (`SpecError` naming the
    first step that does not, or the first field that differs): a hand edit, or a history that
    does not belong to the state, is refused when the file is loaded, so that `undo` can never
    write a state that does not load."""
    if state.history is None:
        return
    start = state.history.start
    try:
        check_against_board(start, board)
        check_census(start, board)
    except SpecError as error:
        raise SpecError(f"history.start: {error}") from None
    replayed = replay(start, board, state.history.entries, recorded_towers(state))
    stored = state.without_history().model_dump(mode="json")
    again = replayed.without_history().model_copy(update={"revision": state.revision})
    got = again.model_dump(mode="json")
    if got != stored:
        raise SpecError("history: the recorded steps do not lead to the stored position "
                        f"({_first_difference(stored, got)}); was the file edited by hand?")


def _first_difference(stored: object, replayed: object, path: str = "") -> str:
    """Where two dumped states first differ, as a field path with both values."""
    if isinstance(stored, dict) and isinstance(replayed, dict):
        for key in [*stored, *(k for k in replayed if k not in stored)]:
            if stored.get(key) != replayed.get(key):
                return _first_difference(stored.get(key), replayed.get(key),
                                         f"{path}.{key}" if path else str(key))
    if isinstance(stored, list) and isinstance(replayed, list) and len(stored) == len(replayed):
        for index, (a, b) in enumerate(zip(stored, replayed, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{path}.{index}")
    return f"{path}: stored {stored!r}, replayed {replayed!r}"
