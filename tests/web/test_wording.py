"""The page words an error about one input by the control's label, never by a CLI option."""

from __future__ import annotations

from models.errors import SpecError
from web.wording import said


def test_an_error_about_an_input_names_the_control() -> None:
    assert said(SpecError("2 to 4 players, not 5", field="players")) == \
        "Players: 2 to 4 players, not 5"
    assert said(SpecError("no such tile")) == "no such tile"
    assert said(SpecError("local:N takes N in 1..256", field="what_if_rules")).startswith(
        "What if rules: ")


def test_the_start_page_says_which_control(client) -> None:  # type: ignore[no-untyped-def]
    answer = client.post("/new/castell", data={"file": "five.json", "players": "5"})
    assert answer.status_code == 400
    assert answer.text.startswith("Players: ") and "--" not in answer.text
