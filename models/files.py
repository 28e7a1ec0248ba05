"""Reading user files into pydantic models, with errors that name the field path."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
import tomllib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

from models.errors import SpecError

if TYPE_CHECKING:  # pydantic is imported when a file is validated, not by every command
    from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound="BaseModel")


def field_errors(error: ValidationError) -> str:
    """`field.path: message (got value)` for each problem, joined by `; `."""
    parts = []
    for problem in error.errors():
        path = ".".join(str(p) for p in problem["loc"])
        message = problem["msg"].removeprefix("Value error, ")
        shown = "" if problem["type"] == "missing" or not problem["loc"] \
            else f" (got {_short(repr(problem['input']))})"
        parts.append(f"{path}: {message}{shown}" if path else message)
    return "; ".join(parts)


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def validate(schema: type[M], data: Any, source: str) -> M:
    """Data checked against a pydantic model, errors naming the field path and the source."""
    from pydantic import ValidationError

    try:
        return schema.model_validate(data)
    except ValidationError as error:
        raise SpecError(f"{source}: {field_errors(error)}") from None


# Bounds on what is read before it is parsed: no state, board, puzzle or batch file of this
# game comes near them (the default board is 6 KB, a state 3 KB), and a JSON or TOML value
# nested deeper than MAX_DEPTH is no file of ours (the parsers would recurse into it).
MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 32
# json/tomllib raise a plain ValueError for an integer longer than Python's conversion limit
TOO_LONG_NUMBER = "holds a number with thousands of digits; no field of this game needs one"


def _kind(mode: int) -> str | None:
    """What a file that is not a regular file is, for the message (None: a regular file)."""
    kinds = {stat.S_ISFIFO: "a FIFO (named pipe)", stat.S_ISSOCK: "a socket",
             stat.S_ISCHR: "a device", stat.S_ISBLK: "a device", stat.S_ISDIR: "a folder"}
    return next((name for test, name in kinds.items() if test(mode)), None)


def read_text(path: Path, limit: int = MAX_FILE_BYTES) -> str:
    """A UTF-8 text file of at most `limit` bytes (checked before it is read whole). Only a
    regular file is read: a FIFO with no writer would block forever, a device never end."""
    try:
        kind = _kind(os.stat(path).st_mode)
    except OSError as error:
        raise SpecError(f"cannot read '{path}': {error.strerror}") from None
    if kind is not None:
        raise SpecError(f"cannot read '{path}': it is {kind}, not a file")
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        raise SpecError(f"cannot read '{path}': {error.strerror}") from None
    return decode(data, str(path), limit)


def decode(data: bytes, source: str, limit: int = MAX_FILE_BYTES) -> str:
    """A user file's bytes as text, bounded in size."""
    if len(data) > limit:
        size = f"{limit // (1024 * 1024)} MiB" if limit % (1024 * 1024) == 0 else f"{limit} bytes"
        raise SpecError(f"'{source}' is larger than {size}; no file of this game is")
    try:
        # utf-8-sig: a byte-order mark (Windows Notepad writes one) is dropped, not a syntax error
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SpecError(f"'{source}' is not UTF-8 text") from None


def check_depth(data: Any, source: str, limit: int = MAX_DEPTH) -> Any:
    """`data` unless its lists and objects nest deeper than `limit` (iteratively: no recursion
    of our own to run out of)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children = value.values() if isinstance(value, dict) \
            else value if isinstance(value, list) else ()
        for child in children:
            if isinstance(child, dict | list):
                if depth + 1 > limit:
                    raise SpecError(f"{source}: nested deeper than {limit} levels")
                stack.append((child, depth + 1))
    return data


def parse_json(text: str, source: str) -> Any:
    """JSON text to Python values, bounded in depth; every failure a SpecError."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SpecError(f"{source}: not valid JSON: {error.msg} at line {error.lineno}, "
                        f"column {error.colno}") from None
    except RecursionError:
        raise SpecError(f"{source}: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # Python's int-conversion limit: a number no field of ours needs
        raise SpecError(f"{source}: {TOO_LONG_NUMBER}") from None
    return check_depth(data, source)


def parse_toml(text: str, source: str) -> Any:
    """TOML text to Python values, bounded in depth; every failure a SpecError."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SpecError(f"{source}: not valid TOML: {error}") from None
    except RecursionError:
        raise SpecError(f"{source}: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # Python's int-conversion limit (see parse_json)
        raise SpecError(f"{source}: {TOO_LONG_NUMBER}") from None
    return check_depth(data, source)


def load_toml(schema: type[M], path: Path) -> M:
    """A TOML file on disk checked against a pydantic model."""
    return validate(schema, parse_toml(read_text(path), str(path)), str(path))


def load_json(schema: type[M], path: Path) -> M:
    """A JSON file on disk checked against a pydantic model."""
    return validate(schema, parse_json(read_text(path), str(path)), str(path))


@contextlib.contextmanager
def atomic_open(path: Path | str, mode: int | None = None) -> Iterator[IO[str]]:
    """A text file that appears at `path` only when the `with` block ends without an error,
    with the permission bits `mode` (None: the file's it replaces, else a new file's).

    It is written as a temporary file in the same folder (so the rename cannot cross a file
    system) and renamed over `path` at the end: a failure, a full disk or Ctrl-C inside the
    block leaves whatever was at `path` as it was, and no temporary file behind.
    """
    target = _replaced(path)
    if target is None:
        # a device, a pipe (/dev/stdout, /dev/full, a FIFO): nothing to rename over, write it
        with _direct(Path(path)) as handle:
            yield handle
        return
    try:
        with _aside(target, mode) as (handle, temporary):
            yield handle
    except OSError as error:
        raise SpecError(f"cannot write '{target}': {error.strerror}") from None
    _put(temporary, target)


@contextlib.contextmanager
def _aside(target: Path, mode: int | None) -> Iterator[tuple[IO[str], str]]:
    """A new temporary file beside `target` (the same file system: the rename cannot cross
    one) and its name, with the mode the written file gets; synced to disk when the block
    ends; removed if anything fails, the block or the write."""
    fd, temporary = _temporary(target)
    try:
        # mkstemp makes the file 0600: give it the old file's mode, or a new file's (umask)
        os.chmod(temporary, _mode_for(target) if mode is None else mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            yield handle, temporary
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        _discard(temporary)
        raise


def _put(temporary: str, target: Path) -> None:
    """The written temporary file renamed over `target` (atomic), or removed."""
    try:
        os.replace(temporary, target)
    except OSError as error:
        _discard(temporary)
        raise SpecError(f"cannot write '{target}': {error.strerror}") from None


def _replaced(path: Path | str) -> Path | None:
    """The regular file an atomic write replaces (a link's own file, not the link); None for a
    device or a pipe, written directly."""
    if not str(path).strip():  # Path("") is the current folder: "it is a folder" misled
        raise SpecError("cannot write '': the file name is empty")
    target = Path(path)
    if target.is_dir():
        raise SpecError(f"cannot write '{path}': it is a folder")
    if target.exists() and not target.is_file():
        return None
    if target.is_symlink():
        target = Path(os.path.realpath(target))  # replace the file the link names, not the link
    return target


_WRITERS: dict[int, ThreadPoolExecutor] = {}  # by process: a forked child starts its own


def _writers() -> ThreadPoolExecutor:
    """The threads that write files meanwhile (kept: a new thread's start waits for the
    thread to run, which on a busy machine cost a step more than the drawing it overlaps)."""
    pid = os.getpid()
    if pid not in _WRITERS:
        _WRITERS[pid] = ThreadPoolExecutor(4, thread_name_prefix="write")
    return _WRITERS[pid]


@contextlib.contextmanager
def write_atomic_meanwhile(path: Path | str, text: str, mode: int | None = None
                           ) -> Iterator[None]:
    """`write_atomic`, with the `with` block run while the text goes to disk: the temporary
    file is written and synced on a thread of its own (the sync waits on the disk, not on
    this process: a page's step draws its page meanwhile), and renamed over `path` once both
    are done. An error in the block or in the write leaves `path` as it was."""
    target = _replaced(path)
    if target is None:
        yield
        write_atomic(path, text, mode)
        return

    def write() -> str:
        with _aside(target, mode) as (handle, temporary):
            handle.write(text)
        return temporary

    writer = _writers().submit(write)
    try:
        yield
    except BaseException:
        # the temporary file is closed (or never made) before it is removed
        if writer.exception() is None:
            _discard(writer.result())
        raise
    try:
        temporary = writer.result()
    except OSError as error:
        raise SpecError(f"cannot write '{target}': {error.strerror}") from None
    _put(temporary, target)


@contextlib.contextmanager
def _direct(target: Path) -> Iterator[IO[str]]:
    try:
        with target.open("w", encoding="utf-8", newline="") as handle:
            yield handle
    except OSError as error:
        raise SpecError(f"cannot write '{target}': {error.strerror}") from None


def not_an_input(output: Path | str | None, *inputs: Path | str | None,
                 field: str = "out") -> None:
    """Refuse an output that names one of the command's input files (a picture written to the
    game's own file would replace the game): the same file, by any path or link to it. `field`:
    the output's input, by name (`out`, `svg`), for each edge to word (the CLI: its option)."""
    if output is None or str(output) == "-" or not Path(output).is_file():
        return
    for source in inputs:
        if source is None or str(source) == "-":
            continue
        with contextlib.suppress(OSError):
            if os.path.samefile(output, source):
                raise SpecError(f"'{output}' is the input file '{source}'; writing it would "
                                "replace that file: pick another name", field=field)


def write_atomic(path: Path | str, text: str, mode: int | None = None) -> None:
    """Write `text` to `path` atomically (see `atomic_open`)."""
    with atomic_open(path, mode) as handle:
        handle.write(text)


def write_exclusive(path: Path | str, text: str) -> None:
    """Write a new file at `path`, whole or not at all, and only if none is there: the text
    goes to a temporary file that is then hard-linked to `path` (which fails when it exists,
    whoever made it first), so two writers of one new name never overwrite each other.
    `FileExistsError` when taken."""
    target = Path(path)
    fd, temporary = _temporary(target)
    try:
        os.chmod(temporary, 0o666 & ~_umask())
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.link(temporary, target)
    except FileExistsError:
        raise
    except OSError as error:
        raise SpecError(f"cannot write '{target}': {error.strerror}") from None
    finally:
        _discard(temporary)


def _temporary(target: Path) -> tuple[int, str]:
    """A new temporary file beside `target` (the same file system: a rename or link cannot
    cross one), hidden, named for it."""
    try:
        return tempfile.mkstemp(dir=target.parent or Path("."), prefix=f".{target.name}.",
                                suffix=".tmp")
    except OSError as error:
        raise SpecError(f"cannot write '{target}': {error.strerror}") from None


def _mode_for(target: Path) -> int:
    """The permission bits the written file gets: the replaced file's, else 0666 less the
    umask, as `open()` would give a new file."""
    with contextlib.suppress(OSError):
        return stat.S_IMODE(os.stat(target).st_mode)
    return 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask, read without setting it where Linux says it (setting it, even for a
    moment, would change the mode of a file another thread creates meanwhile)."""
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status") as status:
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _discard(temporary: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(temporary)
