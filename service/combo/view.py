"""What a Castle Combo game shows: the state as `combo show --json` and `combo play --json`
print it, and a score sheet as `combo score --json` prints it."""

from __future__ import annotations

from models.combo import LOCATIONS, GameState, ScoreSheet, discount, final_scores, pending_reveals
from service.results.base import output_of
from service.results.combo import (
    ComboFinalScore,
    ComboHistoryEntry,
    ComboPlayer,
    ComboScoreOutput,
    ComboStateOutput,
)


def sheet_output(sheet: ScoreSheet) -> ComboScoreOutput:
    return output_of(ComboScoreOutput, sheet.as_dict())


def state_output(state: GameState) -> ComboStateOutput:
    """The game as it stands: rows, Messenger, players, history; the scores once it is over."""
    table = state.now
    deck = state.deck()
    players = [ComboPlayer(name=p.name, gold=p.gold, keys=p.keys, tableau=str(p.grid()),
                           cards=len(p.tableau), purses=dict(p.purses),
                           discounts={loc: discount(p, deck, loc) for loc in LOCATIONS})
               for p in table.players]
    fields: dict[str, object] = {
        "game_over": table.game_over,
        "to_play": None if table.game_over else table.player.name,
        "key_used": table.key_used,
        "messenger": table.messenger,
        "rows": {loc: list(table.rows[loc]) for loc in LOCATIONS},
        "dead_rows": list(table.dead),
        "pending_reveals": dict(pending_reveals(table)),
        "players": players,
        "history": [ComboHistoryEntry(player=e.player, action=e.action) for e in state.history],
    }
    if table.game_over:  # set only then: the JSON has no `scores` before the end
        scores, winners = final_scores(state)
        fields["scores"] = [ComboFinalScore.model_validate({"player": s.player,
                                                           **s.sheet.as_dict()})
                            for s in scores]
        fields["winners"] = winners
    return output_of(ComboStateOutput, fields)
