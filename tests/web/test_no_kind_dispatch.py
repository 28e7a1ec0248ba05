"""The routes, templates and batches both games share never compare a game's kind: each game
gives its parts through its handle and its page (`web.game_pages`, `service.handles`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KINDS = "castell|combo"
# `kind == "castell"`, `"combo" != kind`, `kind in ("castell", ...)`: in Python and in Jinja
COMPARED = re.compile(rf"""(==|!=)\s*["']({KINDS})["']|["']({KINDS})["']\s*(==|!=)"""
                      rf"""|\bin\s*[(\[{{]\s*["']({KINDS})["']""")
SHARED = [*ROOT.glob("web/**/*.py"), *ROOT.glob("web/templates/*.html"),
          *ROOT.glob("service/batches/**/*.py"), ROOT / "service" / "batch.py"]


def compared(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if COMPARED.search(line)]


@pytest.mark.parametrize("line", ['if kind == "combo":', "{% if kind == 'castell' %}",
                                  'if "castell" != game.kind:', 'if kind in ("combo",):'])
def test_the_check_sees_a_comparison(line: str) -> None:
    assert compared(line) == [line]


def test_no_shared_module_compares_a_games_kind() -> None:
    assert len(SHARED) > 20
    found = {str(path.relative_to(ROOT)): lines for path in SHARED
             if (lines := compared(path.read_text(encoding="utf-8")))}
    assert found == {}
