"""The Castell game handle: one object per game that every interface (the CLI, the web page,
the batch runner) asks, so that the readings, the names as typed, the notation, the record and
the revision are handled in one place.

A `Game` holds a state with its history and its board. Every rule-dependent question takes the
game's own readings (`game.rules`, from the state); a what-if under other readings says so by
name (`what_if_rules`). Writes go through `service.store.GameFile`: atomic, under a lock,
refused when the file moved on since it was loaded.
"""

from __future__ import annotations

import contextlib
import pickle
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from models.errors import Reason, Refused, SpecError
from models.game import RefillEntry, TowerChoiceEntry, load_board
from models.play import KINDS, GameInPlay
from service.castell.festivals import preview, referee_finder
from service.castell.steps import StepOutcome, claim_finder, step_outcome
from service.handle import Kind, SolveIn, Steps
from service.store import LOCK_WAIT_S, GameFile, SavedGame, StaleRevision
from service.verified import VERIFIED

# The use cases this handle answers with (the view, the plan) and the referee's names are
# imported where they are used, never to dodge a circle (they name `service.castell.asked`, not
# this module): a command loads only what it asks for (tests/cli/test_imports.py).
if TYPE_CHECKING:
    from models.game import Action, Board, GameState, History, HistoryEntry, Outcome, PlayerState
    from models.tower import Rules
    from service.results.castell_view import CastellView

# The referee's tower searches (a festival's towers at `end`, a claim's tower) are the dp
# engine's: milliseconds on any pool the rules allow; the limit is only a safety net.
REFEREE_TIME_LIMIT = 10.0


def _board_for(state: GameState, state_path: Path | None, board_path: str | Path | None
               ) -> Board:
    """`board_path` if given, else the board the state names (a file path as written by
    `state new --board`, tried as given and beside the state file), else the default board."""
    if board_path is None and state.board != "default":
        named = Path(state.board)
        places = [named] + ([state_path.parent / named] if state_path is not None else [])
        found = next((p for p in places if p.is_file()), None)
        if found is None:
            where = f"{state_path}: " if state_path is not None else ""
            raise SpecError(f"{where}board file '{state.board}' not found; "
                            "give the board file", field="board")
        board_path = str(found)
    return load_board(board_path)


@dataclass(frozen=True)
class _Kept:
    """A verified game as `service.verified` keeps it: its state pickled without its history,
    and the history itself. A history is never changed in place (a step makes a new one of
    the same entries: `models.game.recording.record`), so copies share it, and only the rest
    of the state is copied: at round 10 the history is four fifths of the pickle, and copying
    it took a millisecond of every load and of every save."""

    board: Board
    path: Path | None
    loaded_revision: int
    state: bytes
    history: History | None


class Game(SavedGame):
    """A Castell game: its state (with its history), its board, and where it is kept (a
    `service.handle.GameHandle`)."""

    kind: ClassVar[Kind] = "castell"
    state: GameState

    def __init__(self, state: GameState, board: Board, path: Path | None = None):
        from models.game import check_against_board, check_history

        check_against_board(state, board)
        check_history(state, board)  # the record replays to this position, or is refused
        self.state = state
        self.board = board
        self.path = path
        self.file = GameFile(path) if path is not None else None
        self.loaded_revision = state.revision
        self.named_board = True  # the board the state names (False: a --board of the asker's)
        # the file text the state is, while no step changed it (an undo may then be the game
        # that text was saved from: `service.verified`), and the text loaded
        self.text: str | None = None
        self.loaded_text: str | None = None

    # -- loading and saving ------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | Path, board_path: str | Path | None = None) -> Game:
        """The game kept in `path` (its board found as `_board_for` says), its history
        replayed once for each text the file has held (`service.verified`: a server reads a
        game many times between two steps)."""
        from models.files import read_text
        from models.game import state_from_text

        where = Path(path)
        text = read_text(where)

        def verify() -> Game:
            state = state_from_text(text, str(where))
            return cls(state, _board_for(state, where, board_path), where)

        if board_path is not None:  # another board than the state names: a question of its own
            game = verify()
            game.named_board = False
            return game
        game = VERIFIED.get(where, text, verify, cls._packed, cls._unpacked)
        game.text = game.loaded_text = text
        return game

    @staticmethod
    def _packed(game: Game) -> _Kept:
        state = game.state
        return _Kept(game.board, game.path, game.loaded_revision,
                     pickle.dumps(state.without_history(), pickle.HIGHEST_PROTOCOL), state.history)

    @classmethod
    def _unpacked(cls, kept: _Kept) -> Game:
        """A handle of its own on a verified game (no second replay), its state a copy."""
        from models.game import History

        copy = cls.__new__(cls)
        state, history = pickle.loads(kept.state), kept.history
        if history is not None:  # its own list of the shared entries (validated when kept)
            state = state.model_copy(update={"history": History.model_construct(
                start=history.start, entries=list(history.entries))})
        copy.state, copy.board, copy.path = state, kept.board, kept.path
        copy.file = GameFile(kept.path) if kept.path is not None else None
        copy.loaded_revision, copy.named_board = kept.loaded_revision, True
        copy.text = copy.loaded_text = None
        return copy

    def saved(self, text: str) -> None:
        """What a step saved is verified: the referee recorded it (and, one step on the text
        loaded, which text it was made on: its undo)."""
        if self.path is not None and self.named_board:
            VERIFIED.keep(self.path, text, self, self._packed)
            if self.loaded_text is not None:  # `_undone` checks it is one step back
                VERIFIED.made_on(self.path, text, self.loaded_text)
        self.text = self.loaded_text = text

    @classmethod
    def from_state(cls, state: GameState, board: Board, path: str | Path | None = None
                   ) -> Game:
        return cls(state, board, None if path is None else Path(path))

    @classmethod
    @contextlib.contextmanager
    def editing(cls, path: str | Path, board_path: str | Path | None = None,
                wait: float = LOCK_WAIT_S) -> Iterator[Game]:
        """The game in `path`, loaded and kept under its file's lock until the block ends, so
        that a step and its save are one write (two writers at once land one after the other,
        never one over the other). `wait`: how long to wait for another writer's step."""
        file = GameFile(path, wait)
        with file.locked():
            game = cls.load(path, board_path)
            game.file = file  # the same lock object: its save inside the block does not wait
            yield game

    # -- what every question needs ------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The readings this game is played with (stored in the state)."""
        return self.state.game_rules

    def position(self) -> GameState:
        """The state without its history: what the referee's questions and the planner take."""
        return self.state.without_history()

    def player(self, name: str | None = None) -> PlayerState:
        """The player `name` names as typed at the table (another case, spaces around it); the
        player to move when `name` is None. An unknown name says which players there are and
        which one it is close to."""
        return self.state.current if name is None else self.state.player(name)

    def require_refilled(self) -> None:
        """Refuse (a `SpecError` naming them) while refill draws are still to be recorded: a
        planner cannot look past a draw it has not seen."""
        from models.game import missing_refills

        message = missing_refills(self.state)
        if message is not None:
            where = str(self.path) if self.path is not None else "STATE"
            raise SpecError(message.replace("STATE", where))

    # -- the record: steps and undo ---------------------------------------------------------

    def legal_actions(self, player: str | None = None) -> list[Action]:
        """What the player to move may do now (claims with a tower that meets the tile), in
        the game's readings; [] for any other player."""
        from models.game import legal_actions

        if player is not None and self.player(player).name != self.state.turn.player:
            return []
        if self.state.refills_due:
            return []
        return legal_actions(self.position(), self.board, self.rules, tiles=claim_finder())

    def step(self, step: str | Sequence[str] | Action | HistoryEntry, *,
             as_player: str | None = None, expect_revision: int | None = None,
             time_limit: float = REFEREE_TIME_LIMIT, confirm_reveal: bool = False,
             solve_in: SolveIn | None = None) -> StepOutcome:
        """Record one step through the referee (an action in the notation, the words a shell
        gave, an `Action` of the player to move, or a history entry; `undo` undoes). Refused
        (`Refused` with its code) when the rules do not allow it, when `as_player` is not the
        player to move, or when `expect_revision` is not this game's revision. The handle's
        state changes; `save()` writes it. `confirm_reveal`: see `undo`; a festival's towers are
        solved in `solve_in` (None: here)."""
        from models.game import ACTION, ActionEntry, parse_step, record, require_refilled

        self._check_revision(expect_revision)
        if isinstance(step, str) or (isinstance(step, Sequence) and not isinstance(step, str)):
            entry = parse_step(step, self.state, self.board)
        elif isinstance(step, ActionEntry | RefillEntry | TowerChoiceEntry):
            entry = step
        else:
            entry = ActionEntry(player=self.state.turn.player,
                                action=ACTION.validate_python(step))
        if entry is None:
            return self.undo(expect_revision=expect_revision, confirm_reveal=confirm_reveal,
                             as_player=as_player)
        if as_player is not None:
            self._check_player(entry, self.player(as_player).name)
        self.text = None  # the state no longer is the text loaded
        if isinstance(entry, ActionEntry):
            require_refilled(self.state)
        before = self.state
        after = record(before, self.board, entry, referee_finder(time_limit, solve_in))
        after.revision = before.revision
        self.state = after
        return step_outcome(before, after, self.board, entry)

    def _check_player(self, entry: HistoryEntry, who: str) -> None:
        """`who` may take this step: their turn's action, or their own festival tower (a
        refill is the table's: anyone's)."""
        if isinstance(entry, RefillEntry):
            return
        if not isinstance(entry, TowerChoiceEntry):
            if who != self.state.turn.player:
                raise Refused(f"it is {self.state.turn.player}'s turn, not {who}'s",
                              Reason.WRONG_PLAYER)
        elif entry.player != who:
            raise Refused(f"{who} cannot name {entry.player}'s festival tower",
                          Reason.WRONG_PLAYER)

    def undo(self, *, expect_revision: int | None = None, confirm_reveal: bool = False,
             as_player: str | None = None) -> StepOutcome:
        """Take back the last recorded step. In a seeded game a step that drew castellers from
        the bag is never undone (the draw was seen); a recorded game may, with
        `confirm_reveal` (the CLI confirms by the command itself). With `as_player`, only
        that player's own last step (or the table's, a refill)."""
        from models.game import undo

        self._check_revision(expect_revision)
        before = self.state
        entries = before.history.entries if before.history else []
        if as_player is not None and entries and not isinstance(entries[-1], RefillEntry):
            last, who = entries[-1].player, self.player(as_player).name
            if last != who:
                raise Refused(f"the last step is {last}'s: {who} cannot undo it",
                              Reason.WRONG_PLAYER)
        after = self._undone() or undo(before, self.board)
        self.text = None
        if before.bag != after.bag:  # the step drew castellers from the bag
            if before.deal == "seeded":
                raise Refused("the last step drew castellers from the bag (the refill at the "
                              "end of the round): a draw that was seen is not undone",
                              Reason.UNDO_CROSSES_DRAW)
            if not confirm_reveal:
                raise Refused("the last step recorded a draw from the bag: confirm to undo it",
                              Reason.UNDO_CROSSES_DRAW)
        after.revision = before.revision
        self.state = after
        return step_outcome(before, after, self.board, None)

    def _undone(self) -> GameState | None:
        """The state before the last step without a replay: the verified game the step that
        saved this text was made on, when this process saved it and still keeps it."""
        if self.text is None or self.path is None or not self.named_board:
            return None
        made_on = VERIFIED.previous(self.path, self.text, self._unpacked)
        if made_on is None:
            return None
        entries = self.state.history.entries if self.state.history else []
        earlier = made_on.state.history.entries if made_on.state.history else []
        if earlier != entries[:-1]:  # not one step back: replay instead
            return None
        return made_on.state

    def view(self, history: bool = True) -> CastellView:
        """The game as every edge shows it (`state show --view --json`); without its history's
        lines if not `history` (a page whose history is folded away)."""
        from service.castell.view import castell_view

        return castell_view(self, history)

    # -- the handle protocol (`service.handle.GameHandle`) -------------------------------------

    @property
    def game_over(self) -> bool:
        return self.state.game_over

    def legal_steps(self) -> list[str]:
        from models.game import format_action

        return [format_action(a, self.board) for a in self.legal_actions()]

    def history_lines(self, seat: str | None = None) -> list[str]:
        from models.game import format_step  # nothing in Castell's history is a seat's own

        entries = self.state.history.entries if self.state.history else []
        return [format_step(e, self.board) for e in entries]

    def play(self, steps: Steps, *, expect_revision: int, confirm_reveal: bool = False,
             time_limit: float | None = None, as_player: str | None = None,
             solve_in: SolveIn | None = None) -> None:
        for step in steps:
            self.step(step, as_player=as_player, expect_revision=expect_revision,
                      confirm_reveal=confirm_reveal,
                      time_limit=REFEREE_TIME_LIMIT if time_limit is None else time_limit,
                      solve_in=solve_in)

    def player_names(self) -> list[str]:
        return [p.name for p in self.state.players]

    def to_play(self) -> str | None:
        state = self.state
        return None if state.game_over or state.refills_due else state.turn.player

    def in_play(self) -> GameInPlay:
        """The game behind its referee, as both games' (`models.play`), with the referee's
        tower searches (the claims among the legal steps, a round's festivals)."""
        game: GameInPlay = KINDS[self.kind].adapter(
            self.state, self.board, referee_finder(REFEREE_TIME_LIMIT), claim_finder())
        return game

    def advice(self, time_limit: float) -> Callable[[], Any]:
        from service.castell.plans import plan

        return lambda: plan(self, time_limit=time_limit)

    def _check_revision(self, expected: int | None) -> None:
        if expected is not None and expected != self.state.revision:
            raise StaleRevision(expected, self.state.revision)

    # -- questions of the position ------------------------------------------------------------

    def preview_festivals(self, time_limit: float = REFEREE_TIME_LIMIT) -> list[Outcome]:
        """This round's festivals as `end` will resolve them (the towers players named)."""
        return preview(self.position(), self.board, time_limit)

    def what_if(self, rules_text: str | None) -> Rules:
        """The game's readings, or, for a question that is explicitly a what-if
        (`--what-if-rules`), the readings `rules_text` names (the output says so)."""
        if rules_text is None:
            return self.rules
        from models.tower import rules_named

        return rules_named(rules_text)


RULES_WITH_STATE = ("readings do not go with a game: the game's readings are stored in it; "
                    "to ask under other readings, ask a what-if")
