"""An option given twice with two different values is refused: click keeps the last one
silently, so `--players 3 --players 4` or `-t 5 ... -t 60` was a guess about what was meant.
The same value twice is harmless and allowed; options that take many values (`--reading`)
and flags are left to their own rules."""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup, TyperOption


def refuse_repeats(command: Any) -> None:
    """Make `command` (and every command of a group) refuse a single-valued option given
    twice with different values, as a usage error naming both values."""
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            refuse_repeats(sub)
        return
    original = command.parse_args

    def parse_args(ctx: typer.Context, args: list[str]) -> list[str]:
        _check(command, ctx, args)
        parsed: list[str] = original(ctx, args)
        return parsed

    command.parse_args = parse_args


def _single_valued(command: Any) -> dict[str, TyperOption]:
    names: dict[str, TyperOption] = {}
    for param in command.params:
        if (isinstance(param, TyperOption) and not param.multiple and not param.is_flag
                and not param.count and param.nargs == 1):
            for name in param.opts:
                names[name] = param
    return names


def _check(command: Any, ctx: typer.Context, args: list[str]) -> None:
    names = _single_valued(command)
    seen: dict[str, tuple[str, Any]] = {}
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word == "--":
            break
        if word.startswith("--") and "=" in word:
            name, _, value = word.partition("=")
        elif word.startswith("-") and not word.startswith("--") and word[:2] in names \
                and len(word) > 2:
            name, value = word[:2], word[2:]  # -t5
        elif word in names and index < len(args):
            name, value = word, args[index]
            index += 1
        else:
            continue
        option = names.get(name)
        if option is None:
            continue
        before = seen.get(option.name or name)
        if before is not None and before[1] != value:
            # a usage error (Typer's public one: a bad parameter that names none)
            raise typer.BadParameter(f"{before[0]} is given twice, as '{before[1]}' and as "
                                     f"'{value}': give it once", ctx)
        seen[option.name or name] = (name, value)
