"""`combo new`: a game dealt by its seed, or a real deal to record, under the readings chosen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from models.combo import (
    LOCATIONS,
    READINGS,
    ComboRules,
    Deck,
    GameState,
    load_deck,
    new_game,
    recorded_game,
)
from models.errors import SpecError
from models.files import field_errors, parse_toml, read_text, write_atomic
from service.store import GameFile


def readings(items: list[str] | None) -> ComboRules:
    """`NAME=VALUE` readings (`--reading`) -> the rules the game is played with."""
    values: dict[str, Any] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or name.strip() not in READINGS:
            raise SpecError(f"'{item}': write NAME=VALUE, NAME one of {', '.join(READINGS)}",
                            field="reading")
        key = name.strip()
        if key in values and values[key] != value.strip():
            raise SpecError(f"{key} is given twice ({values[key]}, {value.strip()}): keep one",
                            field="reading")
        values[key] = value.strip()
    from pydantic import ValidationError

    try:
        return ComboRules.model_validate(values)
    except ValidationError as error:  # named by its field: each edge words its own input
        raise SpecError(field_errors(error), field="reading") from None


def read_deal(path: str) -> tuple[list[str], list[str]]:
    """A deal file (TOML: `castle = [...]`, `village = [...]`) -> the rows as dealt."""
    data = parse_toml(read_text(Path(path)), path)
    unknown = sorted(set(data) - {"castle", "village"})
    if unknown:
        raise SpecError(f"{path}: unknown key '{unknown[0]}' (castle, village)")
    rows = []
    for location in LOCATIONS:
        row = data.get(location)
        if not isinstance(row, list) or not all(isinstance(c, str) for c in row):
            raise SpecError(f"{path}: '{location}' is a list of 3 card ids")
        rows.append(row)
    return rows[0], rows[1]


def start_game(players: str, *, seed: int = 0, cards_file: str | None = None,
               deal: str | None = None, first: str | None = None,
               reading: list[str] | None = None,
               rows: tuple[list[str], list[str]] | None = None) -> GameState:
    """A new game: `players` comma-separated in seating order; shuffled by `seed`, or (with a
    `deal` file, or the castle and village `rows` as typed) a real game to record, which
    needs `first`. The rows' card ids are read as typed."""
    deck = load_deck(cards_file)
    names = players.split(",")
    rules = readings(reading)
    if deal is not None:
        if first is None:
            raise SpecError("a real game's deal is recorded with who starts", field="first")
        rows = read_deal(deal)
    if rows is not None:
        if first is None:
            raise SpecError("a real deal records a game: say who starts")
        castle, village = rows
        return recorded_game(deck, names, _spelt(castle, deck), _spelt(village, deck),
                             first.strip(), rules)
    return new_game(deck, names, seed, rules, first.strip() if first else None)


def _spelt(row: list[str], deck: Deck) -> list[str]:
    return [deck.spelt(card_id) for card_id in row]


def write_new(state: GameState, path: str | Path) -> None:
    """Write a new game's file (replacing what was there), under the file's lock so that no
    writer is half-way through a step on it."""
    with GameFile(path).locked():
        write_atomic(path, state.to_json())
