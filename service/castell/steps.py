"""What a recorded step changed, as one typed outcome (`PlayOutput`: the `castell play --json`
object, and what a web page shows): the step in the notation, festivals held, refills drawn,
each player's gains, whose turn it is, the end."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from service.results.game import HeldFestival, PlayerChange, PlayOutput

if TYPE_CHECKING:
    from models.game import Board, GameState, HistoryEntry, TileFinder

StepOutcome = PlayOutput


def claim_finder() -> TileFinder:
    """A tower that meets a tile (for the claims among the legal actions)."""
    from planner.tower import tile_tower

    return tile_tower


def _changes(before: GameState, after: GameState) -> list[PlayerChange]:
    changes = []
    for old in before.players:
        new = after.player(old.name)
        gained = Counter(new.team.counts()) - Counter(old.team.counts())
        recruited = sorted(gained.elements(), reverse=True)
        trained = [f"{skill}={rank}" for skill, rank in sorted(new.ranks.as_dict().items())
                   if rank != old.ranks.as_dict().get(skill, 0)]
        claimed = [t for t in new.claimed_tiles if t not in old.claimed_tiles]
        change = PlayerChange(
            player=old.name,
            pawn=new.pawn if new.pawn != old.pawn else None,
            recruited=recruited, trained=trained, claimed=claimed,
            special_tokens=new.special_tokens - old.special_tokens,
            collected_tokens=new.collected_tokens - old.collected_tokens,
            size_tokens=sorted(new.size_tokens[len(old.size_tokens):], reverse=True),
            best_tower_score=new.best_tower_score - old.best_tower_score)
        if change.model_dump(exclude={"player"}, exclude_defaults=True):
            changes.append(change)
    return changes


def step_outcome(before: GameState, after: GameState, board: Board,
                 entry: HistoryEntry | None) -> StepOutcome:
    """The outcome of one step (None: an undo) from the states before and after it."""
    from models.game import format_step
    from service.results import SCHEMA_VERSION

    held = [s for s in after.festivals if s.result is not None
            and not any(b.location == s.location and b.resolved for b in before.festivals)]
    drawn = {r: after.regions[r].castellers for r in board.region_ids
             if after.regions[r].supply.total > before.regions[r].supply.total
             and after.round != before.round}
    return PlayOutput(
        schema_version=SCHEMA_VERSION,
        applied=_describe(entry, board),
        step=format_step(entry, board),
        written=False,
        revision=after.revision,
        round=after.round,
        turn=None if after.game_over else after.turn.player,
        festivals=[HeldFestival(location=s.location, region=s.region, round=s.round,
                                size_tokens=list(s.size_tokens), result=s.result)
                   for s in held],
        drawn=drawn,
        refills_due=after.refills_due,
        changes=_changes(before, after) if entry is not None else [],
        game_over=after.game_over,
        final_score=after.final_score,
    )


def _describe(entry: HistoryEntry | None, board: Board) -> str:
    """The step in words, for the one-line report (`applied`)."""
    from models.game import ActionEntry, Move, RefillEntry, Special, TowerChoiceEntry

    names = {r.id: r.name for r in board.regions}
    if entry is None:
        return "undid the last step"
    if isinstance(entry, RefillEntry):
        return f"refill of {names[entry.region]}: {entry.castellers}"
    if isinstance(entry, TowerChoiceEntry):
        at = f"the festival at {entry.location}" if entry.location else "this round's festival"
        return (f"{entry.player} will build {entry.tower} at {at}"
                if entry.tower else f"{entry.player} will not compete at {at}")
    assert isinstance(entry, ActionEntry)
    action = entry.action
    if isinstance(action, Move):
        text = f"move to {names[action.to]}"
    elif isinstance(action, Special) and action.kind == "move" and action.to:
        text = f"special: move to {names[action.to]}"
    else:
        text = str(action)
    return f"{entry.player}: {text}"
