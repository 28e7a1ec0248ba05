"""What the Castell page shows, read from the game handle and the service's views: the map,
the players, the wheel, the controls the player to move may use (only legal actions, in the
one notation), the refill and festival-tower forms, the history and the score."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from models.game import EndTurn, Move, Recruit, Special, Train, format_action, format_step
from service.castell import Game
from service.castell.maps import board_view
from service.castell.views import festival, score, wheel
from web.pages import GamePage

# the pawn colours, in seating order (the game's own player colours are not in the state)
COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd")
MAP_W, MAP_H, MARGIN = 360.0, 300.0, 34.0


@dataclass
class Controls:
    """The legal actions of the player to move, grouped as the page shows them (each the text
    of one step in the notation)."""

    moves: dict[str, str] = field(default_factory=dict)  # region id -> step
    recruits: list[str] = field(default_factory=list)
    trains: list[str] = field(default_factory=list)
    specials: list[str] = field(default_factory=list)
    claims: list[tuple[str, str]] = field(default_factory=list)  # (tile, prefilled tower)
    end: str | None = None


def controls(game: Game) -> Controls:
    found = Controls()
    if game.state.game_over:
        return found
    for action in game.legal_actions():
        text = format_action(action, game.board)
        if isinstance(action, Move):
            found.moves[action.to] = text
        elif isinstance(action, Recruit):
            found.recruits.append(text)
        elif isinstance(action, Train):
            found.trains.append(text)
        elif isinstance(action, Special) and action.kind == "claim":
            assert action.tile is not None and action.tower is not None
            found.claims.append((action.tile, action.tower))
        elif isinstance(action, Special):
            found.specials.append(text)
        elif isinstance(action, EndTurn):
            found.end = text
    return found


def map_picture(game: Game, moves: dict[str, str]) -> dict[str, Any]:
    """Where each region, link and pawn goes on the page's SVG map (scaled from the board's
    coordinates); the regions the player to move may move to are marked."""
    view = board_view(game.board)
    xs = [r.x for r in view.regions]
    ys = [r.y for r in view.regions]
    span_x = max(max(xs) - min(xs), 1.0)
    span_y = max(max(ys) - min(ys), 1.0)
    scale = min((MAP_W - 2 * MARGIN) / span_x, (MAP_H - 2 * MARGIN) / span_y)

    def at(x: float, y: float) -> tuple[float, float]:
        return (round(MARGIN + (x - min(xs)) * scale, 1), round(MARGIN + (y - min(ys)) * scale, 1))

    where = {r.id: at(r.x, r.y) for r in view.regions}
    colour = {p.name: COLOURS[i % len(COLOURS)] for i, p in enumerate(game.state.players)}
    regions = []
    for region in view.regions:
        state = game.state.regions[region.id]
        pawns = [(p.name, colour[p.name]) for p in game.state.players if p.pawn == region.id]
        x, y = where[region.id]
        regions.append({"id": region.id, "name": region.name, "x": x, "y": y,
                        "castellers": state.castellers, "tiles": state.performance_tiles,
                        "tokens": state.special_tokens, "pawns": pawns,
                        "move": moves.get(region.id),
                        "festival": [f for f in game.state.festivals_in(game.state.round)
                                     if f.region == region.id and not f.resolved]})
    lines = [(*where[a], *where[b], False) for a, b in view.borders]
    lines += [(*where[a], *where[b], True) for a, b in view.dotted_links]
    return {"width": MAP_W, "height": MAP_H, "regions": regions, "lines": lines,
            "colour": colour}


def context(game: Game, name: str) -> dict[str, Any]:
    """Everything the page's templates read."""
    state, board = game.state, game.board
    found = controls(game)
    history = [format_step(e, board) for e in state.history.entries] if state.history else []
    festivals = state.festivals_in(state.round)
    preview = festival(game, 10.0) if any(not f.resolved for f in festivals) \
        and not state.refills_due and not state.game_over else None
    upcoming = sorted((f for f in state.festivals if not f.resolved), key=lambda f: f.round)
    return {
        "name": name, "kind": "castell", "game": game, "state": state, "board": board,
        "revision": state.revision, "controls": found, "map": map_picture(game, found.moves),
        "regions": {r.id: r.name for r in board.regions},
        "wheel": wheel(game, None, 2, None), "history": history,
        "score": score(game), "preview": preview, "upcoming": upcoming,
        "refills": state.refills_due, "recorded": state.deal == "recorded",
        "tiles": {t.id: t for t in board.performance_tiles},
    }


def planned_turns(game: Game, result: Any) -> list[tuple[int, list[tuple[str, str]]]]:
    """A plan's turns as the advice panel lists them: each turn's round and its steps (the
    step's text in the notation, its reason)."""
    return [(turn.round, [(format_action(s.action, game.board), s.reason) for s in turn.steps])
            for turn in result.turns]


PAGE = GamePage(context, planned_turns)
