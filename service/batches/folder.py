"""A batch's output folder: `manifest.json` (the command and the arguments that decide its
results), one file per finished chunk under `chunks/` (each written atomically, so a stopped
run leaves only whole chunks), and the final files. Running the same command again reads the
finished chunks back and runs only the others; a folder made with other arguments is refused,
naming the first that differs.

A run holds the folder's lock (`.castell-run.lock` in it) from its start to its end (`with
folder:`, released on an error or a stop as well): a second run into the same folder at once is
refused, naming it. The manifest is read bounded (`MAX_MANIFEST_BYTES`: one line says so).

A chunk file starts with a header line (the run's key, a hash of its manifest; the chunk; its
first index; its count) and holds one JSON line per index, each checked by the job against
what it would have written for that index (`Job.line_fault`: for a tournament the record's
every field and type, its bots, players and deal). A chunk read back counts only when all of
that holds: a damaged one (cut, garbage, another run's or another chunk's, copied over, a line
edited) is run again and overwritten, and named on stderr with its first bad line; a chunk
path that is not a file is refused, by name.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from models.errors import SpecError
from models.files import parse_json, read_text, write_atomic

FORMAT = 2  # 2: chunk files start with a header line (format 1's are run again)
PER_FOLDER = 1000  # chunk files per sub-folder: a 100,000-game tournament is 100 folders
LOG = logging.getLogger("castell.batches")
LOCK = ".castell-run.lock"  # the folder's lock file: a run writing it holds it
# a manifest is a few hundred bytes (the command and its arguments): more is not one
MAX_MANIFEST_BYTES = 64 * 1024


@dataclass
class _Held:
    lock: FileLock
    opened: int  # the folder objects of this process that hold it (a run continued here)


_HELD: dict[Path, _Held] = {}  # the folders this process writes, by real path


class Folder:
    def __init__(self, path: str | Path, command: str, arguments: dict[str, Any]) -> None:
        self.path = Path(path)
        self.command = command
        self.arguments = arguments
        self._held: Path | None = None  # the real path whose lock this object holds

    def __enter__(self) -> Folder:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def manifest(self) -> dict[str, Any]:
        return {"format": FORMAT, "command": self.command, "arguments": self.arguments}

    def open(self) -> None:
        """Start the folder, or check that it holds a run of this same command; either way
        this process's to write until `close` (`_hold`); refused, it is not held."""
        try:
            self._open()
        except BaseException:
            self.close()
            raise

    def _open(self) -> None:
        manifest = self.path / "manifest.json"
        try:
            if not manifest.exists() and self.path.exists() and \
                    any(p.name != LOCK for p in self.path.iterdir()):
                raise SpecError(f"'{self.path}' is not empty and holds no manifest.json: give "
                                "a new or empty folder", field="out")
            self.path.mkdir(parents=True, exist_ok=True)
            self._hold()
            if manifest.exists():
                self._same(manifest)
                return
            write_atomic(manifest, json.dumps(self.manifest, indent=1) + "\n")
        except OSError as error:
            raise SpecError(f"cannot use '{self.path}': {error.strerror}") from None

    def _hold(self) -> None:
        """The folder's lock, held until `close`: a second run into the same folder at once
        is refused, by name (issue 53: the loser said "not empty and holds no manifest.json",
        having seen the winner's manifest half written). One process may open its folder
        again (a run continued in the same process)."""
        if self._held is not None:
            return
        real = self.path.resolve()
        if real in _HELD:
            _HELD[real].opened += 1
            self._held = real
            return
        lock = FileLock(real / LOCK, timeout=0)
        try:
            lock.acquire()
        except Timeout:
            raise SpecError(f"another run is writing '{self.path}': wait for it to end, or "
                            "give another folder", field="out") from None
        _HELD[real] = _Held(lock, 1)
        self._held = real

    def close(self) -> None:
        """The run has ended (finished, failed or stopped): the folder's lock is let go once
        no folder object of this process holds it."""
        real, self._held = self._held, None
        if real is None or real not in _HELD:
            return
        held = _HELD[real]
        held.opened -= 1
        if held.opened <= 0:
            del _HELD[real]
            held.lock.release()

    def _same(self, manifest: Path) -> None:
        found = read_manifest(manifest)
        if not isinstance(found, dict) or found.get("command") != self.command:
            was = found.get("command") if isinstance(found, dict) else None
            raise SpecError(f"'{self.path}' holds a run of `castell {was}`, not of "
                            f"`castell {self.command}`: give another folder", field="out")
        before = found.get("arguments", {})
        # an argument only one side has is None on the other (a tournament records its
        # --slack only when it is not 1, so a run at 10 is not continued at 1)
        extra = [n for n in before if n not in self.arguments] if isinstance(before, dict) else []
        for name in [*self.arguments, *extra]:
            value = self.arguments.get(name)
            if before.get(name) != value:
                raise SpecError(f"'{self.path}' holds a run with {name.lstrip('-')} "
                                f"{_shown(before.get(name))}, not {_shown(value)}: give the "
                                "same arguments to continue it, or another folder",
                                field="out")

    @property
    def key(self) -> str:
        """This run's key in its chunks' headers: a hash of its manifest."""
        text = json.dumps(self.manifest, sort_keys=True)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def chunk_path(self, chunk: int) -> Path:
        return self.path / "chunks" / f"{chunk // PER_FOLDER:04d}" / f"{chunk:07d}.jsonl"

    def _header(self, chunk: int, indices: range) -> str:
        return json.dumps({"run": self.key, "chunk": chunk, "first": indices.start,
                           "count": len(indices)})

    def finished(self, chunk: int, indices: range,
                 fault: Callable[[int, str], str | None]) -> list[str] | None:
        """The lines of a finished chunk of `indices`, each one the job would have written for
        its index (`fault` None for it). None when the chunk is still to run, or its file is
        damaged: it is then run again, and a damaged one is named on stderr (the logger's
        warning: no handler configured, Python prints it there)."""
        path = self.chunk_path(chunk)
        if path.exists() and not path.is_file():
            raise SpecError(f"'{path}' is not a chunk file: remove it to run its chunk again")
        try:
            text = path.read_bytes().decode("utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError):
            return _again(path, "cannot be read as text")
        lines = text.split("\n")
        if lines[-1] or lines[0] != self._header(chunk, indices):  # cut, or not this chunk's
            return _again(path, "is cut, or not this run's chunk")
        body = lines[1:-1]
        if len(body) != len(indices):
            return _again(path, f"holds {len(body)} lines, not {len(indices)}")
        for number, (line, index) in enumerate(zip(body, indices, strict=True), start=2):
            why = fault(index, line)
            if why is not None:
                return _again(path, f"line {number}: {why}")
        return body

    def write_chunk(self, chunk: int, indices: range, lines: list[str]) -> None:
        path = self.chunk_path(chunk)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, "".join(line + "\n"
                                   for line in [self._header(chunk, indices), *lines]))

    def write(self, name: str, text: str) -> Path:
        path = self.path / name
        write_atomic(path, text)
        return path


def read_manifest(path: Path) -> Any:
    """A folder's manifest as JSON data, read bounded (`MAX_MANIFEST_BYTES`); a `SpecError`
    naming it when it cannot be read, is larger, or is not JSON."""
    with contextlib.suppress(OSError):  # not there, unreadable: `read_text` says which
        if path.stat().st_size > MAX_MANIFEST_BYTES:
            raise SpecError(f"'{path}' is larger than {MAX_MANIFEST_BYTES // 1024} KiB: not a "
                            "batch manifest")
    text = read_text(path, MAX_MANIFEST_BYTES)  # bounded still, should it grow meanwhile
    try:
        return parse_json(text, str(path))
    except SpecError:
        raise SpecError(f"'{path}' is not a batch manifest") from None


def _again(path: Path, why: str) -> list[str] | None:
    """None (the chunk is to run again), said on stderr (`cli.batches`' handler)."""
    LOG.warning("%s: %s: running its chunk again", path, why)
    return None


def _shown(value: Any) -> str:
    return "(none)" if value is None else str(value)
