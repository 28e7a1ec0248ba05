"""MkDocs hook: a page's `<!-- generated: NAME -->` line becomes the generated text NAME, so
that the Rules and readings, the CLI reference and the JSON output pages come from the code
at every build (nothing generated is committed, so nothing can be stale)."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from gen_cli import cli_reference
from gen_json import json_output
from gen_rules import castell_switches, combo_readings

GENERATED: dict[str, Callable[[], str]] = {
    "castell-switches": castell_switches,
    "combo-readings": combo_readings,
    "cli-reference": cli_reference,
    "json-output": json_output,
}
MARKER = re.compile(r"^<!-- generated: ([a-z-]+) -->$", re.MULTILINE)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    def replace(found: re.Match[str]) -> str:
        name = found.group(1)
        if name not in GENERATED:
            raise KeyError(f"{page.file.src_path}: no generated text '{name}' "
                           f"(known: {', '.join(GENERATED)})")
        return GENERATED[name]()
    return MARKER.sub(replace, markdown)
