"""`cli.castell.render`: the tower picture says which column is the level and which the
castellers (a row "1  9 9 9 9" was read as one number and four sizes with no head)."""

from __future__ import annotations

import io

from rich.console import Console

from cli.castell.render import CASTELLERS, LEVEL, tower_picture
from models.tower import Tower
from tests.cli.helpers import run


def _lines(tower: str) -> list[str]:
    console = Console(width=100, no_color=True, record=True, file=io.StringIO())
    console.print(tower_picture(Tower.parse(tower)))
    return [line.rstrip() for line in console.export_text().splitlines()]


def test_the_head_names_both_columns_above_the_top_level() -> None:
    lines = _lines("9,9,9,9/7,7,7/5,5/3")
    assert lines[0].split(None, 1) == [LEVEL, CASTELLERS]
    assert [line.split()[0] for line in lines[1:]] == ["4", "3", "2", "1"]
    assert lines[4].split()[1:] == ["9", "9", "9", "9"]


def test_a_one_casteller_tower_keeps_its_head_on_one_line() -> None:
    lines = _lines("9")
    assert lines[0].split(None, 1) == [LEVEL, CASTELLERS]
    assert lines[1].split() == ["1", "9"]


def test_verify_prints_the_labelled_picture_and_its_json_has_no_head() -> None:
    text = run("verify", "9x4/7x3/5x2/3", "--skills", "width=1").stdout
    assert f"{LEVEL}" in text and CASTELLERS in text
    assert CASTELLERS not in run("verify", "9x4/7x3/5x2/3", "--skills", "width=1",
                                 "--json").stdout
