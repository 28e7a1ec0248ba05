"""The CLI reference: every command's `--help`, generated from the Typer app (`cli.main.app`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer
from typer.testing import CliRunner

from cli.main import app

# the help's width in columns: the option boxes fit the page's column at the smaller type
# of docs/stylesheets/cli.css (at 100 they ran past it and were cut off)
WIDTH = "80"


def commands() -> Iterator[tuple[str, ...]]:
    """Every command's words after `castell`, groups first, in `castell --help` order."""
    def walk(command: Any, path: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        yield path
        real = getattr(command, "real", command)  # cli.main's LazyCommand wraps the real one
        if hasattr(real, "list_commands"):  # a group
            ctx = typer.Context(real, info_name=path[-1] if path else "castell")
            for name in real.list_commands(ctx):
                sub = real.get_command(ctx, name)
                if sub is not None and not sub.hidden:
                    yield from walk(sub, (*path, name))
    yield from walk(typer.main.get_command(app), ())


def help_text(path: tuple[str, ...]) -> str:
    """What `castell PATH --help` prints, trailing spaces trimmed."""
    result = CliRunner().invoke(app, [*path, "--help"], prog_name="castell",
                                env={"COLUMNS": WIDTH, "TERM": "dumb", "NO_COLOR": "1"})
    if result.exit_code != 0:
        raise RuntimeError(f"castell {' '.join(path)} --help exited {result.exit_code}")
    lines = [line.rstrip() for line in result.output.splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    return "\n".join(lines).rstrip()


def cli_reference() -> str:
    """One section per command, its help in a text block of the class `cli-help` (set in
    smaller type by docs/stylesheets/cli.css)."""
    parts = []
    for path in commands():
        title = " ".join(("castell", *path))
        level = "#" * min(2 + max(len(path) - 1, 0), 4)
        parts.append(f"{level} `{title}`\n\n```{{ .text .cli-help }}\n{help_text(path)}\n```\n")
    return "\n".join(parts)
