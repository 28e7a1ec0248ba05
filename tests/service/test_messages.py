"""No message the application layer raises names an edge's option: every refusal and bad input
in `service/` is worded for any edge, with the input it is about as data (`SpecError.field`),
which each edge words its own way (the CLI's option, the page's control)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SERVICE = Path(__file__).resolve().parents[2] / "service"
RAISED = {"SpecError", "Refused", "ProvenNo", "PlanRefused", "TimeLimitReached", "IllegalAction",
          "CastellError", "NotationError", "BatchError", "TowerSearchUnfinished"}


def _texts(node: ast.AST, constants: dict[str, ast.AST]) -> list[str]:
    """The literal text parts of a message expression (constants followed by name)."""
    if isinstance(node, ast.Name) and node.id in constants:
        return _texts(constants[node.id], constants)
    return [n.value for n in ast.walk(node)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def raised_messages(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every literal part of a message the module raises."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants = {t.id: node.value for node in tree.body if isinstance(node, ast.Assign)
                 for t in node.targets if isinstance(t, ast.Name)}
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        called = node.exc.func
        name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", "")
        if name in RAISED and node.exc.args:
            found += [(node.lineno, text) for text in _texts(node.exc.args[0], constants)]
    return found


MODULES = sorted(SERVICE.rglob("*.py"))


def test_the_walk_finds_the_messages() -> None:
    texts = [t for m in MODULES for _, t in raised_messages(m)]
    assert len(texts) > 100
    assert any("2 to 4 players" in t for t in texts)  # a raise with a field
    assert any("a what-if goes with a game" in t for t in texts)  # a constant, followed


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(SERVICE)))
def test_no_service_message_names_an_option(module: Path) -> None:
    named = [(line, text) for line, text in raised_messages(module) if "--" in text]
    assert not named, f"{module.name}: word these for every edge (SpecError(..., field=...)): " \
                      f"{named}"


# The layers below the edges: no text of theirs names a CLI option either (issue 50: the
# readings' check said "--reading: ..." on the page). What may: documentation (docstrings, a
# bare string after an assignment), the keys of a batch folder's manifest (stored as they
# are, so that a run can be continued; `service.batches.Folder` words them without dashes),
# the JSON Schema descriptions of the CLI's `--json` output (`Field(description=...)`), and
# the deal file's own comment on the command that reads it.
LAYERS = sorted(path for layer in ("service", "planner", "models")
                for path in (SERVICE.parent / layer).rglob("*.py"))
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]*")
ALLOWED = {("models/game/deal.py", "#   castell state new --deal THIS_FILE --out game.json")}


def _descriptions(tree: ast.Module) -> list[ast.AST]:
    """The values given as a description: `Field(description=...)`, `{"description": ...}`,
    a module constant named there standing for its text."""
    constants = {t.id: node.value for node in tree.body if isinstance(node, ast.Assign)
                 for t in node.targets if isinstance(t, ast.Name)}
    described: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            described += [value for key, value in zip(node.keys, node.values, strict=True)
                          if isinstance(key, ast.Constant) and key.value == "description"]
        elif isinstance(node, ast.keyword) and node.arg == "description":
            described.append(node.value)
    return [constants[v.id] if isinstance(v, ast.Name) and v.id in constants else v
            for v in described]


def _left_alone(tree: ast.Module) -> set[int]:
    """The ids of the string nodes that are documentation, manifest keys or descriptions."""
    skipped = {id(n) for value in _descriptions(tree) for n in ast.walk(value)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))
        elif isinstance(node, ast.Dict):
            skipped.update(id(key) for key in node.keys if key is not None)
    return skipped


def option_texts(source: str, where: str) -> list[tuple[int, str]]:
    """(line, text) of every string in the module that names a `--option`, bar the above."""
    tree = ast.parse(source)
    skipped = _left_alone(tree)
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in skipped and OPTION.search(node.value)
            and (where, node.value) not in ALLOWED]


def test_the_scan_finds_an_option_in_any_text() -> None:
    source = ('"""About `--reading`."""\nABOUT = "with --festival"\n'
              'class M:\n    score: int = Field(description=ABOUT)\n'
              'def f(v):\n    return validate(R, {"--seed": v}, "--reading")\n')
    assert [text for _, text in option_texts(source, "x.py")] == ["--reading"]


@pytest.mark.parametrize("module", LAYERS, ids=lambda p: str(p.relative_to(SERVICE.parent)))
def test_no_text_below_the_edges_names_an_option(module: Path) -> None:
    named = option_texts(module.read_text(encoding="utf-8"),
                         str(module.relative_to(SERVICE.parent)))
    assert not named, f"{module.name}: name the input by its field (SpecError(..., field=...)) " \
                      f"and let each edge word it: {named}"
