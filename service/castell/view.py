"""Castell's one view of a game (`CastellView`): players, regions with their tiles in words,
the legal steps of the player to move with labels, and the history with each step's round
and player; built here once, drawn by the table page and printed by `state show --view`.
Read from the verified state alone: no replay."""

from __future__ import annotations

from typing import TYPE_CHECKING

from models.game import (
    ActionEntry,
    EndTurn,
    Move,
    Recruit,
    RefillEntry,
    Special,
    Train,
    format_action,
    format_step,
    score_player,
)
from models.tower import ShapeTile, tile_words
from service.results import SCHEMA_VERSION
from service.results.castell_view import (
    CastellView,
    FestivalView,
    HeldFestival,
    HistoryLine,
    NamedTower,
    PlayerView,
    RegionView,
    StepView,
    TileView,
)

if TYPE_CHECKING:
    from models.game import Action, Board, FestivalSpace, GameState
    from service.castell.asked import AskedGame


def castell_view(game: AskedGame, history: bool = True) -> CastellView:
    """The game as it stands, as every edge shows it; its `history` lines left out if not
    asked for (they are most of the view's work late in a game)."""
    state, board = game.state, game.board
    due = not state.game_over and not state.refills_due
    return CastellView(
        schema_version=SCHEMA_VERSION, round=state.round, rounds=board.rounds,
        rules=state.game_rules.name, wheel_side=state.wheel_side, game_over=state.game_over,
        to_play=state.turn.player if due else None,
        refills_due=dict(state.refills_due),
        players=[PlayerView(name=p.name, pawn=p.pawn, team=p.pool, skills=p.ranks.as_dict(),
                            special_tokens=p.special_tokens, best_tower=p.best_tower_score,
                            claimed_tiles=list(p.claimed_tiles),
                            prizes={prize: n for prize, n in p.prizes.items() if n},
                            size_tokens=list(p.size_tokens),
                            points=score_player(p, board).total) for p in state.players],
        regions=_regions(state, board), festivals=_festivals(state, board),
        actions=[_step(a, board) for a in game.legal_actions()] if due else [],
        history=history_lines(state, board) if history else [], held=_held(state, board),
        named_towers=_named(state), deal=state.deal, seed=state.seed,
        final_scores=None if state.final_score is None else
        {c.player: c.total for c in state.final_score.cards},
        winners=list(state.final_score.winners) if state.final_score else [])


def _named(state: GameState) -> list[NamedTower]:
    named = [NamedTower(player=who, tower=tower) for who, tower in state.festival_towers.items()]
    named += [NamedTower(player=who, location=where, tower=tower)
              for where, towers in state.festival_towers_at.items()
              for who, tower in towers.items()]
    return named


def _festivals(state: GameState, board: Board) -> list[FestivalView]:
    return [FestivalView(round=f.round, location=f.location, region=f.region,
                         region_name=board.region(f.region).name, type=f.type,
                         size_tokens=list(f.size_tokens), held=f.resolved)
            for f in sorted(state.festivals, key=lambda f: f.round)]


def _held(state: GameState, board: Board) -> list[HeldFestival]:
    """The festivals held, the latest first, with what happened there."""
    held = [(f, f.result) for f in state.festivals if f.result is not None]
    return [HeldFestival(round=f.round, location=f.location, region=board.region(f.region).name,
                         competitors=list(result.competitors),
                         size_tokens=list(result.size_tokens))
            for f, result in sorted(held, key=lambda pair: pair[0].round, reverse=True)]


def _regions(state: GameState, board: Board) -> list[RegionView]:
    shown = []
    for region in board.regions:
        lying = state.regions[region.id]
        tiles = [board.tile(t) for t in lying.performance_tiles]
        shown.append(RegionView(
            id=region.id, name=region.name, castellers=lying.castellers,
            special_tokens=lying.special_tokens,
            tiles=[TileView(id=t.id, tile=t.tile, asks=tile_words(t.spec), points=t.points,
                            shape=list(t.spec.counts) if isinstance(t.spec, ShapeTile)
                            else None)
                   for t in tiles],
            pawns=[p.name for p in state.players if p.pawn == region.id]))
    return shown


def _step(action: Action, board: Board) -> StepView:
    """A legal step and its words."""
    text = format_action(action, board)
    if isinstance(action, Move):
        return StepView(step=text, label=f"move to {board.region(action.to).name}",
                        kind="move", region=action.to)
    if isinstance(action, Recruit):
        return StepView(step=text, label="recruit " + " and ".join(map(str, action.sizes)),
                        kind="recruit")
    if isinstance(action, Train):
        return StepView(step=text, label=f"train {action.skill}", kind="train")
    if isinstance(action, EndTurn):
        return StepView(step=text, label="end the turn", kind="end")
    assert isinstance(action, Special)
    if action.kind == "claim":
        return StepView(step=text, label=f"claim {action.tile} (a special action)",
                        kind="claim", tile=action.tile, tower=action.tower)
    what = (f"recruit a {action.size}" if action.kind == "recruit"
            else f"move to {board.region(action.to or '').name}")
    return StepView(step=text, label=f"{what} (a special action)", kind="special",
                    region=action.to)


def history_lines(state: GameState, board: Board) -> list[HistoryLine]:
    """Every recorded step with its round and player. Each round every player takes one turn,
    so the round is counted from the turns ended since the history's start (no replay)."""
    if state.history is None:
        return []
    start = state.history.start
    players = len(start.players)
    turn = start.turn_order.index(start.turn.player)  # turns into the start's round
    lines = []
    for entry in state.history.entries:
        round_ = start.round + turn // players
        player = None if isinstance(entry, RefillEntry) else entry.player
        lines.append(HistoryLine(round=round_, player=player, step=format_step(entry, board)))
        if isinstance(entry, ActionEntry) and isinstance(entry.action, EndTurn):
            turn += 1
    return lines


def festival_here(state: GameState, name: str) -> FestivalSpace | None:
    """This round's festival still to hold in the region where `name`'s pawn stands (None:
    none): the only festival a tower may be named for now (the referee refuses any other),
    and the one the player's best tower is asked for first."""
    pawn = state.player(name).pawn
    if pawn is None or state.game_over:
        return None
    return next((f for f in state.festivals_in(state.round)
                 if not f.resolved and f.region == pawn), None)
