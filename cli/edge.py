"""The CLI edge: the one place errors become messages and exit codes (`at_edge`); the consoles
(`cli.consoles`) and the stops (`cli.stops`) it runs commands with are read from here too."""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.text import Text

from cli.consoles import ExitCode, _silence_stdout, err, fail, one_line, out
from cli.stops import (
    Terminated,
    _deadline,
    _interrupts,
    command_started,
    fail_interrupted,
    graceful,
    interrupted,
    said_interrupted,
    stop_code,
    stop_word,
    written_after_stop,
)
from models.errors import CastellError, ProvenNo, Refused, TimeLimitReached
from service.results import SCHEMA_VERSION

if TYPE_CHECKING:
    from service.results.base import Output

__all__ = [
    "SCHEMA_VERSION", "ExitCode", "Terminated", "at_edge", "command_started", "emit_json",
    "emit_output", "err", "fail", "fail_interrupted", "flag", "graceful", "interrupted",
    "one_line", "out", "output_failed", "said_interrupted", "stop_code", "stop_word", "worded",
    "written_after_stop",
]

P = ParamSpec("P")
R = TypeVar("R")


def emit_json(value: Any) -> None:
    """One JSON object on one line of stdout, its `schema_version` first."""
    if isinstance(value, dict):
        value = {"schema_version": SCHEMA_VERSION, **value}
    try:
        text = json.dumps(value, ensure_ascii=False)
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate from the input: escaped, still valid JSON
        text = json.dumps(value, ensure_ascii=True)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def emit_output(output: Output) -> None:
    """A use case's result as its one JSON form (`Output.to_json`), on one line of stdout."""
    sys.stdout.write(output.to_json() + "\n")
    sys.stdout.flush()


def flag(field: str) -> str:
    """The option a service input field is given by (`what_if_rules` -> `--what-if-rules`)."""
    return "--" + field.replace("_", "-")


# what the CLI adds to a refusal about an option: the options that answer it instead
HINTS = {"rules": " (--what-if-rules asks a game under other readings)",
         "what_if_rules": " (--state FILE)"}


def worded(error: Exception) -> str:
    """An error's line as the CLI says it: the option it is about first, where it names one."""
    field = getattr(error, "field", None)
    if not field:
        return str(error)
    return f"{flag(field)}: {error}{HINTS.get(field, '')}"


# Writing stdout failed for want of room, not for a bug: a clear error, exit 2.
_FULL = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO}


def at_edge(command: Callable[P, R]) -> Callable[P, R]:
    """Run a command so that a user sees one line on stderr, never a traceback: a closed pipe
    ends quietly (exit 0), a full disk is one line (exit 2), Ctrl-C is "interrupted" (130)."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            with _interrupts(_deadline(kwargs)):
                try:
                    value = command(*args, **kwargs)
                except typer.Exit:
                    sys.stdout.flush()  # a closed pipe or a full disk shows here, not at exit
                    raise
                sys.stdout.flush()
                return value
        except (ProvenNo, Refused) as error:
            fail(str(error), ExitCode.NO)
        except TimeLimitReached as error:  # the CLI's own way to give more time: its option
            more = " (--time-limit SECONDS)" if "time_limit" in kwargs else ""
            fail(f"{error}{more}", ExitCode.TIME_LIMIT)
        except CastellError as error:
            fail(worded(error))
        except (typer.Exit, typer.Abort):
            raise
        except KeyboardInterrupt:
            _silence_stdout(flush=True)
            fail_interrupted()
        except Terminated:
            _silence_stdout(flush=True)
            fail_interrupted(code=ExitCode.TERMINATED)
        except OSError as error:
            if error.errno == errno.EPIPE:
                _silence_stdout()
                raise typer.Exit(int(ExitCode.YES)) from None
            if error.errno in _FULL:
                _silence_stdout()
                fail(f"cannot write the output: {error.strerror}")
            _internal(error)
        except Exception as error:
            stop = stop_code()
            if stop is not None:  # Ctrl-C inside an extension module's initialisation (a
                # lazy ortools import) comes out as its ImportError, not as KeyboardInterrupt
                _silence_stdout(flush=True)
                fail_interrupted(code=stop)
            _internal(error)

    return wrapper


def output_failed(error: OSError) -> int:
    """The exit code when writing stdout failed outside a command (help, --version): a closed
    pipe ends quietly with 0 (as `| head` expects), a full disk is one line and 2."""
    _silence_stdout()
    if error.errno == errno.EPIPE:
        return int(ExitCode.YES)
    if error.errno in _FULL:
        with contextlib.suppress(OSError):
            err().print(Text.assemble(("error: ", "bold red"),
                                      f"cannot write the output: {error.strerror}"),
                        highlight=False, soft_wrap=True)
        return int(ExitCode.BAD_INPUT)
    raise error


def _internal(error: Exception) -> NoReturn:
    if os.environ.get("CASTELL_DEBUG"):
        raise error
    fail(f"internal error ({type(error).__name__}: {error}); "
         "run with CASTELL_DEBUG=1 for the traceback", ExitCode.INTERNAL)


