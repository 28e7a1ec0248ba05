"""`castell rules`: every reading that is a switch, its values and its default."""

from __future__ import annotations

import inspect
from typing import Any

from rich.table import Table

from cli import options
from cli.edge import at_edge, emit_json, out
from models.tower import STANDARD, SWITCHES, VARIANTS, Rules, switch_values


def _descriptions() -> dict[str, str]:
    """Each switch's paragraph of the `Rules` docstring (one place says what they mean)."""
    doc = inspect.getdoc(Rules) or ""
    found: dict[str, list[str]] = {}
    current = None
    for line in doc.splitlines():
        head = line.split(":")[0].strip()
        if line and not line.startswith(" ") and head in SWITCHES:
            current = head
            found[current] = [line.split(":", 1)[1].strip()]
        elif current and line.startswith(" "):
            found[current].append(line.strip())
        else:
            current = None
    return {name: " ".join(words) for name, words in found.items()}


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@at_edge
def rules(as_json: options.Json = False) -> None:
    """List every rules switch: its values, its default, and what it means.

    Set them with --rules on any command that takes it, after a variant name:
    --rules standard,prize_ties=turn-order,special_move=any. A game stores the readings it
    was started with (`castell state new --rules ...`).

    Example:

      castell rules
    """
    described = _descriptions()
    rows: list[dict[str, Any]] = [{"switch": name, "values": list(switch_values(name)),
             "default": _show(getattr(STANDARD, name)), "meaning": described.get(name, "")}
            for name in SWITCHES]
    variants = {name: [f"{switch}={_show(getattr(variant, switch))}" for switch in SWITCHES
                       if getattr(variant, switch) != getattr(STANDARD, switch)]
                for name, variant in VARIANTS.items()}
    if as_json:
        emit_json({"variants": variants,
                   "switches": rows})
        return
    table = Table(title="Rules switches (--rules VARIANT,switch=value,...)")
    for column in ("switch", "values", "default", "meaning"):
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(row["switch"], " | ".join(row["values"]), row["default"], row["meaning"])
    out().print(table)
    shown = ", ".join(f"{name} ({', '.join(changes)})" if changes else name
                      for name, changes in variants.items())
    out().print(f"variants: {shown}")
