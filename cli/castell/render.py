"""Terminal pictures: towers as rows of sized boxes, widest at the bottom; panels and tables."""

from __future__ import annotations

from rich.align import Align
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from models.tower import SKILL_ORDER, SkillUses, Tower, Violation

# one colour per size band; darker = heavier
_COLOURS = ["#f5d76e", "#f2b950", "#ee9b3d", "#e97c36", "#e05d2f", "#cf4330",
            "#b8322f", "#9c262f", "#7e1e2d", "#5f1729"]


def casteller(size: int) -> Text:
    """One casteller: a box whose width grows with the size, number in the middle."""
    colour = _COLOURS[min(max(size, 1), len(_COLOURS)) - 1]
    ink = "black" if size <= 4 else "white"
    return Text(f"{size:^{size + 2}}", style=f"bold {ink} on {colour}")


LEVEL, CASTELLERS = "level", "castellers (size)"  # the picture's column heads


def tower_picture(tower: Tower) -> RenderableType:
    """Top level first on screen, each level centred, with its number at the left, under a
    head that says which column is which (a row read "1  9 9 9 9" is level 1 of four 9s)."""
    rows = []
    for number in range(tower.height, 0, -1):
        level = tower.levels[number - 1]
        row = Text(" ").join(casteller(s) for s in level.sizes)
        rows.append((number, row))
    width = max((row.cell_len for _, row in rows), default=0)
    width = max(width, len(CASTELLERS))
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", style="dim")
    grid.add_column(width=width)
    grid.add_row(LEVEL, Align.center(Text(CASTELLERS, style="dim"), width=width))
    for number, row in rows:
        grid.add_row(str(number), Align.center(row, width=width))
    return grid


def uses_text(uses: SkillUses | None) -> str:
    if uses is None:
        return "-"
    spent = [f"{s.value} {uses[s]}" for s in SKILL_ORDER if uses[s]]
    return ", ".join(spent) if spent else "none"


def violations_table(violations: tuple[Violation, ...]) -> Table:
    table = Table(title="Violations", title_style="bold red", show_edge=False)
    table.add_column("rule", style="bold")
    table.add_column("level", justify="right")
    table.add_column("why", overflow="fold")
    for v in violations:
        table.add_row(v.rule, "-" if v.level is None else str(v.level), v.message)
    return table


def stack(*parts: RenderableType | None) -> Group:
    return Group(*(p for p in parts if p is not None))
