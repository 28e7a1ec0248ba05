"""`castell rules`: every reading that is a switch, its values and its default."""

from __future__ import annotations

from rich.table import Table

from cli import options
from cli.edge import at_edge, emit_output, out
from service.castell.readings import readings


@at_edge
def rules(as_json: options.Json = False) -> None:
    """List every rules switch: its values, its default, and what it means.

    Set them with --rules on any command that takes it, after a variant name:
    --rules standard,prize_ties=turn-order,special_move=any. A game stores the readings it
    was started with (`castell state new --rules ...`).

    Example:

      castell rules
    """
    view = readings()
    if as_json:
        emit_output(view)
        return
    table = Table(title="Rules switches (--rules VARIANT,switch=value,...)")
    for column in ("switch", "values", "default", "meaning"):
        table.add_column(column, overflow="fold")
    for row in view.switches:
        table.add_row(row.switch, " | ".join(row.values), row.default, row.meaning)
    out().print(table)
    shown = ", ".join(f"{name} ({', '.join(changes)})" if changes else name
                      for name, changes in view.variants.items())
    out().print(f"variants: {shown}")
