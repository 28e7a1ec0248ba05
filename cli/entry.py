"""The `castell` entry point: Ctrl-C while the commands are still being imported (most of a
quick command's time) is the same one line and exit 130 as during the command."""

from __future__ import annotations

import sys


def main() -> None:
    try:
        from cli.main import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        raise SystemExit(130) from None
    run()
