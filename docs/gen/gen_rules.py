"""The Rules and readings tables, generated from `models.tower.Rules`/`SWITCHES` and
`models.combo.ComboRules`, so that the page cannot drift from the code."""

from __future__ import annotations

from dataclasses import fields
from typing import get_args

from models.combo import READINGS, ComboRules
from models.tower import STANDARD, SWITCHES, VARIANTS, Rules
from service.castell.readings import readings

# The numbers of `Rules` that are not switches: one line each. A field added to `Rules`
# without a line here fails the docs build (KeyError), which is the point.
CASTELL_NUMBERS = {
    "width_limit": "the most castellers a level may hold without a Base use",
    "min_size": "the smallest casteller size",
    "max_size": "the largest casteller size",
    "festival_min_levels": "the fewest levels a festival tower needs",
    "max_per_size": "the most castellers of one size in any pool or tower (the bag's count "
                    "per size); every notation is bounded by it before anything is allocated",
}
COMBO_NUMBERS = {
    "start_gold": "gold each player starts with",
    "start_keys": "keys each player starts with",
    "flip_gold": "gold a player takes for a card played face down",
    "flip_keys": "keys a player takes for a card played face down",
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def castell_switches() -> str:
    """The switch table of `castell rules`, the variants and the fixed numbers."""
    view = readings()
    lines = ["| switch | values | default | meaning |", "| --- | --- | --- | --- |"]
    for row in view.switches:
        values = " / ".join(f"`{v}`" for v in row.values)
        lines.append(f"| `{row.switch}` | {values} | `{row.default}` | {_cell(row.meaning)} |")
    lines += ["", "| variant | its switches that differ from `standard` |", "| --- | --- |"]
    for name, changes in view.variants.items():
        lines.append(f"| `{name}` | {', '.join(f'`{c}`' for c in changes) or '(none)'} |")
    lines += ["", "| number (not a switch) | standard | what it is |", "| --- | --- | --- |"]
    for field in fields(Rules):
        if field.name == "name" or field.name in SWITCHES:
            continue
        lines.append(f"| `{field.name}` | {getattr(STANDARD, field.name)} | "
                     f"{CASTELL_NUMBERS[field.name]} |")
    assert set(VARIANTS) == set(view.variants)
    return "\n".join(lines)


def combo_readings() -> str:
    """The readings and numbers of `ComboRules`."""
    defaults = ComboRules()
    lines = ["| reading | values (default first) | meaning |", "| --- | --- | --- |"]
    numbers = ["| number | default | what it is |", "| --- | --- | --- |"]
    for name, field in ComboRules.model_fields.items():
        if name in READINGS:
            values = [str(v) for v in get_args(field.annotation)]
            default = str(getattr(defaults, name))
            values.sort(key=lambda v: v != default)
            shown = " / ".join(f"`{v}`" for v in values)
            lines.append(f"| `{name}` | {shown} | {_cell(READINGS[name])} |")
        else:
            numbers.append(f"| `{name}` | {_show(getattr(defaults, name))} | "
                           f"{COMBO_NUMBERS[name]} |")
    return "\n".join([*lines, "", *numbers])
