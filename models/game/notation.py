"""The Castell step notation, as players write it: `move Girona`, `recruit 7 5`, `train width`,
`special recruit 7`, `special move Girona`, `special claim LP07 9x4/7x3/5x2/3`, `end`, and the
steps of a recorded game, `refill Girona 8 6 3`, `festival-tower Anna [FESTIVAL] TOWER|none`.

`parse_action`/`format_action` (and `parse_step`/`format_step`) round-trip, as python-chess's
`Move.from_uci`/`uci()` do: every legal action formats to a text that parses back to it. Region
names are the board's names (ids and other cases are read too); text that cannot be read is a
`NotationError`, a step that is well written but breaks a rule is the referee's refusal.
"""

from __future__ import annotations

from collections.abc import Sequence

from models.errors import NotationError, Reason
from models.game.actions import RECRUIT_LIMIT, Action, EndTurn, Move, Recruit, Special, Train
from models.game.board import SPECIAL, Board
from models.game.referee import IllegalAction
from models.game.state import ActionEntry, GameState, HistoryEntry, RefillEntry, TowerChoiceEntry
from models.names import typed_match
from models.tower import Pool, parse_sizes, parse_skill

ACTION_VERBS = ("move", "recruit", "train", "special", "end")
STEP_VERBS = (*ACTION_VERBS, "refill", "festival-tower", "undo")
USAGE = {
    "move": "move REGION",
    "recruit": "recruit SIZE [SIZE]",
    "train": "train SKILL|special",
    "special": "special recruit SIZE | special move REGION | special claim TILE TOWER",
    "end": "end",
    "refill": "refill REGION SIZE...",
    "festival-tower": "festival-tower PLAYER [FESTIVAL] TOWER|none",
    "undo": "undo",
}
UNDO = "undo"


def _need(words: list[str], count: int, verb: str) -> None:
    if len(words) < count:
        raise NotationError(f"usage: {USAGE[verb]}")


def _region(board: Board, words: list[str], verb: str) -> str:
    _need(words, 1, verb)
    return board.find_region(" ".join(words)).id


def _sizes(words: list[str], verb: str) -> list[int]:
    _need(words, 1, verb)
    try:
        return parse_sizes(",".join(words), what="castellers")
    except NotationError as error:
        raise NotationError(f"{error} (usage: {USAGE[verb]})") from None


def _split(text: str | Sequence[str]) -> tuple[str, list[str]]:
    words = text.split() if isinstance(text, str) else [w for part in text for w in part.split()]
    if not words:
        raise NotationError(f"name an action: {', '.join(STEP_VERBS)}")
    return words[0].lower(), words[1:]


def parse_action(text: str | Sequence[str], board: Board) -> Action:
    """The turn action `text` names (a string, or the words a shell gave)."""
    verb, rest = _split(text)
    if verb == "move":
        return Move(to=_region(board, rest, verb))
    if verb == "recruit":
        sizes = _sizes(rest, verb)
        if len(sizes) > RECRUIT_LIMIT:
            raise IllegalAction(f"a recruit takes at most {RECRUIT_LIMIT} castellers, not "
                                f"{len(sizes)}", Reason.RECRUIT_LIMIT)
        return Recruit(sizes=sizes)
    if verb == "train":
        if len(rest) != 1:
            raise NotationError(f"usage: {USAGE[verb]}")
        name = rest[0].lower()
        # a skill that does not exist is a typo (bad input), not a refusal of the rules
        return Train(skill=name if name == SPECIAL else parse_skill(name).value)
    if verb == "special":
        _need(rest, 2, verb)
        kind, args = rest[0].lower(), rest[1:]
        if kind == "recruit":
            sizes = _sizes(args, verb)
            if len(sizes) != 1:
                raise IllegalAction("a special recruit takes exactly 1 casteller, not "
                                    f"{len(sizes)}", Reason.RECRUIT_LIMIT)
            return Special(kind="recruit", size=sizes[0])
        if kind == "move":
            return Special(kind="move", to=_region(board, args, verb))
        if kind == "claim":
            if len(args) < 2:
                raise NotationError("usage: special claim TILE TOWER")
            tile = board.tile(args[0].strip().upper()).id
            return Special(kind="claim", tile=tile, tower=" ".join(args[1:]))
        raise NotationError(f"unknown special action '{kind}' (usage: {USAGE[verb]})",
                            token=kind)
    if verb in ("end", "end-turn"):
        if rest:
            raise NotationError("`end` takes no arguments")
        return EndTurn()
    raise NotationError(f"unknown action '{verb}' (actions: {', '.join(ACTION_VERBS)})",
                        token=verb)


def format_action(action: Action, board: Board) -> str:
    """`action` as players write it (region names from the board); `parse_action` reads it
    back to the same action."""
    if isinstance(action, Move):
        return f"move {board.region(action.to).name}"
    if isinstance(action, Recruit):
        return "recruit " + " ".join(map(str, action.sizes))
    if isinstance(action, Train):
        return f"train {action.skill}"
    if isinstance(action, Special):
        if action.kind == "recruit":
            return f"special recruit {action.size}"
        if action.kind == "move":
            assert action.to is not None
            return f"special move {board.region(action.to).name}"
        return f"special claim {action.tile} {action.tower}"
    return "end"


def _player(state: GameState, words: list[str]) -> tuple[str, list[str]]:
    """The player the first words name (a name may have spaces), and the words after it."""
    names = [p.name for p in state.players]
    for count in range(1, len(words)):
        found = typed_match(names, " ".join(words[:count]))
        if found is not None:
            return names[found], words[count:]
    return state.player(words[0]).name, words[1:]  # did-you-mean from the state


def _festival(state: GameState, words: list[str]) -> tuple[str | None, list[str]]:
    """A festival of this round named by the first words (the longest match), if any."""
    locations = [f.location for f in state.festivals_in(state.round)]
    for count in range(len(words) - 1, 0, -1):
        found = typed_match(locations, " ".join(words[:count]))
        if found is not None:
            return locations[found], words[count:]
    return None, words


def parse_step(text: str | Sequence[str], state: GameState, board: Board
               ) -> HistoryEntry | None:
    """A step of a recorded game (None for `undo`): a turn action of the player whose turn it
    is, a refill's real draw, or a festival tower a player names."""
    verb, rest = _split(text)
    if verb in ACTION_VERBS or verb == "end-turn":
        return ActionEntry(player=state.turn.player, action=parse_action(text, board))
    if verb == "refill":
        split = next((i for i, w in enumerate(rest) if w[:1].isdigit()), len(rest))
        region = _region(board, rest[:split], verb)
        return RefillEntry(region=region, castellers=str(Pool.of(_sizes(rest[split:], verb))))
    if verb == "festival-tower":
        _need(rest, 2, verb)
        name, after = _player(state, rest)
        if not after:
            raise NotationError(f"usage: {USAGE[verb]}")
        location, tower_words = _festival(state, after)
        tower = " ".join(tower_words)
        return TowerChoiceEntry(player=name, location=location,
                                tower=None if tower.lower() == "none" else tower)
    if verb == UNDO:
        if rest:
            raise NotationError("`undo` takes no arguments")
        return None
    raise NotationError(f"unknown action '{verb}' (actions: {', '.join(STEP_VERBS)})",
                        token=verb)


def format_step(entry: HistoryEntry | None, board: Board) -> str:
    """A step as players write it; `parse_step` reads it back."""
    if entry is None:
        return UNDO
    if isinstance(entry, ActionEntry):
        return format_action(entry.action, board)
    if isinstance(entry, RefillEntry):
        sizes = " ".join(map(str, Pool.parse(entry.castellers)))
        return f"refill {board.region(entry.region).name} {sizes}"
    where = f" {entry.location}" if entry.location else ""
    return f"festival-tower {entry.player}{where} {entry.tower or 'none'}"
