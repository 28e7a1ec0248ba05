"""The CLI edge: the one place errors become messages and exit codes (`at_edge`); the consoles
(`cli.consoles`) and the stops (`cli.stops`) it runs commands with are read from here too."""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.text import Text

from cli import consoles
from cli.consoles import ExitCode, _silence_stdout, err, one_line, out
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
    "SCHEMA_VERSION", "ExitCode", "Terminated", "asks_json", "at_edge", "command_started",
    "emit_error", "emit_json", "emit_output", "err", "errors_as_json", "fail",
    "fail_interrupted", "flag", "graceful", "interrupted", "one_line", "out", "output_failed",
    "said_interrupted", "stop_code", "stop_word", "worded", "written_after_stop",
]

P = ParamSpec("P")
R = TypeVar("R")


class _JsonErrors:
    """Whether this command's errors go to stdout as a JSON object too (`--json` was given),
    and whether stdout already holds the command's object (a refused step's, a verdict's, a
    batch's lines): an error after it prints no second one."""

    asked = False
    printed = False


def errors_as_json(asked: bool) -> None:
    """A command starts: its errors print a JSON object on stdout too when `asked`."""
    _JsonErrors.asked, _JsonErrors.printed = asked, False


def asks_json(args: Sequence[str]) -> bool:
    """Whether a command line gives `--json` (before `--`, after which words are values):
    read before click parses it, for a usage error."""
    words = list(args)
    return "--json" in words[:words.index("--")] if "--" in words else "--json" in words


_ERRORS = (ExitCode.NO, ExitCode.BAD_INPUT, ExitCode.TIME_LIMIT, ExitCode.INTERNAL)


def emit_error(message: str, code: int, reason: str | None = None) -> None:
    """An error as one JSON object on stdout, `{"schema_version": 1, "error": {"code",
    "message", "exit"}}` (`reason` too, a refused step's code), made by its model
    (`service.results.base.ErrorOutput`, what `castell schema error` describes), when
    `--json` was given and the command printed no object of its own; the one line on stderr
    is the caller's."""
    if not _JsonErrors.asked or _JsonErrors.printed or code not in _ERRORS:
        return
    from service.results.base import ErrorOutput, output_of

    error: dict[str, Any] = {"code": ExitCode(code).name.lower(), "message": message,
                             "exit": int(code)}
    if reason is not None:  # given only then: the model leaves an unset field out
        error["reason"] = reason
    printed = output_of(ErrorOutput, {"error": error})
    with contextlib.suppress(OSError, ValueError):  # stdout closed or full: stderr says it
        emit_output(printed)


def fail(message: str, code: ExitCode = ExitCode.BAD_INPUT,
         reason: str | None = None) -> NoReturn:
    """One line on stderr and the exit code (`cli.consoles.fail`); with `--json`, the error
    as one JSON object on stdout too (`emit_error`)."""
    emit_error(message, code, reason)
    consoles.fail(message, code)


def emit_json(value: Any) -> None:
    """One JSON object on one line of stdout, its `schema_version` first."""
    _JsonErrors.printed = True
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
    _JsonErrors.printed = True
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
        errors_as_json(bool(kwargs.get("as_json")))
        try:
            with _interrupts(_deadline(kwargs)):
                try:
                    value = command(*args, **kwargs)
                except typer.Exit:
                    sys.stdout.flush()  # a closed pipe or a full disk shows here, not at exit
                    raise
                sys.stdout.flush()
                return value
        except ProvenNo as error:
            fail(str(error), ExitCode.NO)
        except Refused as error:
            fail(str(error), ExitCode.NO, reason=error.code.value)
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


