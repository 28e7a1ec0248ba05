"""A batch's output folder: `manifest.json` (the command and the arguments that decide its
results), one file per finished chunk under `chunks/` (each written atomically, so a stopped
run leaves only whole chunks), and the final files. Running the same command again reads the
finished chunks back and runs only the others; a folder made with other arguments is refused,
naming the first that differs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from models.errors import SpecError
from models.files import write_atomic

FORMAT = 1
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
                                "a new or empty folder to --out")
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
                            f"`castell {self.command}`: give another --out")
        before = found.get("arguments", {})
        for name, value in self.arguments.items():
            if before.get(name) != value:
                raise SpecError(f"'{self.path}' holds a run with {name} {_shown(before.get(name))}"
                                f", not {_shown(value)}: give the same arguments to continue "
                                "it, or another --out")

    def chunk_path(self, chunk: int) -> Path:
        return self.path / "chunks" / f"{chunk // PER_FOLDER:04d}" / f"{chunk:07d}.jsonl"

    def finished(self, chunk: int, expected: int) -> list[str] | None:
        """The lines of a finished chunk (None when it is still to run)."""
        path = self.chunk_path(chunk)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return None
        return lines if len(lines) == expected else None  # a chunk file from elsewhere: rerun

    def write_chunk(self, chunk: int, lines: list[str]) -> None:
        path = self.chunk_path(chunk)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, "".join(line + "\n" for line in lines))

    def write(self, name: str, text: str) -> Path:
        path = self.path / name
        write_atomic(path, text)
        return path


def _shown(value: Any) -> str:
    return "(none)" if value is None else str(value)
