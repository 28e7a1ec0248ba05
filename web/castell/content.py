"""What the Castell page shows, read from the game's view (`service.castell.view`) and the
service's other views: the map, the players, the wheel, the controls the player to move may
use (only legal steps, labelled, each posting the one notation), the refill and
festival-tower forms, the history (newest first, with round and player) and the score."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from models.game import format_action
from models.tower import Pool
from service.castell import Game
from service.castell.maps import board_view
from service.castell.views import festival, score, wheel
from service.results.castell_view import skill_words
from web.castell.board_picture import PAWN, SPOT, TARGET, Label, Spot, pawn_places
from web.castell.board_picture import WIDTH as _WIDTH
from web.castell.board_picture import layout as _layout
from web.castell.board_picture import placed as _placed
from web.game_pages import GamePage

if TYPE_CHECKING:
    from service.results.castell_view import CastellView

# the pawn colours, in seating order (the game's own player colours are not in the state)
COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd")


Button = tuple[str, str]  # (the step's text, its label)


@dataclass
class Controls:
    """The legal steps of the player to move, grouped as the page shows them (each the text
    of one step in the notation, and its label from the game's view)."""

    moves: dict[str, str] = field(default_factory=dict)  # region id -> step (the map's)
    move_buttons: list[Button] = field(default_factory=list)
    recruits: list[Button] = field(default_factory=list)
    trains: list[Button] = field(default_factory=list)
    specials: list[Button] = field(default_factory=list)
    claims: list[tuple[str, str]] = field(default_factory=list)  # (tile, prefilled tower)
    end: Button | None = None


def controls(view: CastellView) -> Controls:
    """The view's legal steps, grouped."""
    found = Controls()
    for step in view.actions:
        button = (step.step, step.label)
        if step.kind == "move" and step.region is not None:
            found.moves[step.region] = step.step
            found.move_buttons.append(button)
        elif step.kind == "recruit":
            found.recruits.append(button)
        elif step.kind == "train":
            found.trains.append(button)
        elif step.kind == "claim" and step.tile is not None and step.tower is not None:
            found.claims.append((step.tile, step.tower))
        elif step.kind == "special":
            found.specials.append(button)
        elif step.kind == "end":
            found.end = button
    return found


def map_picture(game: Game, view: CastellView, moves: dict[str, str]) -> dict[str, Any]:
    """The board as the page draws it (`web.castell.board_picture`): each region at its place
    with its label (name, this round's festivals, castellers as tiles), its pawns and the move
    there of the player to move; the borders and dotted links."""
    board = board_view(game.board)
    where, height = _placed({r.id: (r.x, r.y) for r in board.regions})
    colour = {p.name: COLOURS[i % len(COLOURS)] for i, p in enumerate(view.players)}
    this_round = [f for f in view.festivals if f.round == view.round and not f.held]
    pools = {r.id: sorted(Pool.parse(r.castellers), reverse=True) for r in view.regions}
    spots = [_spot(region, where[region.id], colour, moves, this_round, pools[region.id])
             for region in view.regions]
    top, height = _layout(spots, [*board.borders, *board.dotted_links], height)
    lines = [(*where[a], *where[b], False) for a, b in board.borders]
    lines += [(*where[a], *where[b], True) for a, b in board.dotted_links]
    return {"width": _WIDTH, "top": top, "height": round(height, 1), "regions": spots,
            "lines": lines, "target": TARGET, "spot": SPOT, "pawn": PAWN, "colour": colour,
            "pools": pools,
            "festivals": {r.id: [f for f in this_round if f.region == r.id]
                          for r in view.regions}}


def _spot(region: Any, at: tuple[float, float], colour: dict[str, str],
          moves: dict[str, str], this_round: list[Any], pool: list[int]) -> Spot:
    """One region on the map: its label, its pawns (inside its circle), the move there and
    this round's festivals there."""
    x, y = at
    festivals = [f"\u2605 {f.location} {','.join(map(str, f.size_tokens))}"
                 for f in this_round if f.region == region.id]
    spot = Spot(region.id, region.name, x, y, Label(short(region.name), festivals, pool),
                moves.get(region.id), bool(festivals))
    spot.pawns = [(name, colour[name], px, py) for name, (px, py) in
                  zip(region.pawns, pawn_places(x, y, len(region.pawns)), strict=True)]
    return spot


def short(name: str, most: int = 17) -> str:
    """A region's name short enough for the phone's map: whole words, at most `most` letters
    (unless one word is longer), never ending on a small word ("Alt Pirineu i Aran" is "Alt
    Pirineu")."""
    kept: list[str] = []
    for word in name.split():
        if kept and len(" ".join([*kept, word])) > most:
            break
        kept.append(word)
    while len(kept) > 1 and len(kept[-1]) <= 3:
        kept.pop()
    return " ".join(kept)


def context(game: Game, name: str, folds: frozenset[str] | None = None) -> dict[str, Any]:
    """Everything the page's templates read: the game's view, and the board's tiles (the
    history's lines only if its fold is drawn: `folds`, `web.drawing.open_folds`)."""
    history = game.state.history
    view = game.view(history=folds is None or "history" in folds)
    found = controls(view)
    preview = festival(game, 10.0) if view.to_play is not None and any(
        f.round == view.round and not f.held for f in view.festivals) else None
    return {
        "name": name, "game": game, "view": view,
        "revision": game.state.revision, "controls": found,
        "map": map_picture(game, view, found.moves),
        "regions": {r.id: r.name for r in view.regions},
        "wheel": wheel(game, None, 2, None), "history": view.history[::-1],
        "steps": 0 if history is None else len(history.entries),
        "held": view.held, "skills": {p.name: skill_words(p.skills) for p in view.players},
        "teams": {p.name: sorted(Pool.parse(p.team), reverse=True) for p in view.players},
        "score": score(game), "preview": preview,
        "upcoming": [f for f in view.festivals if not f.held],
        "refills": view.refills_due, "recorded": view.deal == "recorded",
        "tiles": {t.id: t for t in game.board.performance_tiles},
    }


END_STEP = ("end", "End the turn")


def planned_turns(game: Game, result: Any) -> list[tuple[int, list[tuple[str, str]]]]:
    """A plan's turns as the advice panel lists them: each turn's round and its steps (the
    step's text in the notation, its reason); the first, this turn, ends with its end step
    (the panel's steps stop there: the plan ran into the next turn, issue 52)."""
    turns = [(turn.round, [(format_action(s.action, game.board), s.reason)
                           for s in turn.steps]) for turn in result.turns]
    if turns and (not turns[0][1] or turns[0][1][-1][0] != END_STEP[0]):
        turns[0][1].append(END_STEP)
    return turns


PAGE = GamePage("Castell", "castell.html", "castell_advice.html", context,
                lambda settings: settings.plan_time_limit, planned_turns)
