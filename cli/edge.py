"""The CLI edge: consoles, exit codes, and the one place errors become messages."""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from enum import IntEnum
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.text import Text

from models.errors import CastellError, ProvenNo, Refused, TimeLimitReached
from service.cancel import CancelToken, cancel_scope
from service.results import SCHEMA_VERSION

if TYPE_CHECKING:
    from service.results.base import Output

P = ParamSpec("P")
R = TypeVar("R")


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


def one_line(message: str) -> str:
    """The message on one line: a line break or control character from the user's own text
    is shown escaped (`\\n`, `\\x85`), never as a break."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in message)


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


def fail(message: str, code: ExitCode = ExitCode.BAD_INPUT) -> NoReturn:
    # a Text, not a str: the user's own text in the message is never read as markup or emoji
    with contextlib.suppress(OSError):  # stderr on a full disk: the exit code still says it
        err().print(Text.assemble(("error: ", "bold red"), one_line(message)), highlight=False,
                    soft_wrap=True)
    raise typer.Exit(int(code))


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


_said_interrupted = False


def said_interrupted(value: bool | None = None) -> bool:
    """Whether this run already printed "interrupted" (`value` sets it: the root group clears
    it at each run)."""
    global _said_interrupted
    if value is not None:
        _said_interrupted = value
    return _said_interrupted


class Terminated(BaseException):  # a signal, as KeyboardInterrupt is: not an Exception
    """SIGTERM arrived: unwinds like Ctrl-C (an atomic write in progress removes its
    temporary file), then exit 143."""


def _terminate() -> None:
    global _terminated
    _terminated = True


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    _terminate()
    if _token is not None:
        _token.cancel()
    raise Terminated


def stop_word(code: ExitCode) -> str:
    """What a stop is called: "terminated" (SIGTERM, 143) or "interrupted" (Ctrl-C, 130)."""
    return "terminated" if code == ExitCode.TERMINATED else "interrupted"


def fail_interrupted(message: str | None = None,
                     code: ExitCode = ExitCode.INTERRUPTED) -> NoReturn:
    """One line on stderr (by default the stop's word), exit 130 (143 for SIGTERM)."""
    global _said_interrupted
    _said_interrupted = True
    with contextlib.suppress(OSError):
        err().print(stop_word(code) if message is None else message, highlight=False)
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


# Ctrl-C. Python runs a signal handler only between bytecodes, so a long CP-SAT solve (C++,
# GIL released) would hold it off until its time limit; the wakeup fd lets a watcher thread
# see the signal at once and cancel the command's token (planner.stopping), which stops its
# solvers. Then the main thread's handler raises KeyboardInterrupt, except inside `graceful()`,
# where the first Ctrl-C lets the stopped solve return its best answer so far (the command
# prints it marked interrupted). The token is this command's own: the edge makes one per run.

_presses = 0
_terminated = False  # SIGTERM came (seen by the watcher or the handler), not only Ctrl-C
_graceful = False
_token: CancelToken | None = None
# when the running command began (one command per process; in tests, per invocation)
_started = time.monotonic()


def stop_code() -> ExitCode | None:
    """How this command was stopped: SIGTERM (143), Ctrl-C (130), or not (None)."""
    if _terminated:
        return ExitCode.TERMINATED
    return ExitCode.INTERRUPTED if interrupted() else None


def interrupted() -> bool:
    """Ctrl-C came during this command (so its answer is the best found so far)."""
    return _presses > 0 or (_token is not None and _token.cancelled)


@contextlib.contextmanager
def graceful() -> Iterator[None]:
    """A solve inside this block is stopped by the first Ctrl-C, not abandoned."""
    global _graceful
    _graceful = True
    try:
        yield
    finally:
        _graceful = False


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    global _presses
    _presses += 1
    if _token is not None:
        _token.cancel()
    if _graceful and _presses == 1:
        return
    raise KeyboardInterrupt


def _watch(fd: int, token: CancelToken) -> None:
    """Cancel the token as soon as SIGINT arrives; keep stopping any solve that starts later."""
    with contextlib.suppress(OSError):
        while True:
            ready, _, _ = select.select([fd], [], [], 0.05 if token.cancelled else None)
            if ready:
                data = os.read(fd, 64)
                if not data:
                    break
                if signal.SIGTERM in data:
                    _terminate()
                if signal.SIGINT in data or signal.SIGTERM in data:
                    token.cancel()
            token.stop_active()
    os.close(fd)


def _deadline(options: dict[str, Any]) -> float | None:
    """When a command's `--time-limit` runs out, counted from the process's start: the limit
    bounds the whole command, its imports and set-up included (ortools alone takes about a
    second), not only its solves. A batch's limit is each line's own (None here)."""
    limit = options.get("time_limit")
    if not isinstance(limit, int | float) or options.get("batch") is not None:
        return None
    return _started + limit


def command_started() -> None:
    """The root group's `main` calls this first: a command's time limit counts from here."""
    global _started
    _started = time.monotonic()


@contextlib.contextmanager
def _interrupts(deadline: float | None = None) -> Iterator[None]:
    global _presses, _terminated, _token
    if threading.current_thread() is not threading.main_thread():
        with cancel_scope(CancelToken(deadline)):
            yield
        return
    _presses, _terminated = 0, False
    token = _token = CancelToken(deadline)
    reader, writer = os.pipe()
    os.set_blocking(writer, False)
    previous_fd = signal.set_wakeup_fd(writer, warn_on_full_buffer=False)
    previous = signal.signal(signal.SIGINT, _on_sigint)
    previous_term = signal.signal(signal.SIGTERM, _on_sigterm)
    watcher = threading.Thread(target=_watch, args=(reader, token), daemon=True, name="sigint")
    watcher.start()
    try:
        with cancel_scope(token):
            yield
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.signal(signal.SIGTERM, previous_term)
        signal.set_wakeup_fd(previous_fd)
        os.close(writer)  # the watcher reads end-of-file and ends
        _token = None


def written_after_stop(path: str | Path, loaded: list[int]) -> int | None:
    """After a stop (Ctrl-C, SIGTERM) in a command that writes a game: the file's revision
    when the command's write landed before the stop (`loaded` holds the revision it loaded;
    empty: it loaded nothing), else None. The write is atomic, so a newer revision is the
    whole step: the command says "saved" rather than "interrupted"."""
    from service.store import GameFile

    if not loaded:
        return None
    now = GameFile(path).revision_on_disk()
    return now if now > loaded[0] else None
