"""The docs stand alone: nothing the pages, the README, mkdocs.yml or a data file's comments
point at lies outside the repository.

A page, the README and mkdocs.yml are read whole; a data file (`models/*/data/`, `examples/`)
by what a reader reads in it: a TOML file's comments, a Python example's docstring and
comments, an HTML sheet's links and comments (JSON has no comments). Refused:

- a link (`[text](target)`, `[name]: target`, `href`, `src`) that climbs out of the root, is
  an absolute path, or names a file the repository does not hold;
- a path in the text that climbs (`../`: a path in prose is written from the root, as in
  `models/combo/data/sample.toml`), or is absolute (`/work/...`, `~/...`; a device such as
  `/dev/stdout` is no file to read);
- the rules pages and sheets that live outside (`castell-rules.md`, `combo-rules.md`,
  `seeds/`, `shared/`) and a numbered "rules page section" of them: the project's own pages
  say it in their words and link by page and anchor.
"""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)"  # [text](target "title")
                  r"|^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)"  # [name]: target
                  r"|(?:href|src)=\"([^\"]*)\""  # HTML
                  r"|<((?:https?|file)://[^>\s]+)>", re.MULTILINE)  # <autolink>
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
CLIMB = re.compile(r"(?<![\w.])\.\./")
ABSOLUTE = re.compile(r"(?:^|(?<=[\s`'\"(=\[,]))(~?/[A-Za-z_][\w.-]*(?:/[\w.*{}-]*)+)",
                      re.MULTILINE)
QUOTED = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'")  # a TOML string: its # is no comment
DEVICE = re.compile(r"^/dev/")
# a route of `castell serve` named with its method (`POST /g/NAME/reissue`): a URL, no file
ROUTE = re.compile(r"(?:GET|POST|PUT|DELETE|PATCH|HEAD) $")
OUTSIDE = re.compile(r"castell-rules\.md|combo-rules\.md|(?<![\w-])seeds/|(?<![\w-])shared/"
                     r"|rules? page,? section \d|rules? page \d", re.IGNORECASE)


def _inside(path: Path) -> bool:
    """Whether `path` (absolute, not resolved through links) lies within the repository."""
    return os.path.normpath(path).startswith(str(ROOT) + os.sep)


def link_problems(text: str, base: Path) -> list[str]:
    """What is wrong with the link targets of `text`, a file in the folder `base`."""
    problems = []
    for found in LINK.finditer(text):
        target = next(group for group in found.groups() if group is not None)
        if target.startswith("file:"):
            problems.append(f"link to a local file: {target}")
            continue
        if SCHEME.match(target) or target.startswith("#") or not target:
            continue  # a web address or an anchor of the same page
        path = target.split("#")[0].split("?")[0]
        if path.startswith(("/", "~")):
            problems.append(f"link to an absolute path: {target}")
        elif not _inside(base / path):
            problems.append(f"link out of the repository: {target}")
        elif not (base / path).exists():
            problems.append(f"link to a file the repository does not hold: {target}")
    return problems


def text_problems(text: str) -> list[str]:
    """What is wrong with the paths and references in `text` outside its links."""
    prose = LINK.sub(" ", text)
    problems = [f"a path that climbs out of the root: ...{prose[m.start():m.start() + 40]!r}"
                for m in CLIMB.finditer(prose)]
    problems += [f"an absolute path: {m.group(1)}" for m in ABSOLUTE.finditer(prose)
                 if not DEVICE.match(m.group(1))
                 and not ROUTE.search(prose[max(0, m.start() - 7):m.start()])]
    problems += [f"a page outside the repository: {m.group(0)!r}" for m in OUTSIDE.finditer(prose)]
    return problems


def readable(path: Path) -> str:
    """What a reader reads in a data file: comments, docstrings, an HTML page's links."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        docstring = ast.get_docstring(ast.parse(text)) or ""
        comments = [tok.string for tok in tokenize.generate_tokens(io.StringIO(text).readline)
                    if tok.type == tokenize.COMMENT]
        return "\n".join([docstring, *comments])
    if path.suffix in (".html", ".htm", ".svg"):
        comments = re.findall(r"<!--(.*?)-->", text, re.DOTALL)
        links = [m.group(0) for m in re.finditer(r"(?:href|src)=\"[^\"]*\"", text)]
        return "\n".join([*comments, *links])
    if path.suffix in (".toml", ".yml", ".yaml", ".cfg", ".ini"):
        unquoted = (QUOTED.sub('""', line) for line in text.splitlines())
        return "\n".join(line.split("#", 1)[1] for line in unquoted if "#" in line)
    return ""  # JSON and JSON Lines carry no comments


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]
DATA = [p for folder in [*sorted(ROOT.glob("models/*/data")), ROOT / "examples"]
        for p in _files(folder)]


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_a_page_points_only_inside_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert link_problems(text, page.parent) + text_problems(text) == []


@pytest.mark.parametrize("data", DATA, ids=_name)
def test_a_data_file_s_comments_point_only_inside_the_repository(data: Path) -> None:
    text = readable(data)
    assert link_problems(text, data.parent) + text_problems(text) == []


def test_mkdocs_yml_points_only_inside_the_repository() -> None:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert text_problems(text) == []
    docs = ROOT / re.search(r"^docs_dir:\s*(\S+)", text, re.MULTILINE).group(1)  # type: ignore[union-attr]
    assert _inside(docs / "x")
    nav = re.findall(r"^\s+- (?:[^:\n]+:\s*)?(\S+\.md)\s*$", text, re.MULTILINE)
    assert len(nav) > 10
    for page in nav:
        assert _inside(docs / page) and (docs / page).is_file(), page
    for hook in re.findall(r"^\s+- (\S+\.py)\s*$", text, re.MULTILINE):
        assert _inside(ROOT / hook) and (ROOT / hook).is_file(), hook


def test_the_sample_deck_points_at_the_card_file_page() -> None:
    header = readable(ROOT / "models" / "combo" / "data" / "sample.toml")
    assert "docs/card-file.md" in header


@pytest.mark.parametrize("text", [
    "The rules are `../shared/castell-rules.md`.",
    "[the rules](../../shared/combo-rules.md#4-the-card-file)",
    "[rules]: ../../outside.md",
    "see ../shared/",
    "the sheets in /work/shared/seeds/",
    "written to ~/games/game.json",
    "[page](/work/main/docs/rules.md)",
    '<a href="../../../x.html">x</a>',
    "<file:///work/shared/combo-rules.md>",
    "(format: rules page section 4)",
    "the seeds/ sheets",
    "[a page we do not have](missing-page.md)",
])
def test_a_path_out_of_the_repository_is_caught(text: str) -> None:
    assert link_problems(text, ROOT / "docs") + text_problems(text)


@pytest.mark.parametrize("text", [
    "[Rules](rules.md#castle-combo) and [the table](table.md)",
    "![board](img/board.svg)",
    "<http://127.0.0.1:8000> and [MkDocs](https://www.mkdocs.org/)",
    "`models/combo/data/sample.toml`, towers `9x4/7x3/5x2/3`, `C07,V12,-/V03,~C20,-/-,-,-`",
    "`--svg /dev/stdout --json` is refused",
    "[Combo](#castle-combo)",
    "the host's `POST /g/NAME/reissue` with `player=NAME`",
])
def test_a_path_inside_the_repository_passes(text: str) -> None:
    assert link_problems(text, ROOT / "docs") + text_problems(text) == []
