"""The CLI edge: consoles, exit codes, and the one place errors become messages."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from enum import IntEnum
from typing import Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.text import Text

from models.errors import CastellError, ProvenNo

P = ParamSpec("P")
R = TypeVar("R")


class ExitCode(IntEnum):
    YES = 0  # valid / found / achievable
    NO = 1  # proven no: invalid, infeasible, not achievable
    BAD_INPUT = 2  # bad input or usage
    TIME_LIMIT = 3  # the time limit came before a proof
    INTERNAL = 4  # a bug in castell itself


def out() -> Console:
    return Console()


def err() -> Console:
    return Console(stderr=True)


def emit_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def fail(message: str, code: ExitCode = ExitCode.BAD_INPUT) -> NoReturn:
    # a Text, not a str: the user's own text in the message is never read as markup or emoji
    err().print(Text.assemble(("error: ", "bold red"), message), highlight=False, soft_wrap=True)
    raise typer.Exit(int(code))


def at_edge(command: Callable[P, R]) -> Callable[P, R]:
    """Run a command so that a user sees one line on stderr, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except ProvenNo as error:
            fail(str(error), ExitCode.NO)
        except CastellError as error:
            fail(str(error))
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            raise
        except Exception as error:
            if os.environ.get("CASTELL_DEBUG"):
                raise
            fail(f"internal error ({type(error).__name__}: {error}); "
                 "run with CASTELL_DEBUG=1 for the traceback", ExitCode.INTERNAL)

    return wrapper
