"""The Castle Combo referee: applies the turn steps of rules page section 2, in order, to a game
state, refusing what the rules do not allow (with the reason) and recording what it applied.

A turn is an optional `key` action, then a `buy` or `flip` (take, place, ability, Messenger,
refill). In a recorded game the refill leaves holes that `reveal` fills before play goes on.
Every function works on a copy: a refused action leaves the caller's state as it was. A refusal
is an `IllegalAction` (a `Refused`) whose `code` says which rule, for an interface to act on.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import combinations, product

from models.combo.actions import Action, Key, Reveal, Take, as_typed, format_action, parse_action
from models.combo.cards import (
    LOCATIONS,
    Card,
    Choose,
    DiscardFromRow,
    Effect,
    FillPurses,
    Gain,
    Location,
    OpponentsGain,
    PurseGold,
)
from models.combo.counting import View, count
from models.combo.deck import Deck
from models.combo.rules import ROW_SIZE
from models.combo.scoring import MAX_GOLD, MAX_KEYS, ScoreSheet, score_tableau
from models.combo.state import GameState, HistoryEntry, Placed, PlayerState, Table
from models.combo.tableau import Pos, legal_cells, placement_problem
from models.errors import CastellError, Reason, Refused


class IllegalAction(Refused):
    """An action the rules do not allow now: the message says why, `code` which rule."""

    def __init__(self, message: str, code: Reason):
        super().__init__(message, code)


def other(location: Location) -> Location:
    """The other location (Castle <-> Village)."""
    return "village" if location == "castle" else "castle"


def discount(player: PlayerState, deck: Deck, location: Location) -> int:
    """The player's discount on cards of `location`: one per face-up card that gives it."""
    return sum(1 for p in player.tableau
               if not p.face_down and location in deck.card(p.card).discount)


def price(player: PlayerState, deck: Deck, card: Card) -> int:
    """What a card costs the player after their discounts."""
    return max(0, card.cost - discount(player, deck, card.location))


def pending_reveals(table: Table) -> dict[Location, int]:
    """Holes a recorded game must reveal before play goes on (only as many as cards remain)."""
    found: dict[Location, int] = {}
    for location in LOCATIONS:
        holes = table.holes(location)
        left = len(table.decks[location]) + len(table.discard[location])
        if holes and left:
            found[location] = min(holes, left)
    return found


def neighbours(table: Table) -> list[str]:
    """The names of the current player's neighbours at the table."""
    n = len(table.players)
    names = {table.players[(table.current - 1) % n].name,
             table.players[(table.current + 1) % n].name}
    return sorted(names)


# --- the table's bookkeeping --------------------------------------------------------------------

def _reshuffle(state: GameState, table: Table, location: Location) -> None:
    """An empty deck is rebuilt from its discard pile (shuffled; a set in a recorded game)."""
    pile = list(table.discard[location])
    table.discard[location] = []
    if state.recorded:
        table.decks[location] = sorted(pile)
        return
    random.Random(f"{state.seed}:{location}:{table.shuffles}").shuffle(pile)
    table.shuffles += 1
    table.decks[location] = pile


def _refill(state: GameState, table: Table) -> None:
    """Each live row back to 3 cards; a row that cannot be filled is out of the game."""
    for location in LOCATIONS:
        if location in table.dead:
            continue
        row = table.rows[location]
        for slot in range(ROW_SIZE):
            if row[slot] is not None:
                continue
            if not table.decks[location] and table.discard[location]:
                _reshuffle(state, table, location)
            if not table.decks[location]:
                break
            if not state.recorded:
                row[slot] = table.decks[location].pop(0)
        if table.holes(location) and not table.decks[location] and not table.discard[location]:
            table.dead.append(location)
    if table.messenger in table.dead and other(table.messenger) not in table.dead:
        table.messenger = other(table.messenger)


def _reveal(state: GameState, table: Table, action: Reveal, deck: Deck) -> None:
    if not state.recorded:
        raise IllegalAction("'reveal' is for a recorded game (a real deal); this game's "
                            "decks are shuffled by its seed", Reason.NOT_RECORDED)
    for card_id in action.cards:
        location = deck.card(card_id).location
        if not pending_reveals(table).get(location):
            raise IllegalAction(f"no {location} card is waiting to be revealed",
                                Reason.NOT_WAITING)
        if not table.decks[location] and table.discard[location]:
            _reshuffle(state, table, location)
        if card_id not in table.decks[location]:
            raise IllegalAction(f"'{card_id}' cannot be revealed: it is not in the {location} "
                                "deck (already seen)", Reason.ALREADY_SEEN)
        table.decks[location].remove(card_id)
        row = table.rows[location]
        row[row.index(None)] = card_id
    _refill(state, table)


def _key(state: GameState, table: Table, action: Key) -> None:
    player = table.player
    if table.key_used:
        raise IllegalAction(f"{player.name} has already used a key this turn (at most one)",
                            Reason.KEY_USED)
    if player.keys < 1:
        raise IllegalAction(f"{player.name} has no key to spend", Reason.NO_KEY)
    if action.kind == "move":
        if other(table.messenger) in table.dead:
            raise IllegalAction(f"the {other(table.messenger)} row is out of the game; the "
                                "Messenger cannot move there", Reason.ROW_CLOSED)
        table.messenger = other(table.messenger)
    else:
        location = table.messenger
        old = table.row_cards(location)
        table.rows[location] = [None] * ROW_SIZE
        table.discard[location].extend(old)  # discarded first: a rebuilt deck may hold them
        _refill(state, table)
    player.keys -= 1
    table.key_used = True


@dataclass
class _Choices:
    """The parameters a take supplies for its card's ability, consumed in order."""

    neighbour: str | None
    choices: list[int]
    discards: list[str]
    neighbour_used: bool = False


def _view(player: PlayerState, deck: Deck) -> View:
    face_up = {(p.row, p.column): deck.card(p.card) for p in player.tableau if not p.face_down}
    face_down = frozenset((p.row, p.column) for p in player.tableau if p.face_down)
    return View(face_up, face_down, player.keys, dict(player.purses))


def _gain(player: PlayerState, resource: str, amount: int) -> None:
    if resource == "gold":
        player.gold = min(MAX_GOLD, player.gold + amount)
    else:
        player.keys = min(MAX_KEYS, player.keys + amount)


def _purses(player: PlayerState, deck: Deck) -> list[Card]:
    return [deck.card(p.card) for p in player.tableau
            if not p.face_down and deck.card(p.card).capacity]


def _effects(state: GameState, table: Table, effects: Iterable[Effect], card: Card,
             at: Pos, picks: _Choices, deck: Deck) -> None:
    player = table.player
    for effect in effects:
        if isinstance(effect, Gain):
            if effect.count is None:
                amount = effect.amount
            elif effect.from_ == "neighbour":
                amount = effect.amount * count(effect.count, _view(_neighbour(table, picks),
                                                                   deck))
            else:
                amount = effect.amount * count(effect.count, _view(player, deck), at, card.id)
            _gain(player, effect.gain, amount)
        elif isinstance(effect, OpponentsGain):
            for opponent in table.players:
                if opponent is not player:
                    _gain(opponent, effect.opponents_gain, effect.amount)
        elif isinstance(effect, PurseGold):
            for purse in _purses(player, deck):
                held = player.purses.get(purse.id, 0)
                player.purses[purse.id] = held + min(effect.purse_gold, purse.capacity - held)
        elif isinstance(effect, FillPurses):
            _fill(state, player, deck, effect.fill_purses)
        elif isinstance(effect, DiscardFromRow):
            _discard(table, effect, picks, deck)
        else:
            assert isinstance(effect, Choose)
            if not picks.choices:
                options = "; ".join(f"choose {i}" for i in range(1, len(effect.choose) + 1))
                raise IllegalAction(f"{card.id}'s ability asks for a choice: add one of "
                                    f"{options}", Reason.CHOICE_NEEDED)
            pick = picks.choices.pop(0)
            if pick > len(effect.choose):
                raise IllegalAction(f"{card.id}'s choice has {len(effect.choose)} options, "
                                    f"not {pick}", Reason.CHOICE_NEEDED)
            _effects(state, table, effect.choose[pick - 1], card, at, picks, deck)
    player.purses = {k: v for k, v in player.purses.items() if v}


def _neighbour(table: Table, picks: _Choices) -> PlayerState:
    near = neighbours(table)
    name = picks.neighbour
    if name is None:
        if len(near) > 1:
            raise IllegalAction(f"the ability counts a neighbour's tableau: add 'neighbour "
                                f"{near[0]}' or 'neighbour {near[1]}'", Reason.NEIGHBOUR_NEEDED)
        name = near[0]
    if name not in near:
        raise IllegalAction(f"'{name}' is not a neighbour (one of {', '.join(near)})",
                            Reason.NOT_NEIGHBOUR)
    picks.neighbour_used = True
    return next(p for p in table.players if p.name == name)


def _fill(state: GameState, player: PlayerState, deck: Deck, n: int) -> None:
    room = {c.id: c.capacity - player.purses.get(c.id, 0) for c in _purses(player, deck)}
    order = [c for c in _purses(player, deck) if room[c.id] > 0]
    if state.rules.fill_purses_order == "most_points":
        order.sort(key=lambda c: -c.purse_rate * room[c.id])
    else:
        order.sort(key=lambda c: -room[c.id])
    for purse in order[:n]:
        player.purses[purse.id] = purse.capacity


def _discard(table: Table, effect: DiscardFromRow, picks: _Choices, deck: Deck) -> None:
    location = effect.discard_from_row
    row = table.rows[location]
    present = table.row_cards(location)
    if not present:
        return  # nothing to discard: the effect does nothing
    if not picks.discards:
        raise IllegalAction(f"the ability discards a card of the {location} row: add "
                            f"'discard ID' (one of {', '.join(present)})", Reason.DISCARD_NEEDED)
    card_id = picks.discards.pop(0)
    if card_id not in present:
        raise IllegalAction(f"'{card_id}' is not in the {location} row "
                            f"({', '.join(present)})", Reason.NOT_IN_ROW)
    row[row.index(card_id)] = None
    table.discard[location].append(card_id)
    _gain(table.player, effect.reward, deck.card(card_id).cost)


def _take(state: GameState, table: Table, action: Take, deck: Deck) -> None:
    player = table.player
    location = table.messenger
    row = table.rows[location]
    if action.card not in table.row_cards(location):
        elsewhere = action.card in table.row_cards(other(location))
        reason = f"it is in the {other(location)} row, not the Messenger's" if elsewhere \
            else "it is not face up in a row"
        raise IllegalAction(f"cannot take '{action.card}': {reason} (the {location} row: "
                            f"{', '.join(table.row_cards(location))})", Reason.NOT_OFFERED_CARD)
    card = deck.card(action.card)
    at = _cell(player, card, action)
    cost = price(player, deck, card)
    if not action.face_down and cost > player.gold:
        raise IllegalAction(f"cannot buy '{card.id}': it costs {cost} gold, {player.name} has "
                            f"{player.gold} (flip it instead for {state.rules.flip_gold} gold "
                            f"and {state.rules.flip_keys} keys)", Reason.TOO_EXPENSIVE)
    row[row.index(card.id)] = None
    player.tableau.append(Placed(card=card.id, row=at[0], column=at[1],
                                 face_down=action.face_down))
    if action.face_down:
        _gain(player, "gold", state.rules.flip_gold)
        _gain(player, "keys", state.rules.flip_keys)
    else:
        player.gold -= cost
        _bought(state, table, action, card, at, deck, location)
    _refill(state, table)
    table.current = (table.current + 1) % len(table.players)
    table.key_used = False


def _cell(player: PlayerState, card: Card, action: Take) -> Pos:
    """Where the taken card goes: the cell the action names (the first card may leave it out),
    refused unless the tableau allows it."""
    taken = {(p.row, p.column) for p in player.tableau}
    at = action.at if action.at is not None else ((0, 0) if not taken else None)
    if at is None:
        raise IllegalAction(f"where does '{card.id}' go? add 'at ROW,COLUMN', one of "
                            + " ".join(f"{r},{c}" for r, c in legal_cells(taken)),
                            Reason.CELL_NEEDED)
    problem = placement_problem(taken, at)
    if problem:
        raise IllegalAction(f"cannot place '{card.id}': {problem}", Reason.CELL_ILLEGAL)
    return at


def _bought(state: GameState, table: Table, action: Take, card: Card, at: Pos,
            deck: Deck, location: Location) -> None:
    """A card bought face up from the `location` row: its ability (every option the action
    gives used, or refused), then its messenger."""
    picks = _Choices(action.neighbour, list(action.choices), list(action.discards))
    _effects(state, table, card.ability, card, at, picks, deck)
    unused = ([f"choose {n}" for n in picks.choices] + [f"discard {d}" for d in picks.discards]
              + ([f"neighbour {action.neighbour}"] if action.neighbour is not None
                 and not picks.neighbour_used else []))
    if unused:
        raise IllegalAction(f"{card.id}'s ability does not use: {', '.join(unused)}",
                            Reason.UNUSED_OPTION)
    if card.has_messenger:
        target = other(location)
        if state.rules.messenger_target == "printed" and card.messenger in LOCATIONS:
            target = card.messenger
        if target not in table.dead:
            table.messenger = target


def copy_table(table: Table) -> Table:
    """A copy of the position that the referee may change freely: every list, dict and player
    is new. Equal to `model_copy(deep=True)` but built field by field (a generic deep copy was
    half of a simulated game's time). The placed cards are shared: nothing changes a `Placed`
    in place (a take appends a new one)."""
    players = [p.model_copy(update={"tableau": list(p.tableau),
                                    "purses": dict(p.purses)})
               for p in table.players]
    return table.model_copy(update={
        "decks": {k: list(v) for k, v in table.decks.items()},
        "discard": {k: list(v) for k, v in table.discard.items()},
        "rows": {k: list(v) for k, v in table.rows.items()},
        "dead": list(table.dead), "players": players})


def apply(state: GameState, action: Action) -> GameState:
    """The state after `action` (a new object), or IllegalAction saying why not."""
    # the cards and rules are frozen and shared; the position and history are copied
    new = state.model_copy(update={"now": copy_table(state.now),
                                   "history": list(state.history)})
    table = new.now
    deck = new.deck()
    action = as_typed(action, state)  # `v12` is V12, `neighbour ben` is Ben
    if isinstance(action, Reveal):
        _reveal(new, table, action, deck)
        new.history.append(HistoryEntry(player="", action=format_action(action)))
        return new
    if table.game_over:
        raise IllegalAction("the game is over: every player has 9 cards", Reason.GAME_OVER)
    waiting = pending_reveals(table)
    if waiting:
        what = " and ".join(f"{n} {loc}" for loc, n in waiting.items())
        raise IllegalAction(f"reveal the new cards first ({what}): 'reveal ID ...'",
                            Reason.REVEAL_FIRST)
    name = table.player.name
    if isinstance(action, Take) and action.at is None and not table.player.tableau:
        action = replace(action, at=(0, 0))  # the history records where the first card went
    if isinstance(action, Key):
        _key(new, table, action)
    else:
        _take(new, table, action, deck)
    new.history.append(HistoryEntry(player=name, action=format_action(action)))
    return new


def rewind(state: GameState) -> GameState:
    """The state before its last action: the start replayed with all the actions but the last
    (whatever that action showed; `undo` is the step a player may take)."""
    if not state.history:
        raise IllegalAction("nothing to undo", Reason.NOTHING_TO_UNDO)
    replayed = state.model_copy(update={"now": state.start.model_copy(deep=True),
                                        "history": []})
    for entry in state.history[:-1]:
        replayed = apply(replayed, parse_action(entry.action))
    return replayed


def drawn(before: Table, after: Table) -> list[str]:
    """The cards a step turned face up in the rows (a refill's or a renewal's draw)."""
    seen = {c for location in LOCATIONS for c in before.row_cards(location)}
    return [c for location in LOCATIONS for c in after.row_cards(location) if c not in seen]


def undo(state: GameState) -> GameState:
    """The state before its last action. In a game dealt by its seed, never back over a step
    that drew a card into a row: everyone has seen it, and taking the step back would let its
    player choose again knowing the card (`UNDO_CROSSES_DRAW`). A recorded game undoes any step:
    it is a record of a real table, and undo corrects the record."""
    before = rewind(state)
    if not state.recorded:
        shown = drawn(before.now, state.now)
        if shown:
            raise IllegalAction(f"cannot undo '{state.history[-1].action}': it drew "
                                f"{', '.join(shown)} into a row, which everyone has seen "
                                "(undo only goes back over steps that showed no new card)",
                                Reason.UNDO_CROSSES_DRAW)
    return before


def play(state: GameState, texts: Iterable[str]) -> GameState:
    """Apply action texts in order (`undo` included); all or nothing."""
    for text in texts:
        state = undo(state) if text.strip().lower() == "undo" else apply(state, parse_action(text))
    return state


def replay_problem(state: GameState) -> str | None:
    """Whether the history, replayed from the start, reaches the position the file holds."""
    replayed = state.model_copy(update={"now": state.start.model_copy(deep=True),
                                        "history": []})
    try:
        for entry in state.history:
            replayed = apply(replayed, parse_action(entry.action))
    except CastellError as error:
        return f"its history does not replay: {error}"
    if replayed.now != state.now:
        return "its history, replayed from the start, does not reach the position it holds"
    return None


# --- what a player may do (for tests, simulations and the next issue's solvers) -----------------

def _paths(effects: list[Effect]) -> list[tuple[tuple[int, ...], tuple[Location, ...], bool]]:
    """Each way through the effects' `choose`s: (choices, rows discarded from, counts a
    neighbour)."""
    paths: list[tuple[tuple[int, ...], tuple[Location, ...], bool]] = [((), (), False)]
    for effect in effects:
        if isinstance(effect, Choose):
            options = [(i, path) for i, option in enumerate(effect.choose, 1)
                       for path in _paths(option)]
            paths = [((*c, i, *pc), d + pd, n or pn)
                     for c, d, n in paths for i, (pc, pd, pn) in options]
        elif isinstance(effect, DiscardFromRow):
            paths = [(c, (*d, effect.discard_from_row), n) for c, d, n in paths]
        elif isinstance(effect, Gain) and effect.from_ == "neighbour":
            paths = [(c, d, True) for c, d, _ in paths]
    return paths


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action now (the keys, and each take with its cell and ability choices)."""
    table = state.now
    if table.game_over or pending_reveals(table):
        return []
    deck = state.deck()
    player = table.player
    found: list[Action] = []
    if not table.key_used and player.keys >= 1:
        if other(table.messenger) not in table.dead:
            found.append(Key("move"))
        found.append(Key("renew"))
    cells = legal_cells((p.row, p.column) for p in player.tableau)
    near = neighbours(table)
    for card_id in table.row_cards(table.messenger):
        card = deck.card(card_id)
        for at in cells:
            found.append(Take(card_id, at, face_down=True))
            if price(player, deck, card) > player.gold:
                continue
            for choices, rows, needs_neighbour in _paths(list(card.ability)):
                for discards in _discard_picks(table, card_id, rows):
                    for name in (near if needs_neighbour and len(near) > 1 else [None]):
                        found.append(Take(card_id, at, False, name, choices, discards))
    return found


def _discard_picks(table: Table, taken: str, rows: tuple[Location, ...]) \
        -> list[tuple[str, ...]]:
    if not rows:
        return [()]
    per_row: dict[Location, int] = {}
    for location in rows:
        per_row[location] = per_row.get(location, 0) + 1
    options: list[list[tuple[str, ...]]] = []
    for location, n in per_row.items():
        present = [c for c in table.row_cards(location) if c != taken]
        options.append(list(combinations(present, min(n, len(present)))))
    picks: list[tuple[str, ...]] = []
    for combo in product(*options):
        by_row = {loc: list(c) for loc, c in zip(per_row, combo, strict=True)}
        picks.append(tuple(by_row[loc].pop(0) for loc in rows if by_row[loc]))
    return picks


# --- the end ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class FinalScore:
    """A player's final score sheet."""
    player: str
    sheet: ScoreSheet


def final_scores(state: GameState) -> tuple[list[FinalScore], list[str]]:
    """Each player's end score (exact purses) and the winners: most points, then most gold
    left over; still tied, they share the win."""
    deck = state.deck()
    scores = [FinalScore(p.name, score_tableau(p.grid(), deck, p.keys, p.gold, p.purses))
              for p in state.now.players]
    return scores, winners(scores)


def winners(scores: list[FinalScore]) -> list[str]:
    """Most points; tied, most gold left over (not in purses); still tied, all of them."""
    best = max((s.sheet.total, s.sheet.gold_left) for s in scores)
    return [s.player for s in scores if (s.sheet.total, s.sheet.gold_left) == best]

