"""The players field, read once for every edge."""

from __future__ import annotations

import pytest

from models.errors import SpecError
from service.castell.setup import players_of


@pytest.mark.parametrize(("text", "expected"), [
    ("3", (3, None)), (" 2 ", (2, None)),
    ("Anna,Biel,Carla", (3, ["Anna", "Biel", "Carla"])), ("Anna, Biel", (2, ["Anna", "Biel"])),
])
def test_a_count_or_names(text: str, expected: tuple[int, list[str] | None]) -> None:
    assert players_of(text) == expected


@pytest.mark.parametrize("text", ["-1", "\uff13", "", " , "])
def test_what_is_neither_is_refused_naming_the_field(text: str) -> None:
    with pytest.raises(SpecError) as caught:
        players_of(text)
    assert caught.value.field == "players" and "--" not in str(caught.value)
