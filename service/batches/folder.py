"""A batch's output folder: `manifest.json` (the command and the arguments that decide its
results), one file per finished chunk under `chunks/` (each written atomically, so a stopped
run leaves only whole chunks), and the final files. Running the same command again reads the
finished chunks back and runs only the others; a folder made with other arguments is refused,
naming the first that differs.

A chunk file starts with a header line (the run's key, a hash of its manifest; the chunk; its
first index; its count) and holds one JSON line per index, each checked by the job
(`Job.valid_line`). A chunk read back counts only when all of that holds: a damaged one (cut,
garbage, another run's or another chunk's, copied over) is run again and overwritten; a chunk
path that is not a file is refused, by name.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from models.errors import SpecError
from models.files import write_atomic

FORMAT = 2  # 2: chunk files start with a header line (format 1's are run again)
PER_FOLDER = 1000  # chunk files per sub-folder: a 100,000-game tournament is 100 folders


class Folder:
    def __init__(self, path: str | Path, command: str, arguments: dict[str, Any]) -> None:
        self.path = Path(path)
        self.command = command
        self.arguments = arguments

    @property
    def manifest(self) -> dict[str, Any]:
        return {"format": FORMAT, "command": self.command, "arguments": self.arguments}

    def open(self) -> None:
        """Start the folder, or check that it holds a run of this same command."""
        manifest = self.path / "manifest.json"
        try:
            if manifest.exists():
                self._same(manifest)
                return
            if self.path.exists() and any(self.path.iterdir()):
                raise SpecError(f"'{self.path}' is not empty and holds no manifest.json: give "
                                "a new or empty folder", field="out")
            self.path.mkdir(parents=True, exist_ok=True)
            write_atomic(manifest, json.dumps(self.manifest, indent=1) + "\n")
        except OSError as error:
            raise SpecError(f"cannot use '{self.path}': {error.strerror}") from None

    def _same(self, manifest: Path) -> None:
        try:
            found = json.loads(manifest.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            raise SpecError(f"'{manifest}' is not a batch manifest") from None
        if not isinstance(found, dict) or found.get("command") != self.command:
            was = found.get("command") if isinstance(found, dict) else None
            raise SpecError(f"'{self.path}' holds a run of `castell {was}`, not of "
                            f"`castell {self.command}`: give another folder", field="out")
        before = found.get("arguments", {})
        for name, value in self.arguments.items():
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
                 valid: Callable[[int, Any], bool]) -> list[str] | None:
        """The lines of a finished chunk of `indices`, each `valid` for its index (None when
        the chunk is still to run, or its file is damaged: it is run again)."""
        path = self.chunk_path(chunk)
        if path.exists() and not path.is_file():
            raise SpecError(f"'{path}' is not a chunk file: remove it to run its chunk again")
        try:
            text = path.read_bytes().decode("utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError):
            return None
        lines = text.split("\n")
        if lines[-1] or lines[0] != self._header(chunk, indices):  # cut, or not this chunk's
            return None
        body = lines[1:-1]
        if len(body) != len(indices):
            return None
        return body if all(_valid(line, index, valid)
                           for line, index in zip(body, indices, strict=True)) else None

    def write_chunk(self, chunk: int, indices: range, lines: list[str]) -> None:
        path = self.chunk_path(chunk)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, "".join(line + "\n"
                                   for line in [self._header(chunk, indices), *lines]))

    def write(self, name: str, text: str) -> Path:
        path = self.path / name
        write_atomic(path, text)
        return path


def _valid(line: str, index: int, valid: Callable[[int, Any], bool]) -> bool:
    """A chunk's line is JSON that the job takes as index `index`'s."""
    try:
        return valid(index, json.loads(line))
    except (ValueError, RecursionError):
        return False


def _shown(value: Any) -> str:
    return "(none)" if value is None else str(value)
