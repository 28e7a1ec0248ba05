"""`models.game` imports its public names on first use (`_HOME` says where each lives): every
name listed must resolve, to the object its module defines."""

from __future__ import annotations

import subprocess
import sys
from importlib import import_module

import models.game as game


def test_every_public_name_has_a_home_and_resolves() -> None:
    assert set(game._WHERE) == set(game.__all__)
    for name in game.__all__:
        assert getattr(game, name) is getattr(import_module(game._WHERE[name]), name)


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        game.no_such_name  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as error:
        assert "no_such_name" in str(error)
    else:
        raise AssertionError("an unknown name resolved")


def test_reading_the_board_builds_no_state_models() -> None:
    probe = ("import sys; from models.game import load_board; load_board(None); "
             "print(sorted(m for m in sys.modules if m.startswith('models.game.')))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True).stdout
    assert "models.game.board" in loaded
    assert "models.game.state" not in loaded and "models.game.referee" not in loaded
