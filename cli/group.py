"""The root command group: usage errors as one line (`castell best: --time-limit ...; see
'castell best --help'`), exit 2, instead of click's boxed usage text; help text reflowed."""

from __future__ import annotations

import contextlib
import errno
import inspect
import os
import sys
from collections.abc import Sequence
from typing import Any

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperGroup

import cli.edge as edge
from cli.edge import ExitCode, err, one_line


def _pipe_closed(self: Console) -> None:
    raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


# typer prints help through a rich console of its own, whose closed-pipe handler exits 1; the
# edge ends a closed pipe quietly with 0 (`castell best -h | head -1`), as Unix tools do
Console.on_broken_pipe = _pipe_closed  # type: ignore[method-assign]


class CastellGroup(TyperGroup):
    """The root command: usage errors as one line (`castell best: --time-limit ...; see
    'castell best --help'`), exit 2, instead of click's boxed usage text."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        try:
            return self._main(args, prog_name, complete_var, standalone_mode,
                              windows_expand_args, **extra)
        except KeyboardInterrupt:
            # Ctrl-C in the first lines, before click or the command's edge could take it (a
            # full run in CI sent one there: a traceback and exit -2): the one line, 130
            if not edge.said_interrupted():
                with contextlib.suppress(OSError):
                    err().print("interrupted", highlight=False)
            if standalone_mode:
                sys.exit(int(ExitCode.INTERRUPTED))
            return int(ExitCode.INTERRUPTED)

    def _main(self, args: Sequence[str] | None, prog_name: str | None,
              complete_var: str | None, standalone_mode: bool, windows_expand_args: bool,
              **extra: Any) -> Any:
        edge.command_started()
        edge.said_interrupted(False)
        edge.errors_as_json(edge.asks_json(sys.argv[1:] if args is None else args))
        reflow(self)
        for arg in sys.argv[1:] if args is None else args:
            try:
                arg.encode("utf-8")
            except UnicodeEncodeError:  # bytes that are not UTF-8 (a surrogate escape)
                with contextlib.suppress(OSError):
                    err().print(Text(f"error: castell: the argument '{one_line(arg)}' is not "
                                     "UTF-8 text"), highlight=False, soft_wrap=True)
                if standalone_mode:
                    sys.exit(int(ExitCode.BAD_INPUT))
                return int(ExitCode.BAD_INPUT)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False,
                                windows_expand_args=windows_expand_args, **extra)
        except CLICK_ERROR as error:
            code = _clicked(error)
        except typer.Abort:
            code = int(ExitCode.INTERRUPTED)
        except OSError as error:  # help or --version into a closed pipe or a full disk
            code = edge.output_failed(error)
        except SystemExit as done:
            # typer turns a closed pipe into exit 1 itself; the cause says it was the pipe
            cause = done.__context__
            if not (isinstance(cause, OSError) and cause.errno == errno.EPIPE):
                raise
            code = edge.output_failed(cause)
        code = 0 if code is None else code
        if code == ExitCode.INTERRUPTED and not edge.said_interrupted():
            # Ctrl-C while the arguments were read, before the command's own edge: typer
            # turns it into exit 130 silently; the user still gets the one line
            err().print("interrupted", highlight=False)
        if standalone_mode:
            sys.exit(code)
        return code


# Typer vendors click (its exceptions are not `click`'s): the classes are reached through
# Typer's public BadParameter, and told apart by name, never through a private module
CLICK_ERROR: type[Any] = next(c for c in typer.BadParameter.__mro__
                              if c.__name__ == "ClickException")


def _named(error: BaseException, name: str) -> bool:
    """Whether `error` is click's exception `name` (or a subclass of it)."""
    return any(c.__name__ == name for c in type(error).__mro__)


def _clicked(error: Any) -> int:
    """A usage error as one line on stderr (help for a command given no arguments); its exit
    code."""
    if _named(error, "NoArgsIsHelpError"):
        assert error.ctx is not None
        typer.echo(error.ctx.get_help())
        return int(ExitCode.BAD_INPUT)
    try:
        line = usage_line(error)
    except Exception:  # the edge itself must never fail: click's own wording then
        line = error.format_message()
    with contextlib.suppress(OSError):  # stderr on a full disk: the exit code says it
        err().print(Text.assemble(("error: ", "bold red"), one_line(line)),
                    highlight=False, soft_wrap=True)
    code: int = error.exit_code
    edge.emit_error(line, code)  # with --json, the error on stdout too
    return code


def usage_line(error: Any) -> str:
    """One line: the command, what is wrong, where to look."""
    context = getattr(error, "ctx", None)
    command = context.command_path if context is not None else "castell"
    param: Any = getattr(error, "param", None)
    message = error.format_message()
    if isinstance(error, typer.BadParameter) and param is None:
        message = error.message  # a bad value that names no parameter: as it is
    elif isinstance(error, typer.BadParameter):
        if param.param_type_name == "option" and param.opts:
            name = max(param.opts, key=len)
        else:
            name = str(getattr(param, "metavar", None) or param.name or "").upper()
        message = f"{name} {error.message.removeprefix('Value error, ')}"
        if _named(error, "MissingParameter") and not error.message:
            message = f"missing {name}"  # click's own wording is left empty by typer
    message = " ".join(message.split(" ")).replace("\n", " ").rstrip(".")
    option = getattr(error, "option_name", None)
    if _named(error, "NoSuchOption") and option and not option[1:2].isalpha() \
            and not option.startswith("--"):
        # "-1", "-,-,-/..": a value, not an option (`play g.json recruit -1`, an empty cell)
        message += "; a value that starts with '-' goes after '--' (castell ... -- -1)"
    hint = f"; see '{command} --help'" if context is not None else ""
    return f"{command}: {message}{hint}"


def reflow(command: Any) -> None:
    """Help text wrapped by the terminal: a docstring's prose paragraphs are joined into one
    line each (rich mode would keep the source's line breaks); indented lines (examples) stay."""
    if command.help:
        paragraphs = inspect.cleandoc(command.help).split("\n\n")
        command.help = "\n\n".join(
            part if any(line.startswith(" ") for line in part.splitlines())
            else " ".join(part.splitlines()) for part in paragraphs)
    for child in getattr(command, "commands", {}).values():
        reflow(child)
