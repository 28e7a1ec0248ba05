"""Scoring a tableau: the rules core's exact score, card ids and stored gold read as typed."""

from __future__ import annotations

import pytest

from models.combo import Grid, load_deck, score_tableau
from models.errors import SpecError
from service.combo.score import ScoreLine, read_tableau, score, score_line, stored_gold

TABLEAU = "C01,C02,C03/V01,V02,V03/~C06,C07,V12"


def test_the_score_is_the_rules_cores() -> None:
    deck = load_deck()
    scored = score(deck, TABLEAU, keys=3, gold=12, stored="right=1")
    assert scored.sheet == score_tableau(Grid.parse(TABLEAU), deck, 3, 12, {"V03": 1})
    assert scored.output.total == scored.sheet.total and str(scored.grid) == TABLEAU
    line = score_line(deck, ScoreLine(tableau=TABLEAU, keys=3, gold=12, stored="V03=1"))
    assert line == scored.output


def test_ids_are_read_as_typed() -> None:
    deck = load_deck()
    assert str(read_tableau(TABLEAU.lower(), deck)) == TABLEAU
    grid = read_tableau(TABLEAU, deck)
    assert stored_gold("v03=1, top-left=0", grid, deck) == {"V03": 1, "C01": 0}
    with pytest.raises(SpecError, match="'C01' appears twice"):
        read_tableau("C01,c01,-/-,-,-/-,-,-", deck)
    with pytest.raises(SpecError, match="given twice"):
        stored_gold("v03=1,right=2", grid, deck)
