"""The `castell` entry point: Ctrl-C while the commands are still being imported (most of a
quick command's time) is the same one line and exit 130 as during the command."""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType
from typing import NoReturn


def main() -> None:
    # a stream the shell closed (`castell board >&-`) is None in Python: its output goes
    # nowhere, as into a closed pipe (was an internal error, exit 4)
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
    pressed: list[int] = []

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        pressed.append(signum)
        raise KeyboardInterrupt

    # Python's own handler, unless SIGINT is ignored (a shell's background job): keep that
    ours = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if ours:
        signal.signal(signal.SIGINT, on_sigint)
    # kept through the run: a command's module is imported when the command is chosen,
    # before its edge takes Ctrl-C over (and gives this handler back after it)
    try:
        from cli.main import main as run

        run()
    except KeyboardInterrupt:
        _interrupted()
    except ImportError:
        # Ctrl-C inside an extension module's initialisation (ortools under a busy machine)
        # comes out as its ImportError ("initialization failed"), not as KeyboardInterrupt
        if pressed:
            _interrupted()
        raise
    finally:
        if ours:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def _interrupted() -> NoReturn:
    sys.stderr.write("interrupted\n")
    raise SystemExit(130) from None
