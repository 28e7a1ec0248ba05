"""`castell schema COMMAND`: the JSON Schema of what COMMAND prints with `--json`."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from cli.edge import at_edge
from models.errors import SpecError
from service.results.registry import SCHEMAS, adapter


def _complete(ctx: typer.Context, incomplete: str) -> list[str]:
    typed = " ".join(ctx.params.get("words") or [])
    names = [name.removeprefix(typed).strip() if typed else name.split()[0] for name in SCHEMAS
             if name.startswith(typed)]
    return sorted({n.split()[0] for n in names if n and n.startswith(incomplete)})


@at_edge
def schema(
    words: Annotated[list[str], typer.Argument(
        metavar="COMMAND", help=f"One of: {', '.join(SCHEMAS)}.", show_default=False,
        autocompletion=_complete)],
) -> None:
    """Print the JSON Schema of a command's --json output.

    Every object a command prints with --json has `schema_version` first (raised when a field
    is renamed, removed or changes meaning). Batch and puzzle streams are JSON Lines: the
    schema describes one line (a batch line is the answer or {"line", "error"}).

    Examples:

      castell schema best

      castell schema state show > state-show.schema.json
    """
    name = " ".join(" ".join(words).split())
    if name not in SCHEMAS:
        raise SpecError(f"no schema for '{name}'; the commands: {', '.join(SCHEMAS)}")
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                **adapter(name).json_schema(), "title": f"castell {name} --json"}
    sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
