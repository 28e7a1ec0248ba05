"""Names as typed at the table (`models.names`)."""

from __future__ import annotations

from models.names import typed_match


def test_the_exact_name_first_then_the_one_alike() -> None:
    names = ["Anna", "Biel", "anna"]
    assert typed_match(names, "anna") == 2  # exact
    assert typed_match(names, "Anna") == 0
    assert typed_match(names, " BIEL ") == 1  # the only one alike
    assert typed_match(names, "ANNA") is None  # two alike: the exact name is needed
    assert typed_match(names, "Carla") is None
    assert typed_match([], "Anna") is None
