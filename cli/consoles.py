"""The CLI's consoles and exit codes: stdout and stderr as rich consoles, one line of error
and its exit code (`fail`), stdout pointed away when it can no longer be written."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from enum import IntEnum
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.text import Text


class ExitCode(IntEnum):
    YES = 0  # valid / found / achievable
    NO = 1  # proven no: invalid, infeasible, not achievable
    BAD_INPUT = 2  # bad input or usage
    TIME_LIMIT = 3  # the time limit came before a proof
    INTERNAL = 4  # a bug in castell itself
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as shells report it)
    TERMINATED = 143  # SIGTERM (128 + 15): stopped as cleanly as by Ctrl-C


class _Console(Console):
    """rich's console without `:name:` emoji codes: a region or player named `a:cat:b` is
    printed as written (markup is escaped where user text is printed; emoji codes are not
    markup), and the emoji table is not loaded."""

    def __init__(self, **options: Any) -> None:
        super().__init__(emoji=False, **options)

    def on_broken_pipe(self) -> None:
        # rich's own exits 1; the edge ends a closed pipe quietly with 0, as Unix tools do
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


def out() -> Console:
    return _Console()


def err() -> Console:
    return _Console(stderr=True)




def one_line(message: str) -> str:
    """The message on one line: a line break or control character from the user's own text
    is shown escaped (`\\n`, `\\x85`), never as a break."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in message)


def fail(message: str, code: ExitCode = ExitCode.BAD_INPUT) -> NoReturn:
    # a Text, not a str: the user's own text in the message is never read as markup or emoji
    with contextlib.suppress(OSError):  # stderr on a full disk: the exit code still says it
        err().print(Text.assemble(("error: ", "bold red"), one_line(message)), highlight=False,
                    soft_wrap=True)
    raise typer.Exit(int(code))


def _silence_stdout(flush: bool = False) -> None:
    """Point stdout at /dev/null, so that what is still buffered cannot fail again when the
    interpreter exits (it would print 'Exception ignored' and exit 120)."""
    if flush:
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
            return
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
