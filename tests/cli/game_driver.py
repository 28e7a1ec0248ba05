"""Driving whole games through `castell play` in-process: random legal steps as the words a
player types, and the referee's own view of the same steps."""

from __future__ import annotations

import random
from pathlib import Path

from typer.testing import CliRunner, Result

from cli.main import app
from models.game import (
    ActionEntry,
    Board,
    EndTurn,
    GameState,
    HistoryEntry,
    Move,
    Recruit,
    RefillEntry,
    Special,
    Train,
    legal_actions,
    load_state,
)
from models.tower import Pool


def castell(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def words_of(entry: HistoryEntry, board: Board) -> list[str]:
    """What a player types for a step (region names as players write them)."""
    if isinstance(entry, RefillEntry):
        return ["refill", board.region(entry.region).name, *map(str, Pool.parse(entry.castellers))]
    if not isinstance(entry, ActionEntry):
        return ["festival-tower", entry.player, entry.tower or "none"]
    action = entry.action
    if isinstance(action, Move):
        return ["move", board.region(action.to).name]
    if isinstance(action, Recruit):
        return ["recruit", *map(str, action.sizes)]
    if isinstance(action, Train):
        return ["train", action.skill]
    if isinstance(action, Special):
        if action.kind == "recruit":
            return ["special", "recruit", str(action.size)]
        if action.kind == "move":
            assert action.to is not None
            return ["special", "move", board.region(action.to).id]
        return ["special", "claim", str(action.tile), str(action.tower)]
    assert isinstance(action, EndTurn)
    return ["end"]


def random_step(state: GameState, board: Board, rng: random.Random) -> HistoryEntry:
    """A legal step: a due refill drawn from the bag, else an action (ending the turn
    after a few)."""
    if state.refills_due:
        region, count = next(iter(state.refills_due.items()))
        bag = list(Pool.parse(state.bag or "none"))
        return RefillEntry(region=region, castellers=str(Pool.of(rng.sample(bag, count))))
    actions = legal_actions(state, board, state.game_rules)
    turn = state.turn
    spent = sum((turn.moved, turn.recruited, turn.trained, turn.special))
    others = [a for a in actions if not isinstance(a, EndTurn)]
    ends = [a for a in actions if isinstance(a, EndTurn)]
    # nudged towards recruiting and this round's festival regions, so that games hold contests
    due = {f.region for f in state.festivals_in(state.round)}
    towards = [a for a in others if isinstance(a, Move) and a.to in due
               and state.current.pawn not in due]
    recruits = [a for a in others if isinstance(a, Recruit)]
    if ends and (not others or rng.random() < spent / 4):
        return ActionEntry(player=turn.player, action=ends[0])
    for wanted in (towards, recruits):
        if wanted and rng.random() < 0.7:
            return ActionEntry(player=turn.player, action=rng.choice(wanted))
    return ActionEntry(player=turn.player, action=rng.choice(others))


def play_words(path: Path, words: list[str]) -> Result:
    return castell("play", str(path), *words)


def load(path: Path) -> GameState:
    return load_state(path)
