"""The fragment a step draws is kept for the viewer's other screens under the text that step
saved: a step written by someone else between the save and the keep is not hidden behind
the page drawn before it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from service.castell import Game
from web import drawing


def test_a_kept_page_is_the_text_it_shows(client: TestClient, folder: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    path = folder / "castell.json"
    keep = drawing.keep

    def another_step_first(*args: Any, **kwargs: Any) -> None:
        with Game.editing(path) as game:  # a terminal's step, just after the page's save
            game.step("end")
            game.save()
        keep(*args, **kwargs)

    monkeypatch.setattr(drawing, "keep", another_step_first)
    answer = client.post("/g/castell.json/step", data={"revision": 0, "step": "end"},
                         headers={"hx-request": "true"})
    assert answer.status_code == 200 and 'data-revision="1"' in answer.text
    assert Game.load(path).revision == 2
    # the screen that asks next is shown the file as it is, not the page kept for revision 1
    assert 'data-revision="2"' in client.get("/g/castell.json/game").text
