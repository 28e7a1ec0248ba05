"""How a command stops: Ctrl-C (exit 130) and SIGTERM (143) cancel the command's token at
once, so that a running solve returns its best so far; the command's time limit counts from
its start; a write that landed before the stop is said as saved."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

import typer

from cli.consoles import ExitCode, err
from service.cancel import CancelToken, Clock, cancel_scope, now

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


# A stopped command's one line is the stop's. Python reports some errors itself instead of
# raising them: one in a thread, and an "unraisable" one (a KeyboardInterrupt raised by the
# handler below inside a fork hook, a finalizer or a callback, where it cannot propagate). With
# both cores busy CI saw both after a Ctrl-C: "Exception ignored in: <function _releaseLock>"
# (the handler ran in logging's fork hook while a pool started its workers) and "Exception in
# thread" (a pool's thread as its workers were ended). The signal has already cancelled the
# command's token, which is what stops its work, so these reports carry nothing for the user.


def _stopping(error: BaseException | None) -> bool:
    return (isinstance(error, KeyboardInterrupt | Terminated) or _said_interrupted
            or stop_code() is not None)


def _quiet_when_stopping(previous_thread: Any, previous_unraisable: Any) -> None:
    """Install hooks that say nothing of a thread's or an unraisable error once the command is
    stopping (any other error is reported as before)."""

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if not _stopping(args.exc_value):
            previous_thread(args)

    def unraisable_hook(args: Any) -> None:
        if not _stopping(args.exc_value):
            previous_unraisable(args)

    threading.excepthook = thread_hook
    sys.unraisablehook = unraisable_hook


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
_started = now()


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
    if (_graceful and _presses == 1) or _said_interrupted:
        return  # a graceful solve's first stop; or the stop's line is said: the command ends
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


def _deadline(options: dict[str, Any]) -> Clock | None:
    """When a command's `--time-limit` runs out, counted from the process's start: the limit
    bounds the whole command, its imports and set-up included (ortools alone takes about a
    second), not only its solves. A batch's limit is each line's own (None here)."""
    limit = options.get("time_limit")
    if not isinstance(limit, int | float) or options.get("batch") is not None:
        return None
    return Clock(seconds=limit, started=_started)


def command_started() -> None:
    """The root group's `main` calls this first: a command's time limit counts from here."""
    global _started
    _started = now()


@contextlib.contextmanager
def _interrupts(deadline: Clock | None = None) -> Iterator[None]:
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
    hooks = threading.excepthook, sys.unraisablehook
    _quiet_when_stopping(*hooks)
    try:
        with cancel_scope(token):
            yield
    finally:
        if stop_code() is None:  # stopped: quiet until the process ends (its threads' ends)
            threading.excepthook, sys.unraisablehook = hooks
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
