"""The `castell` entry point: Ctrl-C while the commands are still being imported (most of a
quick command's time) is the same one line and exit 130 as during the command."""

from __future__ import annotations

import os
import sys


def main() -> None:
    # a stream the shell closed (`castell board >&-`) is None in Python: its output goes
    # nowhere, as into a closed pipe (was an internal error, exit 4)
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
    try:
        from cli.main import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        raise SystemExit(130) from None
    run()
