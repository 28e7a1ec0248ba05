"""Arrangements through the service: pins read as typed, a tableau in progress completed with
its cards kept in place."""

from __future__ import annotations

import pytest

from models.combo import Take, load_deck, new_game
from models.errors import SpecError
from service.combo import ComboGame
from service.combo.arrange import arrange_cards

NINE = "C01,C05,C12,V03,V07,V18,V22,~C30,V31"


def test_pins_are_read_as_typed() -> None:
    answer = arrange_cards(NINE.lower(), fixed="v31@top-left", time_limit=5)
    assert answer.optimal and answer.grid is not None
    assert answer.grid.rows[0][0] is not None and answer.grid.rows[0][0].card == "V31"
    assert answer.sheet is not None and answer.output.total == answer.sheet.total
    assert answer.output.tableau == str(answer.grid)
    with pytest.raises(SpecError, match="fixed twice"):
        arrange_cards(NINE, fixed="V31@top,v31@centre")


def test_a_tableau_in_progress_is_completed_in_place() -> None:
    game = ComboGame.from_state(new_game(load_deck(), ["Ana", "Ben"], 3, first="Ana"))
    for _ in range(2):
        game.step(next(a for a in game.legal_actions() if isinstance(a, Take) and a.face_down))
    ana = game.player("ana")
    used = {p.card for p in ana.tableau}
    more = [c.id for c in load_deck().cards if c.id not in used][:8]
    with pytest.raises(SpecError, match="give 8 more"):
        game.arrange("ana", ",".join(more[:7]))
    with pytest.raises(SpecError, match="whose cards to arrange") as refused:
        game.arrange(None, ",".join(more))
    assert refused.value.field == "player"
    answer = game.arrange("ana", ",".join(more), time_limit=5)
    assert answer.grid is not None and answer.grid.find(ana.tableau[0].card) is not None

