"""Names as typed at the table (`models.names`)."""

from __future__ import annotations

import pytest

from models.errors import SpecError
from models.names import check_names, name_problem, names_problem, typed_match


def test_the_exact_name_first_then_the_one_alike() -> None:
    names = ["Anna", "Biel", "anna"]
    assert typed_match(names, "anna") == 2  # exact
    assert typed_match(names, "Anna") == 0
    assert typed_match(names, " BIEL ") == 1  # the only one alike
    assert typed_match(names, "ANNA") is None  # two alike: the exact name is needed
    assert typed_match(names, "Carla") is None
    assert typed_match([], "Anna") is None


@pytest.mark.parametrize(("name", "said"), [
    ("scorekeeper", "a role"), (" ScoreKeeper ", "a role"), ("SCOREKEEPER", "a role"),
    ("An\x00na", "U+0000"), ("Anna\x1b[31m", "U+001B"), ("An\x85na", "U+0085"),
    ("B\u202eleib", "U+202E"), ("\u2066Anna\u2069", "U+2066"), ("An\u200fna", "U+200F"),
])
def test_a_reserved_or_ambiguous_name_is_refused(name: str, said: str) -> None:
    problem = name_problem(name)
    assert problem is not None and said in problem
    with pytest.raises(SpecError, match=said.replace("+", r"\+")) as caught:
        check_names(["Biel", name])
    assert caught.value.field == "players"


@pytest.mark.parametrize("name", ["Anna", "Núria", "Joan Pau", "Ørjan", "زينب", "李", "score",
                                  "scorekeeper2", "🙂"])
def test_an_ordinary_name_is_taken(name: str) -> None:
    assert name_problem(name) is None
    check_names([name, "Biel"])


def test_names_only_case_apart_are_one_name() -> None:
    problem = names_problem(["Anna", "Biel", "anna "])
    assert problem is not None and "'Anna' and 'anna '" in problem
    assert names_problem(["Anna", "Biel", "STRASSE"]) is None
    assert names_problem(["straße", "STRASSE"]) is not None  # case-folded, not lowered
