"""The app's settings are given when it is made, and each game's page reads its advice's time
limit from them (no module global to patch)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from web.app import create_app
from web.library import Library
from web.settings import DEFAULT, WebSettings


def test_the_settings_given_are_the_apps_and_cannot_change(folder: Path) -> None:
    mine = WebSettings(plan_time_limit=3.0, advice_time_limit=2.0)
    app = create_app(Library(folder), settings=mine)
    assert app.state.settings is mine
    assert create_app(Library(folder)).state.settings is DEFAULT
    with pytest.raises(dataclasses.FrozenInstanceError):
        mine.plan_time_limit = 9.0  # type: ignore[misc]
    pages = app.state.pages
    assert pages["castell"].advice_time_limit(mine) == 3.0
    assert pages["combo"].advice_time_limit(mine) == 2.0
    assert {p.template for p in pages.values()} == {"castell.html", "combo.html"}
