"""Every `$ castell ...` line of the docs pages and the README runs with the exit code the page
says, so that a documented command cannot rot.

A line runs in a temporary directory holding a copy of `examples/`, after the lines above it
on the same page (a page's session builds its own files there), in process through the Typer
app (a process per line would cost the start-up a hundred times over); `> FILE` writes its
stdout there and `| ...` is dropped. It must exit 0, or the code its trailing marker names:
`$ castell best ... # exit 1`; `# not run` leaves out a line that does not end by itself
(`castell serve`). That the installed `castell` starts is the CLI tests' job."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]
COMMAND = re.compile(r"^\s*\$ (castell\b.*)$", re.MULTILINE)
EXIT = re.compile(r"#\s*exit (\d+)\b")
NOT_RUN = re.compile(r"#\s*not run\b")


def console_lines(text: str) -> list[tuple[str, int]]:
    """Each `$ castell ...` line of a page and the exit code it expects."""
    found = []
    for line in COMMAND.findall(text):
        if NOT_RUN.search(line):
            continue
        marker = EXIT.search(line)
        found.append((line.strip(), int(marker.group(1)) if marker else 0))
    return found


def test_the_marker_is_read() -> None:
    text = ("```console\n$ castell best --pool 9  # exit 1: no\n  $ castell rules\n$ python x\n"
            "$ castell serve game.json  # not run: a server\n```")
    assert console_lines(text) == [("castell best --pool 9  # exit 1: no", 1),
                                   ("castell rules", 0)]


def test_the_pages_have_examples() -> None:
    assert sum(len(console_lines(page.read_text())) for page in PAGES) >= 40


def run(line: str, where: Path) -> tuple[int, str]:
    """Run one console line in `where`: its exit code and what it wrote to stderr."""
    words = shlex.split(line, comments=True)
    assert words[0] == "castell", line
    if "|" in words:
        words = words[:words.index("|")]
    target = None
    if ">" in words:
        at = words.index(">")
        words, target = words[:at], words[at + 1]
    result = CliRunner().invoke(app, words[1:], prog_name="castell",
                                env={"COLUMNS": "100", "NO_COLOR": "1", "CASTELL_DEBUG": None})
    if target is not None:
        (where / target).write_text(result.stdout)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return -1, f"{type(result.exception).__name__}: {result.exception}"
    return result.exit_code, result.stderr


def test_a_redirect_writes_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("castell rules --json > rules.json  # the readings", tmp_path) == (0, "")
    assert (tmp_path / "rules.json").read_text().startswith('{"schema_version": 1')


@pytest.mark.parametrize("page", [p for p in PAGES if console_lines(p.read_text())],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_console_line_runs(page: Path, tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    wrong = []
    for line, expected in console_lines(page.read_text()):
        code, errors = run(line, tmp_path)
        if code != expected:
            wrong.append(f"{line}\n  exit {code}, expected {expected}: {errors.strip()[-400:]}")
    assert not wrong, f"{page.name}:\n" + "\n".join(wrong)
