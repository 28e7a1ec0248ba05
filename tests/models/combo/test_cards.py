"""The card file: every form read, every mistake refused naming the card and the field; the
shipped sample deck has the real game's statistics and uses every form."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from models.combo import (
    ALL_ABILITY_FORMS,
    ALL_SCORE_FORMS,
    PUBLISHED,
    deck_from_dict,
    deck_stats,
    forms_used,
    load_deck,
    sample_path,
)
from models.errors import SpecError
from tests.models.combo.builders import card, deck


def test_every_form_of_the_rules_page_example_reads() -> None:
    text = """
[[card]]
id = "C07"
name = "Tower Archivist"
location = "castle"
cost = 5
shields = ["scholarship", "nobility"]
messenger = true
discount = ["village"]
score = { points = 2, per = "shield", shield = "scholarship", scope = "tableau" }
ability = [{ gain = "gold", amount = 3 }]
"""
    c = deck_from_dict(tomllib.loads(text), "x").card("C07")
    assert c.cost == 5 and c.has_messenger and c.discount == ["village"]
    assert c.score is not None and c.score.count is not None
    assert c.score.count.per == "shield" and c.score.points == 2


def test_the_sample_deck_round_trips_through_its_file_form() -> None:
    sample = load_deck()
    again = deck_from_dict({"card": [c.as_file() for c in sample.cards]}, "again")
    assert again.cards == sample.cards


@pytest.mark.parametrize(("bad", "fragments"), [
    ({"colour": "red"}, ["card 'X1'", "colour", "Extra inputs"]),
    ({"cost": -1}, ["card 'X1'", "cost"]),
    ({"location": "town"}, ["card 'X1'", "location"]),
    ({"shields": ["nobility", "faith", "military"]}, ["card 'X1'", "shields"]),
    ({"shields": ["gold"]}, ["card 'X1'", "shields.0"]),
    ({"score": {"points": 1, "per": "shield", "shield": "faith", "range": 2}},
     ["card 'X1'", "score.range"]),
    ({"score": {"points": 1, "per": "shields"}}, ["card 'X1'", "score"]),
    ({"score": {"points": 1, "if": "position", "cells": ["middle"]}},
     ["card 'X1'", "score.cells.0"]),
    ({"score": {"points": 1, "per": "key", "if": "face_down"}}, ["card 'X1'", "not both"]),
    ({"score": {"per": "key"}}, ["card 'X1'", "score.points"]),
    ({"ability": [{"steal": "gold"}]}, ["card 'X1'", "ability.0"]),
    ({"ability": [{"gain": "silver", "amount": 1}]}, ["card 'X1'", "ability.0"]),
    ({"ability": [{"gain": "gold", "per": "shield", "shield": "faith", "scope": "row",
                   "from": "neighbour"}]}, ["card 'X1'", "neighbour"]),
    ({"ability": [{"choose": [[{"gain": "gold", "amount": 1}]]}]}, ["card 'X1'", "choose"]),
    ({"discount": ["castle", "castle"]}, ["card 'X1'", "discount"]),
])
def test_mistakes_are_refused_naming_card_and_field(bad: dict[str, object],
                                                    fragments: list[str]) -> None:
    with pytest.raises(SpecError) as error:
        deck(card("X1", **bad))  # type: ignore[arg-type]
    for fragment in fragments:
        assert fragment in str(error.value)


def test_deck_level_mistakes() -> None:
    with pytest.raises(SpecError, match="appears twice"):
        deck(card("A"), card("A"))
    with pytest.raises(SpecError, match="no \\[\\[card\\]\\]"):
        deck_from_dict({}, "empty")
    with pytest.raises(SpecError, match="top-level key 'cards'"):
        deck_from_dict({"cards": []}, "typo")


def test_a_cost_above_seven_is_read_with_a_warning() -> None:
    d = deck(card("X", cost=9))
    assert d.card("X").cost == 9 and "above 7" in d.warnings[0]


def test_oversized_and_missing_files(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("#" * 1_000_001)
    with pytest.raises(SpecError, match="larger than 1000000 bytes"):
        load_deck(big)
    with pytest.raises(SpecError, match="cannot read"):
        load_deck(tmp_path / "none.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[[card]\n")
    with pytest.raises(SpecError, match="not valid TOML"):
        load_deck(broken)


def test_sample_deck_statistics_equal_the_published_ones() -> None:
    stats = deck_stats(load_deck())
    for key, published in PUBLISHED.items():
        assert stats[key] == published, key
    # the rules page's own arithmetic: 105 shields on 51 one-shield and 27 two-shield cards
    total = sum(sum(per.values()) for per in stats["shields"].values())
    assert total == 105 == 51 + 2 * 27


def test_sample_deck_uses_every_form() -> None:
    used = forms_used(load_deck())
    assert used["scores"] >= ALL_SCORE_FORMS
    assert used["abilities"] >= ALL_ABILITY_FORMS


def test_sample_file_is_packaged_and_names_no_published_card() -> None:
    assert sample_path().is_file()
    text = sample_path().read_text(encoding="utf-8")
    assert "invented" in text
