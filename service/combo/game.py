"""The Castle Combo game handle: one object per game that every interface (the CLI, a web page)
asks, so that the readings, the names and card ids as typed, the notation, the undo policy and
the revision are handled in one place (the shape of `service.castell.Game`).

A `ComboGame` holds a state with its history. Writes go through `service.store.GameFile`:
atomic, under a lock, refused when the file moved on since it was loaded. A step is the
referee's (`models.combo.apply`); a refused one is an `IllegalAction` with its `Reason` code and
changes nothing.
"""

from __future__ import annotations

import contextlib
import pickle
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from models.combo import (
    MAX_GAME_BYTES,
    Action,
    ComboRules,
    Deck,
    FinalScore,
    GameState,
    IllegalAction,
    Location,
    PlayerState,
    Reveal,
    ScoreSheet,
    apply,
    drawn,
    final_scores,
    legal_actions,
    parse_action,
    pending_reveals,
    replay_problem,
    score_tableau,
    state_from_text,
    undo,
)
from models.errors import Reason, SpecError
from models.files import read_text
from models.names import did_you_mean, typed_match
from models.play import KINDS, GameInPlay
from service.handle import Kind, SolveIn, Steps
from service.store import LOCK_WAIT_S, GameFile, SavedGame, StaleRevision
from service.verified import VERIFIED

# The use cases this handle answers with (the view, the arrangement, the advice) are imported
# where they are used, never to dodge a circle (they name `service.combo.asked`, not this
# module): a command loads only what it asks for (tests/cli/test_imports.py).
if TYPE_CHECKING:
    from planner.combo import LastTurn, Value
    from service.combo.arrange import Arrangement
    from service.results.combo import ComboAdviceOutput, ComboStateOutput

UNDO = "undo"
ADVICE_SAMPLES = 16  # the default advice's sampled completions of each candidate (the page's)


@dataclass(frozen=True)
class ComboStep:
    """What one step changed: the step as the history records it (for `undo`, the step taken
    back), whose it was (None: a reveal, which records the table, not a player), the cards it
    turned face up in the rows, and where the game stands after it."""

    step: str
    player: str | None
    undone: bool
    drawn: tuple[str, ...]
    to_play: str | None
    game_over: bool
    waiting: dict[Location, int]  # cards a recorded game must reveal before play goes on


class ComboGame(SavedGame):
    """A Castle Combo game: its state (with its history) and where it is kept (a
    `service.handle.GameHandle`)."""

    kind: ClassVar[Kind] = "combo"

    state: GameState

    def __init__(self, state: GameState, path: Path | None = None):
        self.state = state
        self.path = path
        self.file = GameFile(path) if path is not None else None
        self.loaded_revision = state.revision

    # -- loading and saving ------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | Path) -> ComboGame:
        """The game kept in `path`; refused (SpecError) when its history, replayed from the
        start, does not reach the position it holds (a hand-edited file)."""
        where = Path(path)
        text = read_text(where, MAX_GAME_BYTES)

        def verify() -> ComboGame:
            state = state_from_text(text, str(where))
            problem = replay_problem(state)
            if problem:
                raise SpecError(f"{where}: {problem}")
            return cls(state, where)

        return VERIFIED.get(where, text, verify, cls._packed, cls._unpacked)

    @staticmethod
    def _packed(game: ComboGame) -> tuple[Path | None, bytes]:
        return game.path, pickle.dumps(game.state, pickle.HIGHEST_PROTOCOL)

    @classmethod
    def _unpacked(cls, kept: tuple[Path | None, bytes]) -> ComboGame:
        """A handle of its own on a verified game (no second replay), its state a copy."""
        return cls(pickle.loads(kept[1]), kept[0])

    def saved(self, text: str) -> None:
        """What a step saved is verified: the referee played it."""
        if self.path is not None:
            VERIFIED.keep(self.path, text, self, self._packed)

    @classmethod
    def from_state(cls, state: GameState, path: str | Path | None = None) -> ComboGame:
        return cls(state, None if path is None else Path(path))

    @classmethod
    @contextlib.contextmanager
    def editing(cls, path: str | Path, wait: float = LOCK_WAIT_S) -> Iterator[ComboGame]:
        """The game in `path`, loaded and kept under its file's lock until the block ends, so
        that its steps and their save are one write (two writers at once land one after the
        other, never one over the other). `wait`: how long to wait for another writer's step."""
        file = GameFile(path, wait)
        with file.locked():
            game = cls.load(path)
            game.file = file  # the same lock object: its save inside the block does not wait
            yield game

    # -- what every question needs ------------------------------------------------------------

    @property
    def rules(self) -> ComboRules:
        """The readings this game is played with (stored in the state)."""
        return self.state.rules

    @property
    def deck(self) -> Deck:
        return self.state.deck()

    def player(self, name: str | None = None) -> PlayerState:
        """The player `name` names as typed at the table (another case, spaces around it); the
        player to move when `name` is None. An unknown name says which players there are and
        which one it is close to."""
        table = self.state.now
        if name is None:
            return table.player
        names = [p.name for p in table.players]
        found = typed_match(names, name)
        if found is not None:
            return table.players[found]
        raise SpecError(f"no player '{name}' in the game (players: {', '.join(names)})"
                        f"{did_you_mean(names, name)}", token=name)

    def legal_actions(self, player: str | None = None) -> list[Action]:
        """Every legal action now; for `player`, none unless it is their turn."""
        if player is not None and self._mover() != self.player(player).name:
            return []
        return legal_actions(self.state)

    def _mover(self) -> str | None:
        table = self.state.now
        return None if table.game_over else table.player.name

    # -- the handle protocol (`service.handle.GameHandle`) -------------------------------------

    @property
    def game_over(self) -> bool:
        return self.state.now.game_over

    def legal_steps(self) -> list[str]:
        from models.combo import format_action

        return [format_action(a) for a in self.legal_actions()]

    def history_lines(self, seat: str | None = None) -> list[str]:
        # a face-down take names its card: for another seat, its words as the page says them
        from service.combo.view import history_lines

        return [line.words if line.hidden_from(seat) else entry.action
                for entry, line in zip(self.state.history, history_lines(self.state),
                                       strict=True)]

    def play(self, steps: Steps, *, expect_revision: int, confirm_reveal: bool = False,
             time_limit: float | None = None, as_player: str | None = None,
             solve_in: SolveIn | None = None) -> None:
        """Castle Combo's steps reveal nothing a player has not seen and take no solve:
        `confirm_reveal`, `time_limit` and `solve_in` have nothing to act on."""
        for step in steps:
            self.step(step if isinstance(step, str) else " ".join(step), as_player=as_player,
                      expect_revision=expect_revision)

    def player_names(self) -> list[str]:
        return [p.name for p in self.state.now.players]

    def to_play(self) -> str | None:
        return self._mover()

    def in_play(self) -> GameInPlay:
        """The game behind its referee, as both games' (`models.play`)."""
        game: GameInPlay = KINDS[self.kind].adapter(self.state)
        return game

    def advice(self, time_limit: float) -> Callable[[], Any]:
        return lambda: self.advise(samples=ADVICE_SAMPLES, time_limit=time_limit)

    # -- steps -------------------------------------------------------------------------------

    def step(self, action: Action | str, as_player: str | None = None,
             expect_revision: int | None = None) -> ComboStep:
        """Play one step: an action (or its text, ids and names as typed), or `undo`. With
        `as_player`, refused (`WRONG_PLAYER`) unless it is that player's turn (a reveal records
        the table: anyone's); with `expect_revision`, refused (`StaleRevision`) unless the game
        is at that revision."""
        self._check_revision(expect_revision)
        if isinstance(action, str):
            if action.strip().lower() == UNDO:
                return self.undo(as_player)
            action = parse_action(action, self.state)
        before = self.state
        mover = self._mover()
        if as_player is not None and mover is not None and not isinstance(action, Reveal):
            name = self.player(as_player).name
            if name != mover:
                raise IllegalAction(f"it is {mover}'s turn, not {name}'s", Reason.WRONG_PLAYER)
        after = apply(before, action)
        entry = after.history[-1]
        self.state = after
        return self._outcome(entry.action, entry.player or None, False, before, after)

    def undo(self, as_player: str | None = None, expect_revision: int | None = None
             ) -> ComboStep:
        """Take back the last step, never over a card it drew into a row unless the game is a
        recording (`UNDO_CROSSES_DRAW`: the referee's policy). With `as_player`, only that
        player's own last step (or a reveal)."""
        self._check_revision(expect_revision)
        before = self.state
        if as_player is not None and before.history:
            last = before.history[-1].player
            name = self.player(as_player).name
            if last and last != name:
                raise IllegalAction(f"the last step is {last}'s: {name} cannot undo it",
                                    Reason.WRONG_PLAYER)
        after = undo(before)
        entry = before.history[-1]
        self.state = after
        return self._outcome(entry.action, entry.player or None, True, after, before)

    def _check_revision(self, expect_revision: int | None) -> None:
        if expect_revision is not None and expect_revision != self.revision:
            raise StaleRevision(expect_revision, self.revision)

    def _outcome(self, text: str, player: str | None, undone: bool, earlier: GameState,
                 later: GameState) -> ComboStep:
        table = self.state.now
        return ComboStep(step=text, player=player, undone=undone,
                         drawn=() if undone else tuple(drawn(earlier.now, later.now)),
                         to_play=self._mover(), game_over=table.game_over,
                         waiting=dict(pending_reveals(table)))

    # -- questions asked of the game ----------------------------------------------------------

    def view(self) -> ComboStateOutput:
        """The game as it stands (`combo show --json`)."""
        from service.combo.view import state_output

        return state_output(self.state)

    def final_scores(self) -> tuple[list[FinalScore], list[str]]:
        """Each player's end score and the winners (refused before the end)."""
        if not self.state.now.game_over:
            raise SpecError("the game is not over: every player needs 9 cards")
        return final_scores(self.state)

    def score(self, name: str | None = None) -> ScoreSheet:
        """A player's tableau scored exactly as it stands (their keys, gold on purses, leftover
        gold put on them): the end score if the game stopped now."""
        player = self.player(name)
        return score_tableau(player.grid(), self.deck, player.keys, player.gold, player.purses)

    def arrange(self, name: str | None, cards: str, *, keys: int | None = None,
                gold: int | None = None, time_limit: float = 10.0) -> Arrangement:
        """The best completion of a player's tableau in progress with the cards still to come
        (`combo arrange --from`)."""
        from service.combo.arrange import complete_tableau

        return complete_tableau(self, name, cards, keys=keys, gold=gold, time_limit=time_limit)

    def advise(self, player: str | None = None, *, samples: int = 16, seed: int = 0,
               time_limit: float | None = None, last_turn: LastTurn = "own_turn",
               value: Value = "score") -> ComboAdviceOutput:
        """Every legal action of the player to move, ranked by the final score it leads to
        (`combo advise`; `player`, as typed, must be the player to move)."""
        from service.combo.advice import advise

        return advise(self, player, samples=samples, seed=seed, time_limit=time_limit,
                      last_turn=last_turn, value=value)
